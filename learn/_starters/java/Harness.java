import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Harness.java — the line harness: toolgate writes one JSON input a line on
 * stdin; this turns each into a call of Assess.assessToolInvocation and
 * writes its answer as one JSON line on stdout. You do not need to edit it
 * (except checkInput, the optional last stage).
 *
 *   javac -d out *.java && java -cp out Harness < inputs.jsonl
 */
public class Harness {
    /**
     * The optional last stage, toolgate's own input check (not the book's):
     * return a message to refuse a line the book's function would misread or
     * crash on, or null to let it through. Json.parse refuses a member name
     * twice already.
     */
    static String checkInput(String line) {
        return null;
    }

    @SuppressWarnings("unchecked")
    static Object answer(String line) {
        try {
            String refusal = checkInput(line);
            if (refusal != null) return error(refusal);
            Object input;
            try {
                input = Json.parse(line);
            } catch (Json.ParseException e) {
                return error("not an input: " + e.getMessage());
            }
            if (!(input instanceof Map)) return error("not a JSON object");
            Map<String, Object> in = (Map<String, Object>) input;
            Map<String, Object> verdict = Assess.assessToolInvocation(
                (Map<String, Object>) in.get("contract"), (Map<String, Object>) in.get("request"),
                (Map<String, Object>) in.get("environment"), (Map<String, Object>) in.get("approval"),
                (Map<String, Object>) in.get("invocationRecord"));
            if (verdict == null) return error("no verdict: assessToolInvocation returned null");
            return verdict;
        } catch (RuntimeException e) {
            return error(e.getClass().getSimpleName() + ": " + e.getMessage() + where(e));
        }
    }

    static Map<String, Object> error(String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", message);
        return m;
    }

    /** The first place in Assess.java that the exception's stack names. */
    static String where(Throwable e) {
        for (StackTraceElement f : e.getStackTrace()) {
            if ("Assess.java".equals(f.getFileName())) return " (Assess.java:" + f.getLineNumber() + ")";
        }
        return "";
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // Answers go to stdout, one a line; what your code prints with
        // System.out goes to stderr, where toolgate shows it, so that it never
        // breaks a line.
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        System.setOut(System.err);
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) continue;
            String text;
            try {
                text = Json.write(answer(line));
            } catch (RuntimeException e) {
                text = Json.write(error("the verdict is not JSON: " + e.getMessage()));
            }
            out.write(text);
            out.write('\n');
            out.flush();
        }
    }
}
