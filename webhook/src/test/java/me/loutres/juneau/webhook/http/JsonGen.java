package me.loutres.juneau.webhook.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Random JSON for the property tests of the one-pass reading: values as a small mutable model (objects keep key order
 * and may hold a key twice), written with random whitespace and random (valid) escapes, and damaged on request.
 */
final class JsonGen {
    /** An object: keys in order, duplicates allowed. */
    static final class Obj {
        final List<String> names = new ArrayList<>();
        final List<Object> values = new ArrayList<>();

        Obj put(String name, Object value) {
            names.add(name);
            values.add(value);
            return this;
        }
    }

    /** A scalar as its JSON text. */
    record Raw(String json) {
    }

    static final Raw NULL = new Raw("null");

    private final Random r;
    /** Only what {@link JsonSkipper} accepts: ASCII strings, no surrogate escapes. */
    private final boolean strict;

    JsonGen(Random r, boolean strict) {
        this.r = r;
        this.strict = strict;
    }

    // ---- values

    Object value(int depth) {
        int pick = r.nextInt(depth <= 0 ? 3 : 6);
        return switch (pick) {
            case 0 -> text(word());
            case 1 -> number();
            case 2 -> new Raw(List.of("true", "false", "null").get(r.nextInt(3)));
            case 3, 4 -> obj(depth);
            default -> arr(depth);
        };
    }

    Obj obj(int depth) {
        Obj o = new Obj();
        for (int n = r.nextInt(5); n > 0; n--) {
            o.put(word(), value(depth - 1));
        }
        return o;
    }

    List<Object> arr(int depth) {
        List<Object> a = new ArrayList<>();
        for (int n = r.nextInt(5); n > 0; n--) {
            a.add(value(depth - 1));
        }
        return a;
    }

    /** An array or object nested exactly {@code levels} deep. */
    Object nested(int levels) {
        Object inner = r.nextBoolean() ? new ArrayList<>() : new Obj();
        for (int i = 1; i < levels; i++) {
            inner = r.nextBoolean() ? new ArrayList<>(List.of(inner)) : new Obj().put(word(), inner);
        }
        return inner;
    }

    Raw text(String s) {
        return new Raw(quote(s));
    }

    Raw number() {
        String[] forms = {"0", "-0", "7", "-42", "3.25", "-0.5", "1e3", "2E-7", "6.02e+23", "9223372036854775807",
            "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890", "0.1", "1.0",
            "1.7976931348623157e309", "4.9e-325", "2147483648", "-2147483649"};
        if (r.nextInt(3) == 0) {
            return new Raw(Long.toString(r.nextLong() >> r.nextInt(64)));
        }
        return new Raw(forms[r.nextInt(forms.length)]);
    }

    /** A short string, mostly letters, sometimes quotes, backslashes, control characters and (unless strict) beyond ASCII. */
    String word() {
        StringBuilder b = new StringBuilder();
        for (int n = r.nextInt(10); n > 0; n--) {
            int kind = r.nextInt(20);
            if (kind < 14) {
                b.append((char) ('a' + r.nextInt(26)));
            } else if (kind < 17) {
                b.append("\"\\/:.-_ {}[],".charAt(r.nextInt(13)));
            } else if (kind < 18) {
                b.append("\n\t\r\b\f\u0001\u001f\u007f".charAt(r.nextInt(8)));
            } else if (!strict) {
                b.append(List.of("é", "ß", "日本", "😀", "\u2028", "\ufffe", "\ufeff").get(r.nextInt(7)));
            } else {
                b.append((char) ('0' + r.nextInt(10)));
            }
        }
        return b.toString();
    }

