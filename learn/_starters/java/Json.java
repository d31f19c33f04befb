import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Json.java — a small JSON reader and writer for the harness (Java has none
 * in its standard library). You do not need to edit it.
 */
public final class Json {
    private final String s;
    private int i;

    private Json(String s) { this.s = s; }

    /** A text that is not JSON. */
    public static final class ParseException extends Exception {
        ParseException(String message) { super(message); }
    }

    /** Parses one JSON text: Map, List, String, Double, Boolean or null. */
    public static Object parse(String text) throws ParseException {
        Json p = new Json(text);
        p.space();
        Object v = p.value(0);
        p.space();
        if (p.i != p.s.length()) throw p.fail("text after the value");
        return v;
    }

    private ParseException fail(String what) { return new ParseException(what + " at offset " + i); }

    private void space() {
        while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
    }

    private Object value(int depth) throws ParseException {
        if (depth > 500) throw fail("nested too deep");
        if (i >= s.length()) throw fail("unexpected end");
        char c = s.charAt(i);
        switch (c) {
            case '{': return object(depth);
            case '[': return array(depth);
            case '"': return string();
            case 't': return word("true", Boolean.TRUE);
            case 'f': return word("false", Boolean.FALSE);
            case 'n': return word("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return number();
                throw fail("unexpected character");
        }
    }

    private Object word(String w, Object v) throws ParseException {
        if (!s.startsWith(w, i)) throw fail("unexpected word");
        i += w.length();
        return v;
    }

    private Map<String, Object> object(int depth) throws ParseException {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        space();
        if (i < s.length() && s.charAt(i) == '}') { i++; return m; }
        while (true) {
            space();
            if (i >= s.length() || s.charAt(i) != '"') throw fail("want a member name");
            String name = string();
            if (m.containsKey(name)) throw fail("member \"" + name + "\" twice");
            space();
            if (i >= s.length() || s.charAt(i) != ':') throw fail("want ':'");
            i++;
            space();
            m.put(name, value(depth + 1));
            space();
            if (i >= s.length()) throw fail("unexpected end");
            char c = s.charAt(i++);
            if (c == '}') return m;
            if (c != ',') throw fail("want ',' or '}'");
        }
    }

    private List<Object> array(int depth) throws ParseException {
        List<Object> a = new ArrayList<>();
        i++;
        space();
        if (i < s.length() && s.charAt(i) == ']') { i++; return a; }
        while (true) {
            space();
            a.add(value(depth + 1));
            space();
            if (i >= s.length()) throw fail("unexpected end");
            char c = s.charAt(i++);
            if (c == ']') return a;
            if (c != ',') throw fail("want ',' or ']'");
        }
    }

    private String string() throws ParseException {
        StringBuilder b = new StringBuilder();
        i++;
        while (true) {
            if (i >= s.length()) throw fail("unterminated string");
            char c = s.charAt(i++);
            if (c == '"') return b.toString();
            if (c < 0x20) throw fail("control character in a string");
            if (c != '\\') { b.append(c); continue; }
            if (i >= s.length()) throw fail("unterminated escape");
            char e = s.charAt(i++);
            switch (e) {
                case '"': b.append('"'); break;
                case '\\': b.append('\\'); break;
                case '/': b.append('/'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'n': b.append('\n'); break;
                case 'r': b.append('\r'); break;
                case 't': b.append('\t'); break;
                case 'u':
                    if (i + 4 > s.length()) throw fail("short \\u escape");
                    try {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException x) {
                        throw fail("bad \\u escape");
                    }
                    i += 4;
                    break;
                default: throw fail("bad escape");
            }
        }
    }

    private Double number() throws ParseException {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
        try {
            return Double.valueOf(s.substring(start, i));
        } catch (NumberFormatException x) {
            throw fail("bad number");
        }
    }

    /** Writes a value (Map, List, String, Number, Boolean, null) as JSON. */
    public static String write(Object v) {
        StringBuilder b = new StringBuilder();
        write(b, v);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof String) {
            quote(b, (String) v);
        } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
            b.append(v);
        } else if (v instanceof Number) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("not a JSON number: " + d);
            b.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d));
        } else if (v instanceof Map) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) b.append(',');
                first = false;
                quote(b, String.valueOf(e.getKey()));
                b.append(':');
                write(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof Iterable) {
            b.append('[');
            boolean first = true;
            for (Object x : (Iterable<?>) v) {
                if (!first) b.append(',');
                first = false;
                write(b, x);
            }
            b.append(']');
        } else if (v instanceof Object[]) {
            write(b, java.util.Arrays.asList((Object[]) v));
        } else {
            throw new IllegalArgumentException("not a JSON value: " + v.getClass().getSimpleName());
        }
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || c >= 0x7f) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        b.append('"');
    }
}
