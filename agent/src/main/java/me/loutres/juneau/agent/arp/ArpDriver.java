package me.loutres.juneau.agent.arp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 */
public final class ArpDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ArpDriver.class);
    /** One conflict Warning a minute per VIP: a flapping peer must not flood the Events API. */
    private static final Duration CONFLICT_EVENT_EVERY = Duration.ofMinutes(1);

    private final Speaker speaker;
    private final Reporter reporter;
    private final ArpStatusWriter statuses;
    private final ScheduledExecutorService timer;
    private final String node;
    private final Clock clock;
    private final Map<Long, Long> lastConflictEventMillis = new ConcurrentHashMap<>();
    private volatile boolean socketsOk = true;

    /**
     * @param timer runs the later gratuitous ARP rounds and the Events sent from receive threads (never the caller's
     *              thread: a slow API server must not hold a port)
     */
    public ArpDriver(PacketSocket sockets, AnnounceSchedule schedule, ScheduledExecutorService timer,
            AgentMetrics metrics, Reporter reporter, String node, Duration maxBackoff, Clock clock) {
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
        answers.forEach((vip, a) -> {
            owned.put(vip, a.claim());
            if (a instanceof ArpAnswer.Answer on) {
                desired.put(vip, new Speaker.Binding(on.claim(), on.iface()));
            } else if (a instanceof ArpAnswer.NoInterface none) {
                problems.put(vip, new String[] {JuneauConstants.REASON_INTERFACE_NOT_FOUND, none.message()});
            }
        });
        Map<Long, Speaker.Binding> before = speaker.answering();
        Speaker.Applied applied = speaker.apply(desired, owned.keySet(), learned);
        applied.socketErrors().forEach((vip, msg) -> problems.put(vip, new String[] {
                JuneauConstants.REASON_SOCKET_ERROR, msg}));
        socketsOk = applied.socketErrors().isEmpty();
        if (resuming) {
            speaker.resume();
            LOG.info("fresh list done after the pause: answering {} VIP(s) again", speaker.answering().size());
            speaker.announceAll(learned);
        }
        Map<Long, Speaker.Binding> now = speaker.answering();
        for (Speaker.Binding b : applied.gained()) {
            statuses.gained(b.claim().vip());
            LOG.info("answering ARP for {} on {} ({}) for {}", b.claim().vipText(), b.iface().name(), b.iface().mac(),
                    b.claim().advertisement());
            if (b.claim().hasService()) {
                reporter.event(b.claim().serviceNamespace(), b.claim().serviceName(), "Normal",
                        JuneauConstants.EVENT_ANNOUNCING, "Announcing " + b.claim().vipText() + " from " + node
                                + " via " + b.iface().name());
            }
        }
        for (Long vip : before.keySet()) {
            if (!now.containsKey(vip) && !speaker.suspended()) {
                statuses.lost(vip);
                LOG.info("stopped answering ARP for {}", Ipv4.format(vip));
            }
        }
        statuses.logProblems(problems, owned);
        statuses.writeStatuses(list, owned, now, problems);
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

    private void conflict(Claim claim, InterfaceInfo iface, MacAddress other) {
        long now = clock.millis();
        Long last = lastConflictEventMillis.get(claim.vip());
        if (last != null && now - last < CONFLICT_EVENT_EVERY.toMillis()) {
            return;
        }
        lastConflictEventMillis.put(claim.vip(), now);
        LOG.warn("ARP conflict: {} owned by this node ({} on {}) is also claimed by {}", claim.vipText(), iface.mac(),
                iface.name(), other);
        if (claim.hasService()) {
            timer.execute(() -> reporter.event(claim.serviceNamespace(), claim.serviceName(), "Warning",
                    JuneauConstants.EVENT_ARP_CONFLICT, "ARP for " + claim.vipText() + " answered by " + other
                            + " too; " + node + " answers via " + iface.name() + " with " + iface.mac()
                            + ". Another host uses this address: remove it there or from the AddressPool"));
        }
    }

    /** Stops answering everything at once (SIGTERM). */
    @Override
    public void close() {
        speaker.close();
        LOG.info("stopped answering ARP (shutdown)");
    }
}
