import java.util.List;
import java.util.Map;

/**
 * Assess.java — your gate's decision: the book's assessToolInvocation
 * (chapter 11) in Java. It is the only file you need to edit;
 * `toolgate learn` compiles and runs it on every save (README.md says how).
 *
 * It is given one admission input, parsed from JSON by Json.java: an object
 * is a Map (a member that is absent is not a key of it — containsKey tells
 * absent from null; absent is not the same as ""), an array a List, a
 * string a String, a number a Double, true and false a Boolean, null null.
 *   contract          {version?, tools: [{name, version?, effectClass?,
 *                      requiredArguments, approvalScope?}]}
 *   request           {correlationId, tool: {name, version?}, arguments?}
 *   environment       {status?}
 *   approval          {status, scope?}, or null
 *   invocationRecord  {correlationId?, status?, effectStatus?,
 *                      verificationStatus?}, or null
 *
 * It returns the verdict as a Map (a LinkedHashMap keeps this order):
 *   {status, code, correlationId, missingArguments?, effectStatus?}
 *
 * Eight rules are asked in order, and the first that fires decides. Start
 * with rule 1; toolgate shows the first vector your function gets wrong,
 * and h gives a hint (never code).
 */
public class Assess {
    public static Map<String, Object> assessToolInvocation(Map<String, Object> contract, Map<String, Object> request,
            Map<String, Object> environment, Map<String, Object> approval, Map<String, Object> invocationRecord) {
        // Your decision goes here.
        return null;
    }
}
