package me.loutres.juneau.agent.ndp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import me.loutres.juneau.agent.arp.AnnounceSchedule;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.kube.ArpStatusWriter;
import me.loutres.juneau.agent.kube.Reporter;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.net.PacketSocket;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.own.Ipv6Claim;
import me.loutres.juneau.agent.plan.NdpAnswer;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.ip.IpAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the NDP half of the node's plan (docs/ndp.md): makes the {@link NdpSpeaker} answer exactly the planned
 * {@link NdpAnswer.Answer}s, each on its interface, and says what happened, as the ARP driver does for IPv4: a log
 * line and an {@code Announcing} Event per VIP gained, the IPv6 ARPAdvertisements' status, and a rate-limited Warning
 * when another station advertises a VIP. It decides nothing.
 */
public final class NdpDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NdpDriver.class);
    private static final Duration CONFLICT_EVENT_EVERY = Duration.ofMinutes(1);

    private final NdpSpeaker speaker;
    private final Reporter reporter;
    private final ArpStatusWriter statuses;
    private final ScheduledExecutorService timer;
    private final String node;
    private final Clock clock;
    private final Map<IpAddress, Instant> announcedAt = new HashMap<>();
    private final Map<IpAddress, Long> lastConflictEventMillis = new ConcurrentHashMap<>();
    private Map<IpAddress, String> lastProblems = Map.of();
    private volatile boolean socketsOk = true;

    public NdpDriver(PacketSocket sockets, AnnounceSchedule schedule, ScheduledExecutorService timer,
            AgentMetrics metrics, Reporter reporter, String node, Duration maxBackoff, Clock clock) {
        this.reporter = reporter;
        this.timer = timer;
        this.node = node;
        this.clock = clock;
        this.speaker = new NdpSpeaker(sockets, schedule, timer, metrics, this::conflict, clock);
        this.statuses = new ArpStatusWriter(reporter, metrics, node, maxBackoff, clock);
    }

    /** What {@link #answer} did, for {@link #report}: the answers, the problems and the VIPs answered before. */
    public record Turn(SortedMap<IpAddress, NdpAnswer> answers, Map<IpAddress, String[]> problems,
                       Map<IpAddress, NdpSpeaker.Binding> before, List<NdpSpeaker.Binding> gained) {
    }

    /**
     * Carries out one turn's IPv6 answers on the wire, and nothing else: no API call, so the turn's ARP half and
     * its status writes never delay an unsolicited advertisement, nor these the ARP half's ({@link #report} after).
     *
     * @param answers  one per owned IPv6 VIP
     * @param learned  when the agent learned of the change (the takeover metric)
     * @param resuming the fresh list after a pause is in: answer again, with the whole schedule
     */
    public Turn answer(SortedMap<IpAddress, NdpAnswer> answers, Instant learned, boolean resuming) {
        Map<IpAddress, NdpSpeaker.Binding> desired = new HashMap<>();
        Map<IpAddress, String[]> problems = new HashMap<>();
        answers.forEach((vip, a) -> {
            if (a instanceof NdpAnswer.Answer on) {
                desired.put(vip, new NdpSpeaker.Binding(on.claim(), on.iface()));
            } else if (a instanceof NdpAnswer.NoInterface none) {
                problems.put(vip, new String[] {JuneauConstants.REASON_INTERFACE_NOT_FOUND, none.message()});
            }
        });
        Map<IpAddress, NdpSpeaker.Binding> before = speaker.answering();
        NdpSpeaker.Applied applied = speaker.apply(desired, learned);
        applied.socketErrors().forEach((vip, msg) -> problems.put(vip, new String[] {
                JuneauConstants.REASON_SOCKET_ERROR, msg}));
        socketsOk = applied.socketErrors().isEmpty();
        if (resuming && speaker.suspended()) {
            speaker.resume();
            speaker.announceAll(learned);
        }
        return new Turn(answers, problems, before, applied.gained());
    }

    /**
     * Says what {@link #answer} did: log lines, an {@code Announcing} Event per VIP gained, the IPv6
     * ARPAdvertisements' status.
     *
     * @param list this node's readable ARPAdvertisements (whose status is written)
     * @return whether the node answers any IPv6 VIP now
     */
    public boolean report(Turn turn, List<ARPAdvertisement> list) {
        Map<IpAddress, NdpSpeaker.Binding> now = speaker.answering();
        for (NdpSpeaker.Binding b : turn.gained()) {
            announcedAt.put(b.claim().vip(), clock.instant().truncatedTo(ChronoUnit.SECONDS));
            LOG.info("answering NDP for {} on {} ({}) for {}", b.claim().vipText(), b.iface().name(), b.iface().mac(),
                    b.claim().advertisement());
            if (b.claim().hasService()) {
                reporter.event(b.claim().serviceNamespace(), b.claim().serviceName(), b.claim().serviceUid(),
                        "Normal", JuneauConstants.EVENT_ANNOUNCING,
                        "Announcing " + b.claim().vipText() + " from " + node + " via " + b.iface().name());
            }
        }
        for (IpAddress vip : turn.before().keySet()) {
            if (!now.containsKey(vip) && !speaker.suspended()) {
                announcedAt.remove(vip);
                LOG.info("stopped answering NDP for {}", vip);
            }
        }
        logProblems(turn.problems(), turn.answers());
        writeStatuses(list, turn.answers(), now, turn.problems());
        return !now.isEmpty();
    }

    private void logProblems(Map<IpAddress, String[]> problems, SortedMap<IpAddress, NdpAnswer> answers) {
        Map<IpAddress, String> flat = new HashMap<>();
        problems.forEach((vip, p) -> flat.put(vip, p[0] + ": " + p[1]));
        flat.forEach((vip, p) -> {
            if (!p.equals(lastProblems.get(vip))) {
                LOG.warn("cannot answer NDP for {} ({}): {}", vip, answers.get(vip).claim().advertisement(), p);
            }
        });
        lastProblems = flat;
    }

    private void writeStatuses(List<ARPAdvertisement> list, SortedMap<IpAddress, NdpAnswer> answers,
            Map<IpAddress, NdpSpeaker.Binding> answering, Map<IpAddress, String[]> problems) {
        Map<String, ARPAdvertisement> byName = new HashMap<>();
        list.forEach(a -> byName.put(a.getMetadata().getName(), a));
        for (NdpAnswer a : answers.values()) {
            Ipv6Claim c = a.claim();
            ARPAdvertisement current = byName.get(c.advertisement());
            NdpSpeaker.Binding b = answering.get(c.vip());
            Reporter.Wanted wanted;
            if (b != null) {
                Instant since = announcedAt.getOrDefault(c.vip(), clock.instant().truncatedTo(ChronoUnit.SECONDS));
                wanted = new Reporter.Wanted(b.iface().name(), b.iface().mac().toString(), since.toString(),
                        JuneauConstants.REASON_ANNOUNCED, "answering NDP for " + c.vipText() + " on "
                                + b.iface().name() + " with " + b.iface().mac());
            } else if (problems.containsKey(c.vip())) {
                String[] p = problems.get(c.vip());
                wanted = new Reporter.Wanted(null, null, null, p[0], p[1]);
            } else {
                continue; // suspended after a pause: say nothing until the fresh list
            }
            if (current != null) {
                statuses.write(current, wanted);
            }
        }
    }

    public void suspend() {
        speaker.suspend();
    }

    public boolean suspended() {
        return speaker.suspended();
    }

    /** The IPv6 VIPs answered now, with the interface and MAC. */
    public Map<IpAddress, NdpSpeaker.Binding> answering() {
        return speaker.answering();
    }

    /** Null when every receive thread runs, else what broke (liveness). */
    public String failure() {
        return speaker.failure();
    }

    /** Whether every socket the owned IPv6 VIPs need is open (readiness). */
    public boolean socketsOk() {
        return socketsOk;
    }

    private void conflict(Ipv6Claim claim, InterfaceInfo iface, MacAddress other) {
        long now = clock.millis();
        Long last = lastConflictEventMillis.get(claim.vip());
        if (last != null && now - last < CONFLICT_EVENT_EVERY.toMillis()) {
            return;
        }
        lastConflictEventMillis.put(claim.vip(), now);
        LOG.warn("NDP conflict: {} owned by this node ({} on {}) is also advertised by {}", claim.vipText(),
                iface.mac(), iface.name(), other);
        if (claim.hasService()) {
            timer.execute(() -> reporter.event(claim.serviceNamespace(), claim.serviceName(), claim.serviceUid(),
                    "Warning", JuneauConstants.REASON_ADDRESS_CONFLICT,
                    "NDP for " + claim.vipText() + " answered by " + other
                            + " too; " + node + " answers via " + iface.name() + " with " + iface.mac()
                            + ". Another host uses this address: remove it there or from the AddressPool"));
        }
    }

    /** Stops answering everything at once (SIGTERM). */
    @Override
    public void close() {
        speaker.close();
        LOG.info("stopped answering NDP (shutdown)");
    }
}
