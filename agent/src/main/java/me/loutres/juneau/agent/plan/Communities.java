package me.loutres.juneau.agent.plan;

import java.util.Map;
import me.loutres.juneau.agent.bgp.Community;

/** ExternalNetwork {@code spec.bgp.communities} entries (docs/api-reference.md, ExternalNetwork). */
public final class Communities {
    /** RFC 1997 and RFC 3765 well-known communities. */
    private static final Map<String, Community> WELL_KNOWN = Map.of(
            "no-export", new Community.Standard(65535, 65281),
            "no-advertise", new Community.Standard(65535, 65282),
            "no-export-subconfed", new Community.Standard(65535, 65283),
            "no-peer", new Community.Standard(65535, 65284));

    private Communities() {
    }

    /** The community, or IllegalArgumentException naming the text and the accepted forms. */
    public static Community parse(String text) {
        String t = text == null ? "" : text.strip();
        Community known = WELL_KNOWN.get(t);
        if (known != null) {
            return known;
        }
        String[] parts = t.split(":", -1);
        try {
            if (parts.length == 2) {
                return new Community.Standard((int) part(parts[0], 65535), (int) part(parts[1], 65535));
            }
            if (parts.length == 3) {
                return new Community.Large(part(parts[0], 4294967295L), part(parts[1], 4294967295L),
                        part(parts[2], 4294967295L));
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException("community '" + text + "' does not parse; expected AA:NN (each 0-65535),"
                + " AA:NN:MM (each 0-4294967295) or one of no-export, no-advertise, no-export-subconfed, no-peer");
    }

    private static long part(String s, long max) {
        long v = Long.parseLong(s);
        if (v < 0 || v > max) {
            throw new NumberFormatException(s);
        }
        return v;
    }
}
