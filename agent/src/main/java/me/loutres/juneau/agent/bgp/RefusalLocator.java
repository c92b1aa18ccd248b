package me.loutres.juneau.agent.bgp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which peer or network BIRD refused, from its message and the text it was given. Pure.
 *
 * <p>BIRD names the place of a configuration error as {@code FILE:LINE:COLUMN words} (both in its start-up error
 * on stderr and in the reply to {@code configure}). {@link BirdConfigRenderer} writes every piece as its own block,
 * named by the piece: {@code protocol bgp} and {@code filter} per peer, {@code protocol static} per network, and
 * inside a peer's filter one {@code if proto = "..."} part per network (its communities and LOCAL_PREF). The line
 * therefore falls inside exactly one piece's block; an error in a network's part of a filter is the network's (its
 * communities), anything else in the filter or session is the peer's. A line outside every block (the router id,
 * the device protocol) names no piece: the whole configuration is refused.
 */
public final class RefusalLocator {
    private static final Pattern PLACE = Pattern.compile(":(\\d+):(\\d+)\\s+(.*)$", Pattern.DOTALL);
    private static final Pattern HEADER = Pattern.compile("^(?:protocol (?:bgp|static)|filter) '([^']*)' \\{$");
    private static final Pattern NETWORK_PART = Pattern.compile("^\\s+if proto = \"([^\"]*)\" then \\{$");

    private RefusalLocator() {
    }

    /**
     * The piece BIRD's {@code message} points at in {@code text} (rendered from {@code config}), with BIRD's words
     * from the place on; null when the message names no line or the line is in no piece's block.
     */
    public static RefusedPiece locate(BirdConfig config, String text, String message) {
        if (message == null) {
            return null;
        }
        Matcher m = PLACE.matcher(message.strip());
        if (!m.find()) {
            return null;
        }
        int line = Integer.parseInt(m.group(1));
        String[] lines = text.split("\n", -1);
        if (line < 1 || line > lines.length) {
            return null;
        }
        Map<String, RefusedPiece> bySymbol = symbols(config);
        String block = null;
        String part = null;
        for (int i = 0; i < line; i++) {
            String l = lines[i];
            Matcher h = HEADER.matcher(l);
            Matcher p = NETWORK_PART.matcher(l);
            boolean last = i == line - 1;
            if (h.matches()) {
                block = h.group(1);
                part = null;
            } else if (p.matches()) {
                part = p.group(1);
            } else if (l.equals("}") && !last) {
                // BIRD checks a protocol when its block closes and names the closing line: that line is still in it
                block = null;
                part = null;
            } else if (l.equals("  }") && !last) {
                part = null;
            }
        }
        String words = message.strip().substring(m.start() + 1).strip();
        words = "bird.conf:" + words;
        RefusedPiece inPart = part == null ? null : bySymbol.get(part);
        if (inPart != null && inPart.kind() == RefusedPiece.Kind.NETWORK) {
            return inPart.because(words);
        }
        RefusedPiece piece = block == null ? null : bySymbol.get(block);
        return piece == null ? null : piece.because(words);
    }

    private static Map<String, RefusedPiece> symbols(BirdConfig config) {
        Map<String, RefusedPiece> out = new HashMap<>();
        for (Neighbor n : config.neighbors()) {
            RefusedPiece peer = new RefusedPiece(RefusedPiece.Kind.PEER, n.peer(), null);
            out.put(BirdSymbols.peer(n.peer()), peer);
            out.put(BirdSymbols.exportFilter(n.peer()), peer);
        }
        for (NetworkRoutes r : config.networks()) {
            out.put(BirdSymbols.network(r.network()),
                    new RefusedPiece(RefusedPiece.Kind.NETWORK, r.network(), null));
        }
        return out;
    }

    /**
     * BIRD's words without their place ({@code FILE:LINE:COL}, a filter's {@code line N}): the same refusal moves to
     * other lines as routes come and go.
     */
    public static String withoutPlace(String words) {
        return words == null ? null : words.replaceAll(":\\d+:\\d+", "").replaceAll("\\bline \\d+", "line");
    }

    /**
     * The piece without which {@code config} parses, when BIRD's words name no place in a piece (a BIRD that words
     * its errors differently): each network, then each peer, left out in turn and the rest checked by {@code parse}
     * (BIRD's {@code bird -p}: the text's error, or null when it parses) on the text {@code render} writes. Null when no single piece is to blame.
     */
    public static RefusedPiece search(BirdConfig config, String words, Function<BirdConfig, String> render,
            Function<String, String> parse) {
        List<RefusedPiece> candidates = new ArrayList<>();
        // networks first: leaving a peer out also takes every network's part of its filter with it, so it would
        // "fix" a network's communities too, and take the peer's other routes down for nothing
        config.networks().forEach(n -> candidates.add(new RefusedPiece(RefusedPiece.Kind.NETWORK, n.network(),
                words)));
        config.neighbors().forEach(n -> candidates.add(new RefusedPiece(RefusedPiece.Kind.PEER, n.peer(), words)));
        for (RefusedPiece c : candidates) {
            if (parse.apply(render.apply(c.dropFrom(config))) == null) {
                return c;
            }
        }
        return null;
    }
}
