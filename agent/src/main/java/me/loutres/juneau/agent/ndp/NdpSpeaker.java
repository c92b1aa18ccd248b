package me.loutres.juneau.agent.ndp;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.agent.arp.AnnounceSchedule;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.net.PacketSocket;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.own.Ipv6Claim;
import me.loutres.juneau.ip.IpAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The IPv6 data plane (docs/ndp.md): one NDP channel and receive thread per interface in use, answering Neighbor
 * Solicitations for the IPv6 VIPs bound to that interface, joined to each VIP's solicited-node multicast group, and
 * sending unsolicited Neighbor Advertisements on the {@link AnnounceSchedule} when a VIP is gained. What it answers is
 * replaced as a whole by {@link #apply}; a VIP left out stops at once (its new owner's unsolicited advertisements
 * override the neighbour caches). Suspended or closed, it answers nothing. Nothing is configured on any interface.
 */
public final class NdpSpeaker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NdpSpeaker.class);

    /** An IPv6 VIP and the interface it is answered on. */
    public record Binding(Ipv6Claim claim, InterfaceInfo iface) {
    }

    /** Told when another station advertises one of our VIPs (runs on a receive thread: keep it short). */
    public interface ConflictListener {
        void conflict(Ipv6Claim claim, InterfaceInfo iface, MacAddress other);
    }

    /** What {@link #apply} did: the VIPs newly answered and those whose interface could not be opened. */
    public record Applied(List<Binding> gained, Map<IpAddress, String> socketErrors) {
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

    public NdpSpeaker(PacketSocket sockets, AnnounceSchedule schedule, ScheduledExecutorService timer,
            AgentMetrics metrics, ConflictListener conflicts, Clock clock) {
        this.sockets = sockets;
        this.schedule = schedule;
        this.timer = timer;
        this.metrics = metrics;
        this.conflicts = conflicts;
        this.clock = clock;
    }

    /**
     * Makes the node answer exactly {@code desired}. Losses take effect at once; each gain sends its first
     * unsolicited advertisement before this returns and the rest on the timer.
     */
    public synchronized Applied apply(Map<IpAddress, Binding> desired, Instant learned) {
        Map<String, Map<IpAddress, Ipv6Claim>> byInterface = new HashMap<>();
        Map<String, InterfaceInfo> interfaces = new HashMap<>();
        desired.values().forEach(b -> {
            byInterface.computeIfAbsent(b.iface().name(), k -> new LinkedHashMap<>()).put(b.claim().vip(), b.claim());
            interfaces.put(b.iface().name(), b.iface());
        });
        for (Port port : List.copyOf(ports.values())) {
            InterfaceInfo now = interfaces.get(port.iface.name());
            if (now == null || now.index() != port.iface.index() || !Objects.equals(now.mac(), port.iface.mac())) {
                port.owned = Map.of();
                port.close();
                ports.remove(port.iface.name());
            }
        }
        List<Binding> gained = new ArrayList<>();
        Map<IpAddress, String> errors = new HashMap<>();
        for (Map.Entry<String, Map<IpAddress, Ipv6Claim>> e : byInterface.entrySet()) {
            Port port = ports.get(e.getKey());
            if (port == null) {
                try {
                    port = new Port(interfaces.get(e.getKey()), sockets.openNdp(interfaces.get(e.getKey())));
                } catch (IOException | RuntimeException ex) {
                    e.getValue().keySet().forEach(v -> errors.put(v, ex.getMessage()));
                    continue;
                }
                ports.put(e.getKey(), port);
                port.start();
            }
            Map<IpAddress, Ipv6Claim> before = port.owned;
            try {
                port.groups(e.getValue().keySet()); // joined before the first answer: the solicitations reach us
            } catch (IOException ex) {
                e.getValue().keySet().forEach(v -> errors.put(v, ex.getMessage()));
                port.owned = Map.of();
                continue;
            }
            port.owned = Map.copyOf(e.getValue());
            for (Ipv6Claim c : e.getValue().values()) {
                if (!before.containsKey(c.vip())) {
                    Binding b = new Binding(c, port.iface);
                    gained.add(b);
                    announce(port, b, learned);
                }
            }
        }
        return new Applied(List.copyOf(gained), Map.copyOf(errors));
    }

    /** Re-sends the whole schedule of unsolicited advertisements for everything answered (after a pause). */
    public synchronized void announceAll(Instant learned) {
        for (Port port : ports.values()) {
            for (Ipv6Claim c : port.owned.values()) {
                announce(port, new Binding(c, port.iface), learned);
            }
        }
    }

    private void announce(Port port, Binding b, Instant learned) {
        List<Duration> offsets = schedule.offsets();
        for (int i = 0; i < offsets.size(); i++) {
            boolean first = i == 0;
            Runnable round = () -> {
                if (!suspended && port.owned.containsKey(b.claim().vip()) && ports.get(port.iface.name()) == port) {
                    port.sendUnsolicited(b.claim().vip());
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

    /** Stops answering without forgetting what is owned (the Lease was lost during a pause). */
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
    public Map<IpAddress, Binding> answering() {
        Map<IpAddress, Binding> out = new HashMap<>();
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
            p.close();
        });
        ports.clear();
    }

    private final class Port {
        final InterfaceInfo iface;
        final PacketSocket.Channel channel;
        final Thread thread;
        final Set<MacAddress> joined = new HashSet<>();
        volatile Map<IpAddress, Ipv6Claim> owned = Map.of();
        volatile boolean closing;

        Port(InterfaceInfo iface, PacketSocket.Channel channel) {
            this.iface = iface;
            this.channel = channel;
            this.thread = new Thread(this::receiveLoop, "juneau-ndp-" + iface.name());
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        /** Joins the solicited-node groups of {@code vips} and leaves those no VIP needs any more. */
        void groups(Set<IpAddress> vips) throws IOException {
            Set<MacAddress> wanted = new HashSet<>();
            vips.forEach(v -> wanted.add(NdpFrame.multicastMac(NdpFrame.solicitedNode(v))));
            for (MacAddress g : wanted) {
                if (!joined.contains(g)) {
                    channel.join(g);
                    joined.add(g);
                }
            }
            for (MacAddress g : List.copyOf(joined)) {
                if (!wanted.contains(g)) {
                    try {
                        channel.leave(g);
                    } catch (IOException e) {
                        LOG.warn("{}", e.getMessage());
                    }
                    joined.remove(g);
                }
            }
        }

        void receiveLoop() {
            byte[] buf = new byte[2048];
            while (!closing) {
                int n;
                try {
                    n = channel.receive(buf, Duration.ofSeconds(1));
                } catch (IOException e) {
                    if (!closing) {
                        failure = "NDP receive on " + iface.name() + " stopped: " + e.getMessage();
                        LOG.error("{}", failure);
                    }
                    return;
                }
                if (n >= 0) {
                    NdpFrame.decode(buf, n).ifPresent(this::handle);
                }
            }
        }

        void handle(NdpFrame frame) {
            Map<IpAddress, Ipv6Claim> now = suspended ? Map.of() : owned;
            NdpDecision d = NdpDecision.decide(frame, now.keySet(), iface.mac());
            if (d instanceof NdpDecision.Answer a) {
                try {
                    channel.send(a.reply().encode());
                    metrics.answered();
                } catch (IOException e) {
                    LOG.warn("cannot answer NDP for {} on {}: {}", a.vip(), iface.name(), e.getMessage());
                }
            } else if (d instanceof NdpDecision.Conflict c) {
                metrics.conflict();
                Ipv6Claim claim = now.get(c.vip());
                if (claim != null) {
                    conflicts.conflict(claim, iface, c.other());
                }
            }
        }

        void sendUnsolicited(IpAddress vip) {
            try {
                channel.send(NdpFrame.unsolicited(iface.mac(), vip).encode());
                metrics.gratuitousSent(1);
            } catch (IOException e) {
                LOG.warn("cannot send an unsolicited Neighbor Advertisement for {} on {}: {}", vip, iface.name(),
                        e.getMessage());
            }
        }

        void close() {
            closing = true;
            channel.close();
        }
    }
}
