package me.loutres.juneau.bgp;

import java.math.BigInteger;
import java.util.Map;

/**
 * Duration text in the one form Kubernetes reads it ({@code metav1.Duration}, Go's {@code time.ParseDuration}):
 * {@code 90s}, {@code 1m30s}, {@code 1.5h}, {@code 3.s}, {@code .5s}, {@code 0}, an optional sign, units
 * {@code ns us µs μs ms s m h}, nanosecond precision. This is a line-by-line port of Go's parser, its float rounding
 * of fractions included, so that every text Kubernetes tools accept is accepted here with the same value, and every
 * text they refuse ({@code ""}, {@code "3"}, {@code "s"}, {@code "-"}, {@code " 90s"}) is refused. Admission and the
 * node agent both read BGPPeer timers through it (docs/admission.md, BGPPeer).
 */
public final class Durations {
    /** What a message shows as the accepted form. */
    public static final String FORM = "Go/Kubernetes duration form: units h, m, s, ms, us, ns, e.g. 1m30s";

    private static final BigInteger TWO_63 = BigInteger.ONE.shiftLeft(63);
    private static final Map<String, Long> UNITS = Map.of("ns", 1L, "us", 1_000L, "\u00b5s", 1_000L,
            "\u03bcs", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private Durations() {
    }

    /** The duration in nanoseconds (negative for a leading '-'), or null when Go would refuse the text. */
    public static Long nanos(String text) {
        if (text == null) {
            return null;
        }
        String s = text;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return 0L;
        }
        if (s.isEmpty()) {
            return null;
        }
        BigInteger d = BigInteger.ZERO;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != '.' && !digit(c)) {
                return null;
            }
            // [0-9]*
            int start = i;
            BigInteger v = BigInteger.ZERO;
            while (i < s.length() && digit(s.charAt(i))) {
                if (v.compareTo(TWO_63.divide(BigInteger.TEN)) > 0) {
                    return null; // overflow
                }
                v = v.multiply(BigInteger.TEN).add(BigInteger.valueOf(s.charAt(i) - '0'));
                if (v.compareTo(TWO_63) > 0) {
                    return null;
                }
                i++;
            }
            boolean pre = i != start;
            // (\.[0-9]*)?  Go keeps the digits that fit and drops the rest, with a float scale
            long f = 0;
            double scale = 1;
            boolean post = false;
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                int fractionStart = i;
                boolean overflow = false;
                BigInteger x = BigInteger.ZERO;
                while (i < s.length() && digit(s.charAt(i))) {
                    if (!overflow) {
                        if (x.compareTo(BigInteger.valueOf(Long.MAX_VALUE / 10)) > 0) {
                            overflow = true;
                        } else {
                            BigInteger y = x.multiply(BigInteger.TEN).add(BigInteger.valueOf(s.charAt(i) - '0'));
                            if (y.compareTo(TWO_63) > 0) {
                                overflow = true;
                            } else {
                                x = y;
                                scale *= 10;
                            }
                        }
                    }
                    i++;
                }
                f = x.longValue(); // x <= 2^63: as an unsigned bit pattern
                post = i != fractionStart;
            }
            if (!pre && !post) {
                return null; // no digits, e.g. ".s"
            }
            int unitStart = i;
            while (i < s.length() && s.charAt(i) != '.' && !digit(s.charAt(i))) {
                i++;
            }
            Long unit = UNITS.get(s.substring(unitStart, i));
            if (unit == null) {
                return null; // missing or unknown unit
            }
            if (v.compareTo(TWO_63.divide(BigInteger.valueOf(unit))) > 0) {
                return null;
            }
            v = v.multiply(BigInteger.valueOf(unit));
            if (f != 0) {
                // Go: v += uint64(float64(f) * (float64(unit) / scale))
                v = v.add(BigInteger.valueOf((long) (unsignedToDouble(f) * ((double) unit / scale))));
                if (v.compareTo(TWO_63) > 0) {
                    return null;
                }
            }
            d = d.add(v);
            if (d.compareTo(TWO_63) > 0) {
                return null;
            }
        }
        if (negative) {
            return d.negate().longValue(); // -2^63 fits
        }
        return d.compareTo(TWO_63) >= 0 ? null : d.longValueExact();
    }

    /**
     * Whole seconds of a duration that is one; null when the text is no duration or has a fraction of a second
     * (BIRD takes BGP timers in whole seconds only).
     */
    public static Long wholeSeconds(String text) {
        Long ns = nanos(text);
        return ns == null || ns % 1_000_000_000L != 0 ? null : ns / 1_000_000_000L;
    }

    public static boolean isDuration(String text) {
        return nanos(text) != null;
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    private static double unsignedToDouble(long bits) {
        return bits >= 0 ? bits : 0x1p63; // the only value above Long.MAX_VALUE Go's fraction can hold is 2^63
    }
}
