package me.loutres.juneau.agent.plan;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The duration text of BGPPeer timers ({@code 90s}, {@code 1m30s}, {@code 3m}: Go's and MetalLB's form). */
public final class Durations {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(h|ms|m|s)");

    private Durations() {
    }

    /** Whole seconds, rounded down; IllegalArgumentException naming the text when it does not parse. */
    public static long seconds(String text) {
        String t = text == null ? "" : text.strip();
        Matcher m = PART.matcher(t);
        double total = 0;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                break;
            }
            double v = Double.parseDouble(m.group(1));
            total += switch (m.group(2)) {
                case "h" -> v * 3600;
                case "m" -> v * 60;
                case "ms" -> v / 1000;
                default -> v;
            };
            end = m.end();
        }
        if (t.isEmpty() || end != t.length()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; expected e.g. 90s, 1m30s or 3m");
        }
        return (long) Math.floor(total);
    }
}
