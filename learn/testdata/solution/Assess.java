import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A learner's finished gate, for the tests: the book's decision as
 * docs/decision.md §2 states it. RULE3-TRIM marks the line the scripted learner first gets
 * wrong.
 */
public class Assess {
    static final String JS_TRIM = "\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

    static boolean blank(String s) {
        for (int i = 0; i < s.length(); i++) if (JS_TRIM.indexOf(s.charAt(i)) < 0) return false;
        return true;
    }

    /** The member's value, or ABSENT when it is not there. */
    static final Object ABSENT = new Object();

    static Object get(Map<String, Object> m, String k) { return m.containsKey(k) ? m.get(k) : ABSENT; }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> assessToolInvocation(Map<String, Object> contract, Map<String, Object> request,
            Map<String, Object> environment, Map<String, Object> approval, Map<String, Object> invocationRecord) {
        String id = (String) request.get("correlationId");
        Map<String, Object> verdict = new LinkedHashMap<>();
        Map<String, Object> toolRef = (Map<String, Object>) request.get("tool");
        Map<String, Object> tool = null;
        for (Object o : (List<Object>) contract.get("tools")) {
            Map<String, Object> t = (Map<String, Object>) o;
            if (t.get("name").equals(toolRef.get("name"))) { tool = t; break; }
        }
        if (tool == null) return v(verdict, "rejected", "unknown_tool", id);
        if (!Objects.equals(get(tool, "version"), get(toolRef, "version"))) return v(verdict, "rejected", "tool_version_mismatch", id);
        Map<String, Object> rec = invocationRecord;
        if (rec != null && !id.equals(rec.get("correlationId"))) return v(verdict, "blocked", "correlation_conflict", id);
        Map<String, Object> args = (Map<String, Object>) request.get("arguments");
        List<String> missing = new ArrayList<>();
        for (Object n : (List<Object>) tool.get("requiredArguments")) {
            Object value = args == null ? null : args.get((String) n);
            if (!(value instanceof String) || blank((String) value)) missing.add((String) n); // RULE3-TRIM
        }
        if (!missing.isEmpty()) {
            v(verdict, "rejected", "invalid_arguments", id);
            verdict.put("missingArguments", missing);
            return verdict;
        }
        if (!"ready".equals(environment.get("status"))) return v(verdict, "blocked", "environment_not_ready", id);
        if (rec != null && "timed_out".equals(rec.get("status")) && "unknown".equals(rec.get("effectStatus"))) {
            v(verdict, "effect_unknown", "timed_out_without_readback", id);
            verdict.put("effectStatus", "unknown");
            return verdict;
        }
        if (rec != null && "succeeded".equals(rec.get("status")) && !"accepted".equals(rec.get("verificationStatus"))) {
            return v(verdict, "needs_evidence", "tool_result_not_verified", id);
        }
        if (!"read_only".equals(tool.get("effectClass"))) {
            if (approval == null) return v(verdict, "requires_approval", "approval_missing", id);
            if (!"active".equals(approval.get("status"))) return v(verdict, "requires_approval", "approval_" + approval.get("status"), id);
            if (!Objects.equals(get(approval, "scope"), get(tool, "approvalScope"))) return v(verdict, "requires_approval", "approval_scope_mismatch", id);
        }
        return v(verdict, "allowed", "admission_allowed", id);
    }

    static Map<String, Object> v(Map<String, Object> m, String status, String code, String id) {
        m.put("status", status);
        m.put("code", code);
        m.put("correlationId", id);
        return m;
    }
}
