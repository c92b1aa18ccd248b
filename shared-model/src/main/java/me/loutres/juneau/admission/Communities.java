package me.loutres.juneau.admission;

import java.util.Set;

/**
 * BGP communities as an ExternalNetwork's {@code spec.bgp.communities} lists them: {@code AA:NN} (RFC 1997, each part
 * 0-65535), large {@code AA:NN:MM} (RFC 8092, each part 0-4294967295) or a well-known name (docs/api-reference.md,
 * ExternalNetwork).
 */
final class Communities {
    static final Set<String> WELL_KNOWN = Set.of("no-export", "no-advertise", "no-export-subconfed", "no-peer");
    static final String ACCEPTED = "accepted: AA:NN (each part 0-65535), large AA:NN:MM (each part 0-4294967295),"
            + " or no-export, no-advertise, no-export-subconfed, no-peer";
    private static final long MAX16 = 65_535L;
    private static final long MAX32 = 4_294_967_295L;

    private Communities() {
    }

    /** Why the text is no community, or null when it is one. */
    static String problem(String text) {
        if (text == null || text.isEmpty()) {
            return "empty";
        }
        if (WELL_KNOWN.contains(text)) {
            return null;
        }
        String[] parts = text.split(":", -1);
        if (parts.length != 2 && parts.length != 3) {
            return parts.length == 1 ? "neither a number pair nor a well-known name"
                    : "has " + parts.length + " parts";
        }
        long max = parts.length == 2 ? MAX16 : MAX32;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 10 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return Texts.quote(p) + " is not a number";
            }
            if (Long.parseLong(p) > max) {
                return p + " is above " + max;
            }
        }
        return null;
    }
}
