package me.loutres.juneau.agent.arp;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.net.PacketSocket;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.own.Claim;
import me.loutres.juneau.ip.Ipv4;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data plane: one packet channel and receive thread per interface in use, answering ARP requests for the VIPs
 * bound to that interface and sending gratuitous ARP when a VIP is gained. What it answers is replaced as a whole by
 * {@link #apply}. A VIP left out is handed over, make before break: it is still answered until another station
 * claims it (the new owner's gratuitous ARP) or for {@link #HANDOVER} at most, so a drained node leaves no moment
 * when a client's request goes unanswered (docs/operations.md, "Draining a node"). Suspended (the Lease lost) or
 * closed, it answers nothing at once. Nothing is configured on any interface, so a dead agent leaves nothing behind.
 * Before a VIP's first announcement the driver may have it {@link #probe} the address first (RFC 5227 ARP probes,
 * judged by {@link ProbeDecision}); a probed VIP is not answered until the driver binds it with {@link #apply}.
 */
public final class Speaker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Speaker.class);
    /** How long a lost VIP is still answered when no new owner speaks (a new owner's agent starts in about 1 s). */
    public static final Duration HANDOVER = Duration.ofSeconds(3);

    /** A VIP and the interface it is answered on. */
    public record Binding(Claim claim, InterfaceInfo iface) {
    }

    /** Told when another station claims one of our VIPs (runs on a receive thread: keep it short). */
    public interface ConflictListener {
        void conflict(Claim claim, InterfaceInfo iface, MacAddress other);
    }

    /** What {@link #apply} did: the VIPs newly answered and those whose interface could not be opened. */
    public record Applied(List<Binding> gained, Map<Long, String> socketErrors) {
    }

    private final PacketSocket sockets;
    private final AnnounceSchedule schedule;
    private final ScheduledExecutorService timer;
    private final AgentMetrics metrics;
    private final ConflictListener conflicts;
    private final Clock clock;
    private final Map<String, Port> ports = new ConcurrentHashMap<>();
    private volatile boolean suspended;
    private volatile String failure;

    public Speaker(PacketSocket sockets, AnnounceSchedule schedule, ScheduledExecutorService timer,
            AgentMetrics metrics, ConflictListener conflicts, Clock clock) {
        this.clock = clock;
        this.sockets = sockets;
        this.schedule = schedule;
        this.timer = timer;
        this.metrics = metrics;
        this.conflicts = conflicts;
    }

    /**
     * Makes the node answer exactly {@code desired} (VIP -> binding). Losses take effect at once; each gain sends its
     * first gratuitous ARP round before this returns (unless the schedule is empty) and the rest on the timer.
     *
     * @param learned when the agent learned of the change, on the speaker's clock (for the takeover metric)
     */
    public synchronized Applied apply(Map<Long, Binding> desired, Instant learned) {
        return apply(desired, desired.keySet(), learned);
    }

    /**
     * As above, where {@code stillOwned} are the VIPs this node still owns, answered or not: one of them left out of
     * {@code desired} (its network's interfaces exclude every link of the node) stops at once, since no new owner
     * will take it over; only a VIP the node no longer owns is handed over.
     */
    public synchronized Applied apply(Map<Long, Binding> desired, Set<Long> stillOwned, Instant learned) {
        Map<String, Map<Long, Claim>> byInterface = new HashMap<>();
        Map<String, InterfaceInfo> interfaces = new HashMap<>();
        desired.values().forEach(b -> {
            byInterface.computeIfAbsent(b.iface().name(), k -> new LinkedHashMap<>()).put(b.claim().vip(), b.claim());
            interfaces.put(b.iface().name(), b.iface());
        });
        // losses first: a VIP no longer wanted is handed over; a port whose interface changed closes at once
        Instant handOverUntil = clock.instant().plus(HANDOVER);
        for (Port port : List.copyOf(ports.values())) {
            InterfaceInfo now = interfaces.get(port.iface.name());
            if (now != null && (now.index() != port.iface.index() || !Objects.equals(now.mac(), port.iface.mac()))) {
                port.owned = Map.of();
                port.close();
                ports.remove(port.iface.name());
                continue;
            }
            Map<Long, Claim> keep = new HashMap<>(port.owned);
            keep.keySet().retainAll(now == null ? Set.of() : byInterface.get(port.iface.name()).keySet());
            Map<Long, Instant> handing = new HashMap<>(port.handingOver);
            port.owned.keySet().stream().filter(v -> !keep.containsKey(v) && !stillOwned.contains(v))
                    .forEach(v -> handing.put(v, handOverUntil));
            handing.keySet().removeAll(keep.keySet());
            handing.keySet().removeAll(stillOwned);
            port.handingOver = Map.copyOf(handing);
            port.owned = Map.copyOf(keep);
        }
        if (ports.values().stream().anyMatch(p -> !p.handingOver.isEmpty())) {
            timer.schedule(this::closeIdlePorts, HANDOVER.toNanos(), TimeUnit.NANOSECONDS);
        }
        List<Binding> gained = new ArrayList<>();
        Map<Long, String> errors = new HashMap<>();
        for (Map.Entry<String, Map<Long, Claim>> e : byInterface.entrySet()) {
            Port port = ports.get(e.getKey());
            if (port == null) {
                try {
                    port = new Port(interfaces.get(e.getKey()), sockets.open(interfaces.get(e.getKey())));
                } catch (IOException | RuntimeException ex) {
                    e.getValue().keySet().forEach(v -> errors.put(v, ex.getMessage()));
                    continue;
                }
                ports.put(e.getKey(), port);
                port.start();
            }
            Map<Long, Claim> before = port.owned;
            port.owned = Map.copyOf(e.getValue());
            for (Claim c : e.getValue().values()) {
                if (!before.containsKey(c.vip())) {
                    Binding b = new Binding(c, port.iface);
                    gained.add(b);
                    announce(port, b, learned);
                }
            }
        }
        closeIdlePorts();
        metrics.owned(ports.values().stream().mapToInt(p -> p.owned.size()).sum());
        return new Applied(List.copyOf(gained), Map.copyOf(errors));
    }

    /** Ends the hand-overs that ran out and closes the ports left with nothing to answer. */
    synchronized void closeIdlePorts() {
        Instant now = clock.instant();
        for (Port port : List.copyOf(ports.values())) {
            Map<Long, Instant> live = new HashMap<>(port.handingOver);
            live.values().removeIf(until -> !until.isAfter(now));
            port.handingOver = Map.copyOf(live);
            if (port.owned.isEmpty() && live.isEmpty() && port.probing.isEmpty()) {
                port.close();
                ports.remove(port.iface.name());
            }
        }
    }

    /** VIPs still answered while their new owner takes over (none while suspended). */
    public Map<Long, String> handingOver() {
        Map<Long, String> out = new HashMap<>();
        if (!suspended) {
            ports.values().forEach(p -> p.handingOver.keySet().forEach(v -> out.put(v, p.iface.name())));
        }
        return out;
    }

    /**
     * Probes {@code vip} on {@code iface} before its first announcement (RFC 5227 ARP probes, sender IP 0.0.0.0, on
     * {@code schedule}) without answering it, and hands the verdict to {@code done} on the timer thread when the
     * schedule's verdict time has come. A station that is not one of {@code clusterMacs} and says the VIP is at it, or probes
     * it too, makes the verdict {@link ProbeResult.InUse}.
     *
     * @return null, or why the interface's socket could not be opened (no probe runs then)
     */
    public synchronized String probe(Claim claim, InterfaceInfo iface, Set<MacAddress> clusterMacs,
            ProbeSchedule schedule, Consumer<ProbeResult> done) {
        Port port = ports.get(iface.name());
        if (port != null && (port.iface.index() != iface.index() || !Objects.equals(port.iface.mac(), iface.mac()))) {
            return "interface " + iface.name() + " changed while it was in use; probing at the next look";
        }
        if (port == null) {
            try {
                port = new Port(iface, sockets.open(iface));
            } catch (IOException | RuntimeException ex) {
                return ex.getMessage();
            }
            ports.put(iface.name(), port);
            port.start();
        }
        Probe probe = new Probe(claim.vip(), Set.copyOf(clusterMacs));
        Map<Long, Probe> probing = new HashMap<>(port.probing);
        probing.put(claim.vip(), probe);
        port.probing = Map.copyOf(probing);
        Port on = port;
        List<Duration> offsets = schedule.offsets();
        for (int i = 0; i < offsets.size(); i++) {
            Runnable send = () -> {
                if (!suspended && on.probing.get(probe.vip) == probe && ports.get(on.iface.name()) == on) {
                    on.sendProbe(probe.vip);
                }
            };
            if (i == 0) {
                send.run();
            } else {
                timer.schedule(send, offsets.get(i).toNanos(), TimeUnit.NANOSECONDS);
            }
        }
        timer.schedule(() -> done.accept(endProbe(on, probe)), schedule.verdictAfter().toNanos(),
                TimeUnit.NANOSECONDS);
        return null;
    }

    private synchronized ProbeResult endProbe(Port port, Probe probe) {
        boolean current = port.probing.get(probe.vip) == probe && ports.get(port.iface.name()) == port
                && !port.closing;
        if (port.probing.get(probe.vip) == probe) {
            Map<Long, Probe> rest = new HashMap<>(port.probing);
            rest.remove(probe.vip);
            port.probing = Map.copyOf(rest);
        }
        MacAddress found = probe.found;
        if (found != null) {
            return new ProbeResult.InUse(probe.vip, found, port.iface.name());
        }
        return current && !suspended ? new ProbeResult.Free(probe.vip) : new ProbeResult.Interrupted(probe.vip);
    }

    /** VIPs being probed now, with the interface. */
    public Map<Long, String> probing() {
        Map<Long, String> out = new HashMap<>();
        ports.values().forEach(p -> p.probing.keySet().forEach(v -> out.put(v, p.iface.name())));
        return out;
    }

    /** Re-sends the whole gratuitous ARP schedule for everything answered (start-up, or after a pause). */
    public synchronized List<Binding> announceAll(Instant learned) {
        List<Binding> all = new ArrayList<>();
        for (Port port : ports.values()) {
            for (Claim c : port.owned.values()) {
                Binding b = new Binding(c, port.iface);
                all.add(b);
                announce(port, b, learned);
            }
        }
        return all;
    }

    private void announce(Port port, Binding b, Instant learned) {
        List<Duration> offsets = schedule.offsets();
        for (int i = 0; i < offsets.size(); i++) {
            boolean first = i == 0;
            Runnable round = () -> {
                if (!suspended && port.owned.containsKey(b.claim().vip()) && ports.get(port.iface.name()) == port) {
                    port.sendGratuitous(b.claim().vip());
                    if (first) {
                        metrics.takeover(Duration.between(learned, clock.instant()));
                    }
                }
            };
            if (first) {
                round.run();
            } else {
                timer.schedule(round, offsets.get(i).toNanos(), TimeUnit.NANOSECONDS);
            }
        }
    }

    /**
     * Stops answering anything without forgetting what is owned: after the process was frozen longer than its Lease,
     * the controller has probably moved the VIPs, and answering for them would split the brain until a fresh list.
     */
    public void suspend() {
        suspended = true;
    }

    public void resume() {
        suspended = false;
    }

    public boolean suspended() {
        return suspended;
    }

    /** VIPs answered right now (none while suspended). */
    public Map<Long, Binding> answering() {
        Map<Long, Binding> out = new HashMap<>();
        if (!suspended) {
            ports.values().forEach(p -> p.owned.values().forEach(c -> out.put(c.vip(), new Binding(c, p.iface))));
        }
        return out;
    }

    /** Null when every receive thread runs, else what broke. */
    public String failure() {
        return failure;
    }

    @Override
    public synchronized void close() {
        ports.values().forEach(p -> {
            p.owned = Map.of();
            p.handingOver = Map.of();
            p.close();
        });
        ports.clear();
        metrics.owned(0);
    }

    private final class Port {
        final InterfaceInfo iface;
        final PacketSocket.Channel channel;
        final Thread thread;
        volatile Map<Long, Claim> owned = Map.of();
        /** Lost VIPs still answered until this instant, or until another station claims them. */
        volatile Map<Long, Instant> handingOver = Map.of();
        /** VIPs probed before their first announcement (not answered meanwhile). */
        volatile Map<Long, Probe> probing = Map.of();
        volatile boolean closing;

        Port(InterfaceInfo iface, PacketSocket.Channel channel) {
            this.iface = iface;
            this.channel = channel;
            this.thread = new Thread(this::receiveLoop, "juneau-arp-" + iface.name());
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void receiveLoop() {
            byte[] buf = new byte[2048];
            while (!closing) {
                int n;
                try {
                    n = channel.receive(buf, Duration.ofSeconds(1));
                } catch (IOException e) {
                    if (!closing) {
                        failure = "ARP receive on " + iface.name() + " stopped: " + e.getMessage();
                        LOG.error("{}", failure);
                    }
                    return;
                }
                if (n < 0) {
                    continue;
                }
                ArpFrame.decode(buf, n).ifPresent(this::handle);
            }
        }

        void handle(ArpFrame frame) {
            Map<Long, Probe> probes = probing;
            if (!probes.isEmpty()) {
                Set<MacAddress> cluster = new java.util.HashSet<>();
                probes.values().forEach(p -> cluster.addAll(p.clusterMacs));
                if (ProbeDecision.decide(frame, probes.keySet(), iface.mac(), cluster)
                        instanceof ProbeDecision.InUse u) {
                    Probe p = probes.get(u.vip());
                    if (p != null && p.found == null) {
                        p.found = u.other();
                        LOG.warn("ARP probe for {} on {}: {} uses it", Ipv4.format(u.vip()), iface.name(), u.other());
                    }
                }
            }
            Map<Long, Claim> now = suspended ? Map.of() : owned;
            Set<Long> handing = suspended ? Set.of() : stillHandingOver();
            ArpDecision d = ArpDecision.decide(frame, now.keySet(), handing, iface.mac());
            if (d instanceof ArpDecision.Answer a) {
                try {
                    channel.send(a.reply().encode());
                    metrics.answered();
                } catch (IOException e) {
                    LOG.warn("cannot answer ARP for {} on {}: {}", Ipv4.format(a.vip()), iface.name(), e.getMessage());
                }
            } else if (d instanceof ArpDecision.HandedOver h) {
                synchronized (Speaker.this) { // apply() rewrites the map too
                    Map<Long, Instant> rest = new HashMap<>(handingOver);
                    rest.remove(h.vip());
                    handingOver = Map.copyOf(rest);
                }
                LOG.info("{} is answered by {} now: handed over", Ipv4.format(h.vip()), frame.senderMac());
            } else if (d instanceof ArpDecision.Conflict c) {
                metrics.conflict();
                Claim claim = now.get(c.vip());
                if (claim != null) {
                    conflicts.conflict(claim, iface, c.other());
                }
            }
        }

        private Set<Long> stillHandingOver() {
            Map<Long, Instant> h = handingOver;
            if (h.isEmpty()) {
                return Set.of();
            }
            Instant at = clock.instant();
            Set<Long> live = new java.util.HashSet<>();
            h.forEach((vip, until) -> {
                if (until.isAfter(at)) {
                    live.add(vip);
                }
            });
            return live;
        }

        void sendProbe(long vip) {
            try {
                channel.send(ArpFrame.probe(iface.mac(), vip).encode());
            } catch (IOException e) {
                LOG.warn("cannot send an ARP probe for {} on {}: {}", Ipv4.format(vip), iface.name(), e.getMessage());
            }
        }

        void sendGratuitous(long vip) {
            try {
                channel.send(ArpFrame.gratuitousRequest(iface.mac(), vip).encode());
                channel.send(ArpFrame.gratuitousReply(iface.mac(), vip).encode());
                metrics.gratuitousSent(2);
            } catch (IOException e) {
                LOG.warn("cannot send gratuitous ARP for {} on {}: {}", Ipv4.format(vip), iface.name(), e.getMessage());
            }
        }

        void close() {
            closing = true;
            channel.close();
        }
    }

    /** One VIP being probed: the first foreign station that claims it, if any. */
    private static final class Probe {
        final long vip;
        final Set<MacAddress> clusterMacs;
        volatile MacAddress found;

        Probe(long vip, Set<MacAddress> clusterMacs) {
            this.vip = vip;
            this.clusterMacs = clusterMacs;
        }
    }
}
