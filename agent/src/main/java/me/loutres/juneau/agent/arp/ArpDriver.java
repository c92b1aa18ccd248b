package me.loutres.juneau.agent.arp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import me.loutres.juneau.agent.kube.ArpStatusWriter;
import me.loutres.juneau.agent.kube.Reporter;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.net.PacketSocket;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.own.Claim;
import me.loutres.juneau.agent.plan.ArpAnswer;
import me.loutres.juneau.agent.plan.FirstAnnouncement;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.ip.Ipv4;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the ARP half of the node's plan (README.md, "How a VIP answers"): makes the {@link Speaker} answer
 * exactly the planned {@link ArpAnswer.Answer}s, each on its interface, and says what happened: a log line and an
 * {@code Announcing} Event per VIP gained, the ARPAdvertisements' status (answered, or why not), and a rate-limited
 * Warning when another station claims a VIP. It decides nothing: which VIP answers where is the plan's.
 *
 * <p>Before a VIP's first announcement (no node ever reported it, {@link FirstAnnouncement}) it has the speaker probe
 * it ({@link ProbeSchedule}); the VIP is answered only when the probe comes back {@link ProbeResult.Free}. A probe that
 * finds the address in use leaves it unanswered with {@code Announced=False AddressConflict}, a Warning event and
 * {@code juneau_agent_address_conflicts_total}, for {@link #REPROBE_AFTER} (then it probes again). A failover, a
 * restart and a resume after a pause never probe. A foreign claim on a VIP already answered raises the same
 * condition, event and metric but keeps answering (docs/troubleshooting.md, "My VIP conflicts with another device").
 */
public final class ArpDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ArpDriver.class);
    /** One conflict Warning a minute per VIP: a flapping peer must not flood the Events API. */
    private static final Duration CONFLICT_EVENT_EVERY = Duration.ofMinutes(1);
    /** How long a VIP found in use stays unanswered before this node probes it again. */
    public static final Duration REPROBE_AFTER = Duration.ofHours(1);

    /** Where the probe of one VIP stands. */
    private sealed interface ProbeState {
    }

    private record Probing() implements ProbeState {
    }

    /** Probed and free: answer it at the next look. */
    private record Cleared() implements ProbeState {
    }

    /** Probed and in use by {@code other}: not answered until {@code until}. */
    private record Taken(MacAddress other, String iface, Instant until) implements ProbeState {
    }

    /** A foreign claim on a VIP this node answers (it keeps answering). */
    private record Late(MacAddress other, String iface) {
    }

    private final Speaker speaker;
    private final Reporter reporter;
    private final ArpStatusWriter statuses;
    private final ScheduledExecutorService timer;
    private final String node;
    private final Clock clock;
    private final Map<Long, Long> lastConflictEventMillis = new ConcurrentHashMap<>();
    private final AgentMetrics metrics;
    private final ProbeSchedule probeSchedule;
    private final Runnable kick;
    private final Map<Long, ProbeState> probes = new ConcurrentHashMap<>();
    private final Map<Long, Late> late = new ConcurrentHashMap<>();
    private volatile boolean socketsOk = true;

    /**
     * @param timer runs the later gratuitous ARP rounds and the Events sent from receive threads (never the caller's
     *              thread: a slow API server must not hold a port)
     */
    public ArpDriver(PacketSocket sockets, AnnounceSchedule schedule, ScheduledExecutorService timer,
            AgentMetrics metrics, Reporter reporter, String node, Duration maxBackoff, Clock clock) {
        this(sockets, schedule, ProbeSchedule.DEFAULT, timer, metrics, reporter, node, maxBackoff, clock, () -> {
        });
    }

    /**
     * @param probe when the probes before a first announcement go out
     * @param kick  asks for a turn soon (a probe ended, a conflict was seen); called on the timer or a receive thread
     */
    public ArpDriver(PacketSocket sockets, AnnounceSchedule schedule, ProbeSchedule probe,
            ScheduledExecutorService timer, AgentMetrics metrics, Reporter reporter, String node, Duration maxBackoff,
            Clock clock, Runnable kick) {
        this.metrics = metrics;
        this.probeSchedule = probe;
        this.kick = kick;
        this.reporter = reporter;
        this.timer = timer;
        this.node = node;
        this.clock = clock;
        this.speaker = new Speaker(sockets, schedule, timer, metrics, this::conflict, clock);
        this.statuses = new ArpStatusWriter(reporter, metrics, node, maxBackoff, clock);
    }

    /**
     * Carries out one turn's answers.
     *
     * @param answers  the plan's ARP half, one per owned VIP
     * @param list     this node's readable ARPAdvertisements (whose status is written)
     * @param invalid  those that read but cannot be answered, with why (status {@code InvalidConfig})
     * @param learned  when the agent learned of the change (the takeover metric)
     * @param resuming the fresh list after a pause is in: answer again, with the whole gratuitous ARP schedule
     * @return whether the node answers any VIP now (the Lease's rhythm)
     */
    public boolean apply(SortedMap<Long, ArpAnswer> answers, List<ARPAdvertisement> list,
            SortedMap<String, String> invalid, Instant learned, boolean resuming) {
        SortedMap<Long, Claim> owned = new TreeMap<>();
        Map<Long, Speaker.Binding> desired = new HashMap<>();
        Map<Long, String[]> problems = new HashMap<>();
        Map<Long, Speaker.Binding> before = speaker.answering();
        Map<String, ARPAdvertisement> byName = new HashMap<>();
        list.forEach(a -> byName.put(a.getMetadata().getName(), a));
        Set<MacAddress> clusterMacs = FirstAnnouncement.clusterMacs(list);
        Instant at = clock.instant();
        answers.forEach((vip, a) -> {
            owned.put(vip, a.claim());
            if (a instanceof ArpAnswer.Answer on) {
                Speaker.Binding b = new Speaker.Binding(on.claim(), on.iface());
                ProbeState state = probes.get(vip);
                if (before.containsKey(vip) || state instanceof Cleared) {
                    desired.put(vip, b); // answered already (or probed free): no probe
                } else if (state instanceof Taken t && t.until().isAfter(at)) {
                    problems.put(vip, new String[] {JuneauConstants.REASON_ADDRESS_CONFLICT, probeConflict(on.claim(),
                            t.other(), t.iface())});
                } else if (state instanceof Probing) {
                    // the verdict comes within the probe's wait; nothing to say meanwhile
                } else if (mustProbe(byName.get(on.claim().advertisement()), resuming)) {
                    startProbe(b, clusterMacs, problems);
                } else {
                    desired.put(vip, b);
                }
            } else if (a instanceof ArpAnswer.NoInterface none) {
                problems.put(vip, new String[] {JuneauConstants.REASON_INTERFACE_NOT_FOUND, none.message()});
            }
        });
        probes.entrySet().removeIf(e -> e.getValue() instanceof Taken t ? !t.until().isAfter(at)
                : !owned.containsKey(e.getKey()));
        Speaker.Applied applied = speaker.apply(desired, owned.keySet(), learned);
        applied.socketErrors().forEach((vip, msg) -> problems.put(vip, new String[] {
                JuneauConstants.REASON_SOCKET_ERROR, msg}));
        // a probe's socket counts too: a VIP that cannot be probed is not answered either
        socketsOk = problems.values().stream().noneMatch(p -> JuneauConstants.REASON_SOCKET_ERROR.equals(p[0]));
        if (resuming) {
            speaker.resume();
            LOG.info("fresh list done after the pause: answering {} VIP(s) again", speaker.answering().size());
            speaker.announceAll(learned);
        }
        Map<Long, Speaker.Binding> now = speaker.answering();
        probes.entrySet().removeIf(e -> e.getValue() instanceof Cleared && now.containsKey(e.getKey()));
        late.keySet().retainAll(now.keySet());
        Map<Long, String> conflicts = new HashMap<>();
        late.forEach((vip, l) -> conflicts.put(vip, lateConflict(now.get(vip).claim(), l)));
        for (Speaker.Binding b : applied.gained()) {
            statuses.gained(b.claim().vip());
            LOG.info("answering ARP for {} on {} ({}) for {}", b.claim().vipText(), b.iface().name(), b.iface().mac(),
                    b.claim().advertisement());
            if (b.claim().hasService()) {
                reporter.event(b.claim().serviceNamespace(), b.claim().serviceName(), b.claim().serviceUid(),
                        "Normal", JuneauConstants.EVENT_ANNOUNCING,
                        "Announcing " + b.claim().vipText() + " from " + node + " via " + b.iface().name());
            }
        }
        for (Long vip : before.keySet()) {
            if (!now.containsKey(vip) && !speaker.suspended()) {
                statuses.lost(vip);
                LOG.info("stopped answering ARP for {}", Ipv4.format(vip));
            }
        }
        statuses.logProblems(problems, owned);
        statuses.writeStatuses(list, owned, now, problems, conflicts);
        statuses.writeInvalidStatuses(list, invalid);
        return !now.isEmpty();
    }

    /** Stops answering without forgetting what is owned, until {@link #apply} resumes (see {@link Speaker#suspend}). */
    public void suspend() {
        speaker.suspend();
    }

    public boolean suspended() {
        return speaker.suspended();
    }

    /** The VIPs answered now, with the interface and MAC. */
    public Map<Long, Speaker.Binding> answering() {
        return speaker.answering();
    }

    /** Null when every receive thread runs, else what broke (liveness). */
    public String failure() {
        return speaker.failure();
    }

    /** Whether every socket the owned VIPs need is open (readiness). */
    public boolean socketsOk() {
        return socketsOk;
    }

    /** Whether {@code a}'s VIP must be probed before it is answered (never while suspended or resuming). */
    private boolean mustProbe(ARPAdvertisement a, boolean resuming) {
        return a != null && !resuming && !speaker.suspended() && FirstAnnouncement.mustProbe(a);
    }

    private void startProbe(Speaker.Binding b, Set<MacAddress> clusterMacs, Map<Long, String[]> problems) {
        Claim claim = b.claim();
        probes.put(claim.vip(), new Probing());
        LOG.info("probing {} on {} before its first announcement", claim.vipText(), b.iface().name());
        String error = speaker.probe(claim, b.iface(), clusterMacs, probeSchedule, r -> probed(claim, r));
        if (error != null) {
            probes.remove(claim.vip());
            problems.put(claim.vip(), new String[] {JuneauConstants.REASON_SOCKET_ERROR, error});
        }
    }

    /** A probe's verdict (timer thread): remembered for the next turn, which it asks for. */
    private void probed(Claim claim, ProbeResult r) {
        if (!(probes.get(claim.vip()) instanceof Probing)) {
            return; // no longer owned meanwhile
        }
        if (r instanceof ProbeResult.Free) {
            probes.put(claim.vip(), new Cleared());
        } else if (r instanceof ProbeResult.InUse u) {
            probes.put(claim.vip(), new Taken(u.other(), u.iface(), clock.instant().plus(REPROBE_AFTER)));
            metrics.addressConflict();
            String message = probeConflict(claim, u.other(), u.iface());
            LOG.warn("not announcing {} ({}): {}", claim.vipText(), claim.advertisement(), message);
            warn(claim, message);
        } else {
            probes.remove(claim.vip());
        }
        kick.run();
    }

    private String probeConflict(Claim claim, MacAddress other, String iface) {
        return "address " + claim.vipText() + " is already used by " + other + " on " + iface + ": it answered the"
                + " ARP probe of node " + node + ", which does not announce it (probed again after "
                + REPROBE_AFTER.toMinutes() + " min); remove the address from that device, or let the controller"
                + " move the Service to another address";
    }

    private String lateConflict(Claim claim, Late l) {
        return "address " + claim.vipText() + " is already used by " + l.other() + " on " + l.iface() + " too: node "
                + node + " keeps answering it; remove the address from that device or from the AddressPool";
    }

    /** A foreign claim on a VIP answered now (receive thread). */
    private void conflict(Claim claim, InterfaceInfo iface, MacAddress other) {
        Late l = new Late(other, iface.name());
        boolean first = !l.equals(late.put(claim.vip(), l));
        long now = clock.millis();
        Long last = lastConflictEventMillis.get(claim.vip());
        if (last != null && now - last < CONFLICT_EVENT_EVERY.toMillis()) {
            if (first) {
                kick.run();
            }
            return;
        }
        lastConflictEventMillis.put(claim.vip(), now);
        metrics.addressConflict();
        LOG.warn("ARP conflict: {} owned by this node ({} on {}) is also claimed by {}", claim.vipText(), iface.mac(),
                iface.name(), other);
        warn(claim, lateConflict(claim, l));
        kick.run();
    }

    private void warn(Claim claim, String message) {
        if (claim.hasService()) {
            timer.execute(() -> reporter.event(claim.serviceNamespace(), claim.serviceName(), claim.serviceUid(),
                    "Warning", JuneauConstants.REASON_ADDRESS_CONFLICT, message));
        }
    }

    /** Stops answering everything at once (SIGTERM). */
    @Override
    public void close() {
        speaker.close();
        LOG.info("stopped answering ARP (shutdown)");
    }
}
