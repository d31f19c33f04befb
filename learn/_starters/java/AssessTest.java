import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * AssessTest.java — the book's seven tests (its matrix, chapter 11), with
 * no framework (the JDK has none):
 *
 *   javac -d out *.java && java -cp out AssessTest
 *
 * `toolgate learn` checks far more inputs than these; these are the book's.
 */
public class AssessTest {
    static Map<String, Object> obj(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int k = 0; k < kv.length; k += 2) m.put((String) kv[k], kv[k + 1]);
        return m;
    }

    static List<Object> list(Object... xs) { return new ArrayList<>(List.of(xs)); }

    static Map<String, Object> contract() {
        return obj("version", "chapter-11-v1", "tools", list(
            obj("name", "document_read_metadata", "version", "v1", "effectClass", "read_only", "requiredArguments", list("documentId")),
            obj("name", "document_update_metadata", "version", "v1", "effectClass", "reversible_write",
                "requiredArguments", list("documentId", "field", "value"), "approvalScope", "metadata_write")));
    }

    static Map<String, Object> request(String id, String tool, Map<String, Object> arguments) {
        return obj("correlationId", id, "tool", obj("name", tool, "version", "v1"), "arguments", arguments);
    }

    static int failed = 0;

    static void check(String name, Map<String, Object> got, Map<String, Object> want) {
        if (want.equals(got)) {
            System.out.println("ok   " + name);
        } else {
            failed++;
            System.out.println("FAIL " + name + ": got " + got + ", want " + want);
        }
    }

    public static void main(String[] args) {
        Map<String, Object> ready = obj("status", "ready");
        Map<String, Object> approval = obj("status", "active", "scope", "metadata_write");
        Map<String, Object> read = request("request-1", "document_read_metadata", obj("documentId", "chapter-11"));
        check("unknown tool",
            Assess.assessToolInvocation(contract(), request("request-1", "document_delete", obj("documentId", "chapter-11")), ready, approval, null),
            obj("status", "rejected", "code", "unknown_tool", "correlationId", "request-1"));
        check("invalid argument shape",
            Assess.assessToolInvocation(contract(), request("request-2", "document_read_metadata", obj()), ready, approval, null),
            obj("status", "rejected", "code", "invalid_arguments", "correlationId", "request-2", "missingArguments", list("documentId")));
        check("known read-only candidate",
            Assess.assessToolInvocation(contract(), read, ready, approval, null),
            obj("status", "allowed", "code", "admission_allowed", "correlationId", "request-1"));
        check("write without approval",
            Assess.assessToolInvocation(contract(), request("request-3", "document_update_metadata",
                obj("documentId", "chapter-11", "field", "status", "value", "complete")), ready, null, null),
            obj("status", "requires_approval", "code", "approval_missing", "correlationId", "request-3"));
        check("correlation conflict",
            Assess.assessToolInvocation(contract(), read, ready, approval,
                obj("correlationId", "request-other", "status", "succeeded", "verificationStatus", "accepted")),
            obj("status", "blocked", "code", "correlation_conflict", "correlationId", "request-1"));
        check("timed out, no read-back",
            Assess.assessToolInvocation(contract(), read, ready, approval,
                obj("correlationId", "request-1", "status", "timed_out", "effectStatus", "unknown")),
            obj("status", "effect_unknown", "code", "timed_out_without_readback", "correlationId", "request-1", "effectStatus", "unknown"));
        check("succeeded, not verified",
            Assess.assessToolInvocation(contract(), read, ready, approval,
                obj("correlationId", "request-1", "status", "succeeded", "verificationStatus", "not_run")),
            obj("status", "needs_evidence", "code", "tool_result_not_verified", "correlationId", "request-1"));
        System.out.println(failed == 0 ? "7 passed" : failed + " of 7 failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}
