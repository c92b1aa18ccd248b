package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Which nodes are dead according to their agents' Leases (SPEC §3.7), at one instant. A node whose Lease
 * {@code juneau-agent-<node>} exists is dead when {@code renewTime + leaseDurationSeconds} has passed or its
 * {@code holderIdentity} is empty (released on shutdown); a node without such a Lease is judged by its endpoints
 * only (agent not installed). A Lease whose times cannot be read counts as no Lease: never declare a node dead on
 * a record we do not understand.
 */
public final class NodeLiveness {
    public static final String LEASE_PREFIX = "juneau-agent-";

    /** What one node's Lease says at {@code now}. */
    public record State(boolean dead, Optional<Instant> expiresAt, String why) {
    }

    private static final NodeLiveness UNKNOWN = new NodeLiveness(n -> null);

    /** The state of a node, null without a (usable) Lease. Judged on demand: only the nodes asked about. */
    private final Function<String, State> byNode;

    private NodeLiveness(Function<String, State> byNode) {
        this.byNode = byNode;
    }

    /** Looks a node's Lease up with {@code leaseOfNode} (an informer cache) when asked, judged at {@code now}. */
    public static NodeLiveness lookup(Function<String, Lease> leaseOfNode, Instant now) {
        return new NodeLiveness(node -> {
            Lease l = leaseOfNode.apply(node);
            return l == null ? null : judge(l, now);
        });
    }

    /** No Lease known for any node: every node is judged by its endpoints. */
    public static NodeLiveness unknown() {
        return UNKNOWN;
    }

    /** Reads the agent Leases among {@code leases} (others are ignored) as of {@code now}. */
    public static NodeLiveness of(Collection<Lease> leases, Instant now) {
        Map<String, State> m = new TreeMap<>();
        for (Lease l : leases) {
            String node = nodeOf(l);
            if (node == null) {
                continue;
            }
            State s = judge(l, now);
            if (s != null) {
                m.put(node, s);
            }
        }
        Map<String, State> copy = Map.copyOf(m);
        return new NodeLiveness(copy::get);
    }

    /** The node an agent Lease belongs to, or null when it is not one. */
    public static String nodeOf(Lease l) {
        String name = l == null || l.getMetadata() == null ? null : l.getMetadata().getName();
        if (name == null || !name.startsWith(LEASE_PREFIX) || name.length() == LEASE_PREFIX.length()) {
            return null;
        }
        return name.substring(LEASE_PREFIX.length());
    }

    /** The state one Lease gives its node at {@code now}; null when the Lease says nothing usable. */
    public static State judge(Lease l, Instant now) {
        var spec = l == null ? null : l.getSpec();
        if (spec == null) {
            return null;
        }
        String holder = spec.getHolderIdentity();
        if (holder == null || holder.isBlank()) {
            return new State(true, Optional.empty(), "its agent released Lease " + l.getMetadata().getName());
        }
        Integer seconds = spec.getLeaseDurationSeconds();
        if (spec.getRenewTime() == null || seconds == null || seconds <= 0) {
            return null;
        }
        Instant renewed = spec.getRenewTime().toInstant();
        Instant expires = renewed.plusSeconds(seconds);
        if (!now.isBefore(expires)) {
            return new State(true, Optional.of(expires), "its agent's Lease " + l.getMetadata().getName()
                    + " expired at " + expires);
        }
        return new State(false, Optional.of(expires), "alive");
    }

    public boolean dead(String node) {
        State s = byNode.apply(node);
        return s != null && s.dead();
    }

    /** When the node's Lease runs out unless renewed; empty without a Lease or once released. */
    public Optional<Instant> expiresAt(String node) {
        State s = byNode.apply(node);
        return s == null ? Optional.empty() : s.expiresAt();
    }

    /** The dead ones among {@code nodes}, in their order. */
    public List<String> deadAmong(Collection<String> nodes) {
        return nodes.stream().filter(this::dead).toList();
    }

    /** Why the node counts as dead, or null when it does not. */
    public String why(String node) {
        State s = byNode.apply(node);
        return s != null && s.dead() ? s.why() : null;
    }
}
