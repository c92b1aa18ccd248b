package me.loutres.juneau.admission;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Duration text as Kubernetes writes it ({@code metav1.Duration}: {@code 90s}, {@code 1m30s}, {@code 1h}, {@code 0}),
 * for the BGP timers of a BGPPeer, which BIRD takes in whole seconds (docs/api-reference.md, BGPPeer).
 */
final class Durations {
    private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(h|ms|m|s)");

    private Durations() {
    }

    /** The duration in milliseconds, or null when the text is no duration. */
    static BigDecimal millis(String text) {
        if (text == null) {
            return null;
        }
        String t = text.trim();
        if (t.equals("0")) {
            return BigDecimal.ZERO;
        }
        if (t.isEmpty() || t.length() > 64) {
            return null;
        }
        Matcher m = PART.matcher(t);
        BigDecimal total = BigDecimal.ZERO;
        int at = 0;
        while (m.find()) {
            if (m.start() != at) {
                return null;
            }
            BigDecimal n = new BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
            BigDecimal unit = switch (m.group(2)) {
                case "h" -> BigDecimal.valueOf(3_600_000);
                case "m" -> BigDecimal.valueOf(60_000);
                case "s" -> BigDecimal.valueOf(1_000);
                default -> BigDecimal.ONE;
            };
            total = total.add(n.multiply(unit));
            at = m.end();
        }
        return at == t.length() && at > 0 ? total : null;
    }

    /** Whole seconds, or null when the text is no duration or not a whole number of seconds. */
    static Long seconds(String text) {
        BigDecimal ms = millis(text);
        if (ms == null) {
            return null;
        }
        BigDecimal[] qr = ms.divideAndRemainder(BigDecimal.valueOf(1000));
        return qr[1].signum() != 0 || qr[0].compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? null
                : qr[0].longValueExact();
    }

    static boolean isDuration(String text) {
        return millis(text) != null;
    }
}
