package me.loutres.juneau.bgp;

import java.util.Map;

/**
 * BGP communities as an ExternalNetwork's {@code spec.bgp.communities} lists them: {@code AA:NN} (RFC 1997, each part
 * 0-65535), large {@code AA:NN:MM} (RFC 8092, each part 0-4294967295) or a well-known name (RFC 1997, RFC 3765)
 * (docs/api-reference.md, ExternalNetwork). Admission refuses what {@link #problem} names; the agent reads the rest
 * with {@link #parse}.
 */
public final class Communities {
    static final Map<String, Community> WELL_KNOWN = Map.of(
            "no-export", new Community.Standard(65535, 65281),
            "no-advertise", new Community.Standard(65535, 65282),
            "no-export-subconfed", new Community.Standard(65535, 65283),
            "no-peer", new Community.Standard(65535, 65284));
    public static final String ACCEPTED = "accepted: AA:NN (each part 0-65535), large AA:NN:MM (each part"
            + " 0-4294967295), or no-export, no-advertise, no-export-subconfed, no-peer";
    private static final long MAX16 = 65_535L;
    private static final long MAX32 = 4_294_967_295L;

    private Communities() {
    }

    /** Why the text is no community, or null when it is one. */
    public static String problem(String text) {
        if (text == null || text.isEmpty()) {
            return "empty";
        }
        if (WELL_KNOWN.containsKey(text)) {
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
                return PeerSpecRules.quote(p) + " is not a number";
            }
            if (Long.parseLong(p) > max) {
                return p + " is above " + max;
            }
        }
        return null;
    }

    /** The community; IllegalArgumentException with the {@link #problem} when the text is none. */
    public static Community parse(String text) {
        String why = problem(text);
        if (why != null) {
            throw new IllegalArgumentException(PeerSpecRules.quote(text) + " is not a community (" + why + "); "
                    + ACCEPTED);
        }
        Community known = WELL_KNOWN.get(text);
        if (known != null) {
            return known;
        }
        String[] parts = text.split(":");
        return parts.length == 2 ? new Community.Standard(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]))
                : new Community.Large(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
    }
}
