package me.loutres.juneau.certs;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses lifetimes the way operators write them for cert-manager and kubectl: {@code 2160h}, {@code 90d},
 * {@code 1h30m}, {@code 1y} (365 days), or ISO-8601 ({@code P90D}, {@code PT12H}).
 */
public final class Lifetimes implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern PART = Pattern.compile("(\\d+)(y|d|h|m|s)");
    private static final Pattern WHOLE = Pattern.compile("(\\d+(y|d|h|m|s))+");

    public static Duration parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (t.startsWith("p")) {
            try {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw bad(text);
            }
        }
        if (!WHOLE.matcher(t).matches()) {
            throw bad(text);
        }
        Duration d = Duration.ZERO;
        Matcher m = PART.matcher(t);
        try {
            while (m.find()) {
                long n = Long.parseLong(m.group(1));
                d = d.plus(switch (m.group(2)) {
                    case "y" -> Duration.ofDays(Math.multiplyExact(n, 365L));
                    case "d" -> Duration.ofDays(n);
                    case "h" -> Duration.ofHours(n);
                    case "m" -> Duration.ofMinutes(n);
                    default -> Duration.ofSeconds(n);
                });
            }
        } catch (ArithmeticException | NumberFormatException e) {
            throw bad(text);
        }
        return d;
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("lifetime '" + text + "' is not understood; use e.g. 2160h, 90d, 1y, 1h30m or P90D");
    }

    @Override
    public Duration convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
