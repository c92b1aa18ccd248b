package me.loutres.juneau.agent.bgp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The pieces BIRD refused, left out of the configuration and tried again with backoff (docs/bgp.md,
 * "Troubleshooting"). Pure: the time comes in.
 *
 * <p>A piece stays out while it is unchanged, and is tried again after 1 s, then 2 s, 4 s ... up to a minute: BIRD
 * refuses the same text the same way, so trying it at every turn only costs a {@code configure} and a log line each
 * time. A piece that changed (the BGPPeer edited, its Secret's password changed, the network's communities edited)
 * is tried at once: the change may be the fix.
 */
public final class Refusals {
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration MAX_RETRY = Duration.ofMinutes(1);

    private record Key(RefusedPiece.Kind kind, String name) {
    }

    private record Held(RefusedPiece piece, Object fingerprint, long retryAtMillis, long delayMillis) {
    }

    private final Map<Key, Held> held = new LinkedHashMap<>();

    /**
     * {@code config} without the pieces held out now. A piece that changed since it was refused is forgotten; a piece
     * whose retry time came is put back in (if BIRD refuses it again, {@link #refused} holds it out for longer).
     */
    public BirdConfig apply(BirdConfig config, long nowMillis) {
        BirdConfig out = config;
        for (Held h : new ArrayList<>(held.values())) {
            Object now = fingerprint(config, h.piece());
            if (now == null || !now.equals(h.fingerprint())) {
                held.remove(key(h.piece()));
            } else if (nowMillis < h.retryAtMillis()) {
                out = h.piece().dropFrom(out);
            }
        }
        return out;
    }

    /**
     * Holds {@code piece} of {@code config} out.
     *
     * @return whether its reason is new (a WARN is due): the first refusal, or other words than the last time
     */
    public boolean refused(RefusedPiece piece, BirdConfig config, long nowMillis) {
        Held before = held.get(key(piece));
        long delay = before == null ? FIRST_RETRY.toMillis() : Math.min(before.delayMillis() * 2,
                MAX_RETRY.toMillis());
        held.put(key(piece), new Held(piece, fingerprint(config, piece), nowMillis + delay, delay));
        return before == null || !Objects.equals(RefusalLocator.withoutPlace(before.piece().reason()),
                RefusalLocator.withoutPlace(piece.reason()));
    }

    /** BIRD accepted {@code applied}: the held pieces in it are no longer refused. */
    public void accepted(BirdConfig applied) {
        held.values().removeIf(h -> present(applied, h.piece()));
    }

    /** The pieces refused now, in the order BIRD refused them. */
    public List<RefusedPiece> pieces() {
        return held.values().stream().map(Held::piece).toList();
    }

    /** Why BIRD refused peer {@code name}, or null. */
    public RefusedPiece peer(String name) {
        Held h = held.get(new Key(RefusedPiece.Kind.PEER, name));
        return h == null ? null : h.piece();
    }

    /** Why BIRD refused network {@code name}, or null. */
    public RefusedPiece network(String name) {
        Held h = held.get(new Key(RefusedPiece.Kind.NETWORK, name));
        return h == null ? null : h.piece();
    }

    private static Key key(RefusedPiece p) {
        return new Key(p.kind(), p.name());
    }

    private static boolean present(BirdConfig config, RefusedPiece p) {
        return fingerprint(config, p) != null;
    }

    /**
     * What must change for a refused piece to be worth trying at once: the peer's whole session (its password
     * included); the network's attributes, not its routes (they change with every Service and are checked before).
     */
    private static Object fingerprint(BirdConfig config, RefusedPiece p) {
        if (p.kind() == RefusedPiece.Kind.PEER) {
            return config.neighbors().stream().filter(n -> n.peer().equals(p.name())).findFirst().orElse(null);
        }
        return config.networks().stream().filter(n -> n.network().equals(p.name()))
                .map(n -> List.of(n.communities(), String.valueOf(n.localPref()))).findFirst().orElse(null);
    }
}
