// AuditHarness runs the seed's correlation audit (seed 002, its Java Main's
// audit, the algorithm unchanged) on batches read from standard input, so
// that toolgate's audit (docs/decision.md §4) can be compared with the seed's own code
// (difftest.TestAuditAgainstJava). Java has no JSON in its standard library,
// so batches come in a trivial line format instead:
//
//   R <id> <id> ... | <id> <id> ...
//
// "R", the requested IDs, "|", the result IDs, separated by single spaces.
// Each ID is its UTF-8 bytes in lower-case hex; an empty ID is "-", and a
// null ID (an element the seed's audit refuses) is "~". The IDs are
// decoded as UTF-8 into Java Strings, so that TreeSet sorts them by UTF-16
// code units, as the seed's audit does. One line out per line in:
//
//   OK <diagnostic> <diagnostic> ...   the sorted diagnostics, hex as above
//   ERR                                the seed's audit threw
//
//   javac --release 17 -encoding UTF-8 -d out scripts/java/AuditHarness.java
//   java -cp out AuditHarness < batches.txt
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

public class AuditHarness {
    // audit is the seed's, as written there (only its layout differs).
    static List<String> audit(List<String> requested, List<String> results) {
        Set<String> expected = new HashSet<>();
        for (String id : requested) if (id == null || !expected.add(id)) throw new IllegalArgumentException("request id");
        Set<String> seen = new HashSet<>();
        Set<String> errors = new TreeSet<>();
        for (String id : results) {
            if (id == null) throw new IllegalArgumentException("result id");
            if (!expected.contains(id)) errors.add("unknown:" + id);
            if (!seen.add(id)) errors.add("duplicate:" + id);
        }
        for (String id : expected) if (!seen.contains(id)) errors.add("missing:" + id);
        return new ArrayList<>(errors);
    }

    static String decode(String token) {
        if (token.equals("-")) return "";
        if (token.equals("~")) return null;
        byte[] b = new byte[token.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(token.substring(2 * i, 2 * i + 2), 16);
        return new String(b, StandardCharsets.UTF_8);
    }

    static String encode(String s) {
        if (s.isEmpty()) return "-";
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) sb.append(String.format("%02x", b & 0xff));
        return sb.toString();
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII), 1 << 16);
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 16);
        for (String line; (line = in.readLine()) != null; ) {
            String[] tokens = line.split(" ");
            if (!tokens[0].equals("R")) throw new IOException("line does not start with R: " + line);
            List<String> requested = new ArrayList<>(), results = new ArrayList<>();
            List<String> into = requested;
            for (int i = 1; i < tokens.length; i++) {
                if (tokens[i].equals("|")) into = results;
                else into.add(decode(tokens[i]));
            }
            List<String> diagnostics;
            try {
                diagnostics = audit(requested, results);
            } catch (IllegalArgumentException e) {
                out.write("ERR\n");
                continue;
            }
            out.write("OK");
            for (String d : diagnostics) out.write(" " + encode(d));
            out.write("\n");
        }
        out.flush();
    }
}
