package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Which nodes are dead according to their agents' Leases (docs/phases-and-conditions.md), at one instant. A node whose Lease
 * {@code juneau-agent-<node>} exists is dead when {@code renewTime + leaseDurationSeconds} has passed or its
 * {@code holderIdentity} is empty (released on shutdown); a node without such a Lease has no agent: it is
 * never declared dead, but it cannot answer ARP ({@link #hasAgent}). A Lease whose times cannot be read declares
 * nothing: never call a node dead on a record we do not understand. "Passed" is judged against the time the Lease
 * watch has shown ({@link WatchedTime}): after the controller's own outage a node gets a full duration more. Plain
 * data: built from the Leases read once for a pass ({@link #of}), so one plan never sees two states of a Lease.
 */
public final class NodeLiveness {
    public static final String LEASE_PREFIX = "juneau-agent-";

    /** What one node's Lease says at {@code now}. */
    public record State(boolean dead, Optional<Instant> expiresAt, String why) {
    }

    private static final NodeLiveness UNKNOWN = new NodeLiveness(n -> null, n -> false);

    /** The state of a node, null without a (usable) Lease; judged once, from Leases copied out of the cache. */
    private final Function<String, State> byNode;
    /** Whether the node has an agent Lease at all (usable or not): an agent runs, or ran, there. */
    private final Predicate<String> hasLease;

    private NodeLiveness(Function<String, State> byNode, Predicate<String> hasLease) {
        this.byNode = byNode;
        this.hasLease = hasLease;
    }

    /** No Lease known for any node: every node is judged by its endpoints. */
    public static NodeLiveness unknown() {
        return UNKNOWN;
    }

    /** Reads the agent Leases among {@code leases} (others are ignored) as of {@code now}, every instant seen. */
    public static NodeLiveness of(Collection<Lease> leases, Instant now) {
        return of(leases, WatchedTime.until(now));
    }

    /** Reads the agent Leases among {@code leases} (others are ignored) against the time the watch has shown. */
    public static NodeLiveness of(Collection<Lease> leases, WatchedTime watched) {
        Map<String, State> m = new TreeMap<>();
        Set<String> withLease = new TreeSet<>();
        for (Lease l : leases) {
            String node = nodeOf(l);
            if (node == null) {
                continue;
            }
            withLease.add(node);
            State s = judge(l, watched);
            if (s != null) {
                m.put(node, s);
            }
        }
        Map<String, State> copy = Map.copyOf(m);
        Set<String> agents = Set.copyOf(withLease);
        return new NodeLiveness(copy::get, agents::contains);
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
        return judge(l, WatchedTime.until(now));
    }

    /**
     * The state one Lease gives its node as far as the watch has shown ({@link WatchedTime}); null when the Lease says
     * nothing usable. {@link State#expiresAt} is when the node may be called dead: the expiry, or later after a gap.
     */
    public static State judge(Lease l, WatchedTime watched) {
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
        Instant deadline = watched.deadline(expires, java.time.Duration.ofSeconds(seconds));
        if (watched.shows(deadline)) {
            return new State(true, Optional.of(deadline), "its agent's Lease " + l.getMetadata().getName()
                    + " expired at " + expires + (deadline.equals(expires) ? ""
                            : " and was not renewed within its duration after the controller's watch came back"));
        }
        return new State(false, Optional.of(deadline), "alive");
    }

    /**
     * The node has an agent Lease (whatever it says): an agent runs there, or ran and released it. A node without
     * one has no agent to answer ARP (docs/phases-and-conditions.md, node liveness): electing it would be a silent
     * blackhole, e.g. where the agent's DaemonSet is not scheduled.
     */
    public boolean hasAgent(String node) {
        return node != null && hasLease.test(node);
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
