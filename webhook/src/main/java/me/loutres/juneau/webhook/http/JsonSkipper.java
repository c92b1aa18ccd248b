package me.loutres.juneau.webhook.http;

/**
 * Finds the end of a JSON array or object in the bytes themselves, for a value that is skipped, not read ({@code
 * metadata.managedFields} on the Service paths): Jackson's own skip still reads every key of it (about a third of
 * that value's cost was field names). Only a strict subset is accepted: printable ASCII in strings, the escapes of
 * JSON, plain numbers, at most {@value #MAX_DEPTH} levels and no more than the caller allows. Anything else, even if
 * valid JSON, answers "not found" and the caller lets Jackson skip it, so a body that is not JSON or is nested too
 * deep is refused exactly as before, by the same parser with the same words.
 */
final class JsonSkipper {
    /** Nesting levels this skipper follows (one bit each in a long); deeper values are left to Jackson. */
    static final int MAX_DEPTH = 63;
    /** Longest number accepted, far below Jackson's own limit: a longer one is left to Jackson to judge. */
    static final int MAX_NUMBER = 64;

    private static final int VALUE = 0;
    private static final int VALUE_OR_CLOSE = 1;
    private static final int KEY = 2;
    private static final int KEY_OR_CLOSE = 3;
    private static final int COLON = 4;
    private static final int AFTER_VALUE = 5;

    private JsonSkipper() {
    }

    /**
     * The index of the bracket that closes the array or object opened at {@code from - 1}, or -1 when the bytes up to it
     * are not all within the strict subset (then nothing is known: let a real parser decide).
     *
     * @param maxDepth levels the value may have, its own included (the parser's limit minus the depth it is at)
     */
    static int end(byte[] b, int from, int limit, int maxDepth) {
        if (from <= 0 || from > limit || limit > b.length || maxDepth < 1) {
            return -1;
        }
        int depthLimit = Math.min(maxDepth, MAX_DEPTH);
        long objects = 0; // bit d set: level d is an object, clear: an array
        int depth = 0;
        int state;
        switch (b[from - 1]) {
            case '[' -> state = VALUE_OR_CLOSE;
            case '{' -> {
                objects = 1;
                state = KEY_OR_CLOSE;
            }
            default -> {
                return -1;
            }
        }
        int i = from;
        while (i < limit) {
            int c = b[i];
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                i++;
                continue;
            }
            switch (state) {
                case KEY_OR_CLOSE, KEY -> {
                    if (c == '}' && state == KEY_OR_CLOSE) {
                        if (depth == 0) {
                            return i;
                        }
                        depth--;
                        state = AFTER_VALUE;
                        i++;
                    } else if (c == '"') {
                        i = string(b, i + 1, limit);
                        if (i < 0) {
                            return -1;
                        }
                        state = COLON;
                    } else {
                        return -1;
                    }
                }
                case COLON -> {
                    if (c != ':') {
                        return -1;
                    }
                    state = VALUE;
                    i++;
                }
                case VALUE_OR_CLOSE, VALUE -> {
                    if (c == ']' && state == VALUE_OR_CLOSE) {
                        if (depth == 0) {
                            return i;
                        }
                        depth--;
                        state = AFTER_VALUE;
                        i++;
                    } else if (c == '{' || c == '[') {
                        if (depth + 2 > depthLimit) {
                            return -1;
                        }
                        depth++;
                        objects = c == '{' ? objects | (1L << depth) : objects & ~(1L << depth);
                        state = c == '{' ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
                        i++;
                    } else {
                        i = scalar(b, i, limit);
                        if (i < 0) {
                            return -1;
                        }
                        state = AFTER_VALUE;
                    }
                }
                default -> { // AFTER_VALUE
                    boolean inObject = (objects & (1L << depth)) != 0;
                    if (c == ',') {
                        state = inObject ? KEY : VALUE;
                        i++;
                    } else if (c == (inObject ? '}' : ']')) {
                        if (depth == 0) {
                            return i;
                        }
                        depth--;
                        i++;
                    } else {
                        return -1;
                    }
                }
            }
        }
        return -1;
    }

    /** After a string, a number or a literal starting at {@code i}; -1 if it is none of them (in the subset). */
    private static int scalar(byte[] b, int i, int limit) {
        int c = b[i];
        if (c == '"') {
            return string(b, i + 1, limit);
        }
        if (c == 't') {
            return literal(b, i, limit, "true");
        }
        if (c == 'f') {
            return literal(b, i, limit, "false");
        }
        if (c == 'n') {
            return literal(b, i, limit, "null");
        }
        return number(b, i, limit);
    }

    /** After the closing quote of a string whose content starts at {@code i}; -1 outside printable ASCII. */
    private static int string(byte[] b, int i, int limit) {
        while (i < limit) {
            int c = b[i];
            if (c == '"') {
                return i + 1;
            }
            if (c < 0x20 || c > 0x7e) { // control characters, and every byte of a multi-byte character (negative)
                return -1;
            }
            if (c == '\\') {
                if (i + 1 >= limit) {
                    return -1;
                }
                switch (b[i + 1]) {
                    case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> i += 2;
                    case 'u' -> {
                        if (i + 5 >= limit || !hex(b[i + 2]) || !hex(b[i + 3]) || !hex(b[i + 4]) || !hex(b[i + 5])) {
                            return -1;
                        }
                        int d = Character.digit(b[i + 2], 16);
                        if (d == 0xd) { // \\uD800-\\uDFFF: surrogates, left to Jackson to judge
                            return -1;
                        }
                        i += 6;
                    }
                    default -> {
                        return -1;
                    }
                }
            } else {
                i++;
            }
        }
        return -1;
    }

    private static boolean hex(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int literal(byte[] b, int i, int limit, String word) {
        if (i + word.length() > limit) {
            return -1;
        }
        for (int k = 0; k < word.length(); k++) {
            if (b[i + k] != word.charAt(k)) {
                return -1;
            }
        }
        return i + word.length();
    }

    /** JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, at most {@value #MAX_NUMBER} characters. */
    private static int number(byte[] b, int i, int limit) {
        int start = i;
        if (i < limit && b[i] == '-') {
            i++;
        }
        if (i >= limit || !digit(b[i])) {
            return -1;
        }
        if (b[i] == '0') {
            i++;
        } else {
            while (i < limit && digit(b[i])) {
                i++;
            }
        }
        if (i < limit && b[i] == '.') {
            i++;
            if (i >= limit || !digit(b[i])) {
                return -1;
            }
            while (i < limit && digit(b[i])) {
                i++;
            }
        }
        if (i < limit && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < limit && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            if (i >= limit || !digit(b[i])) {
                return -1;
            }
            while (i < limit && digit(b[i])) {
                i++;
            }
        }
        return i - start > MAX_NUMBER ? -1 : i;
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }
}