    /** The JSON text of a string, each character written plainly or escaped at random (always valid JSON). */
    String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean surrogate = Character.isSurrogate(c);
            boolean mustEscape = c == '"' || c == '\\' || c < 0x20 || (strict && (c > 0x7e || surrogate));
            if (strict && surrogate) {
                b.append('?');
            } else if (surrogate && i + 1 < s.length()) {
                // a pair is written whole or escaped whole: half of each is not JSON
                b.append(r.nextBoolean() ? s.substring(i, i + 2)
                        : String.format("\\u%04x\\u%04x", (int) c, (int) s.charAt(i + 1)));
                i++;
            } else if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c == '/' && r.nextBoolean()) {
                b.append("\\/");
            } else if (mustEscape || r.nextInt(8) == 0) {
                String shortForm = switch (c) {
                    case '\n' -> "\\n";
                    case '\t' -> "\\t";
                    case '\r' -> "\\r";
                    case '\b' -> "\\b";
                    case '\f' -> "\\f";
                    default -> null;
                };
                b.append(shortForm != null && r.nextBoolean() ? shortForm
                        : String.format(r.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    // ---- writing

    String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value);
        return b.toString();
    }

    byte[] bytes(Object value) {
        return write(value).getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private void write(StringBuilder b, Object value) {
        if (value instanceof Raw raw) {
            b.append(raw.json());
        } else if (value instanceof Obj o) {
            b.append('{');
            for (int i = 0; i < o.names.size(); i++) {
                space(b);
                b.append(i == 0 ? "" : ",");
                space(b);
                b.append(quote(o.names.get(i)));
                space(b);
                b.append(':');
                space(b);
                write(b, o.values.get(i));
            }
            space(b);
            b.append('}');
        } else {
            b.append('[');
            List<Object> a = (List<Object>) value;
            for (int i = 0; i < a.size(); i++) {
                space(b);
                b.append(i == 0 ? "" : ",");
                space(b);
                write(b, a.get(i));
            }
            space(b);
            b.append(']');
        }
    }

    private void space(StringBuilder b) {
        if (r.nextInt(12) == 0) {
            b.append(" \n\t\r  ".charAt(r.nextInt(6)));
        }
    }

    // ---- damage

    /** The bytes with one random change: cut, a byte replaced, inserted or removed; may still be valid JSON. */
    byte[] damage(byte[] b) {
        if (b.length == 0) {
            return b;
        }
        byte[] junk = {'"', '\\', ',', ':', '[', ']', '{', '}', 'x', '0', '-', '.', 'e', ' ', 1, (byte) 0xc3,
            (byte) 0xff, (byte) 0x80, 'n', 't'};
        int at = r.nextInt(b.length);
        byte j = junk[r.nextInt(junk.length)];
        return switch (r.nextInt(4)) {
            case 0 -> Arrays.copyOf(b, at);
            case 1 -> {
                byte[] c = b.clone();
                c[at] = j;
                yield c;
            }
            case 2 -> {
                byte[] c = new byte[b.length + 1];
                System.arraycopy(b, 0, c, 0, at);
                c[at] = j;
                System.arraycopy(b, at, c, at + 1, b.length - at);
                yield c;
            }
            default -> {
                byte[] c = new byte[b.length - 1];
                System.arraycopy(b, 0, c, 0, at);
                System.arraycopy(b, at + 1, c, at, b.length - at - 1);
                yield c;
            }
        };
    }

    /** A JSON text that is not valid, as a value: numbers and literals JSON does not have. */
    Raw invalidScalar() {
        String[] bad = {"01", "1.", "-", "1e", ".5", "+1", "NaN", "tru", "nul", "Infinity", "0x1f", "1e+", "--1",
            "'a'", "\"\\x\"", "\"\\u12g4\"", "\"a", "1 2", "\"\\ud800\"", "\"\\udc00x\""};
        return new Raw(bad[r.nextInt(bad.length)]);
    }

    /** Every object in the value, itself included, for damage at a random place. */
    static List<Obj> objects(Object value) {
        List<Obj> all = new ArrayList<>();
        collect(value, all);
        return all;
    }

    @SuppressWarnings("unchecked")
    private static void collect(Object value, List<Obj> into) {
        if (value instanceof Obj o) {
            into.add(o);
            o.values.forEach(v -> collect(v, into));
        } else if (value instanceof List<?> a) {
            ((List<Object>) a).forEach(v -> collect(v, into));
        }
    }

    Random random() {
        return r;
    }
}
