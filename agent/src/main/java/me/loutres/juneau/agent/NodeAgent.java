package me.loutres.juneau.agent;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.arp.Speaker;
import me.loutres.juneau.agent.kube.ApiReachability;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.agent.kube.Reporter;
import me.loutres.juneau.agent.net.InterfaceChooser;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.net.PacketSocket;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.own.AdvertisementRead;
import me.loutres.juneau.agent.own.Claim;
import me.loutres.juneau.agent.bgp.BgpDriver;
import me.loutres.juneau.agent.bgp.SessionReport;
import me.loutres.juneau.agent.kube.ArpStatusWriter;
import me.loutres.juneau.agent.kube.NodeSources;
import me.loutres.juneau.agent.kube.SessionWriter;
import me.loutres.juneau.agent.plan.NodePlan;
import me.loutres.juneau.agent.plan.NodePlanner;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.runtime.ControllerRuntime;
import me.loutres.juneau.runtime.MicrometerRuntimeMetrics;
import me.loutres.juneau.runtime.Registration;
import me.loutres.juneau.runtime.Result;
import me.loutres.juneau.runtime.Term;
import me.loutres.juneau.runtime.WorkQueue;
import me.loutres.juneau.runtime.ops.OpsServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent (README.md, "How a VIP answers"): watches the ARPAdvertisements labelled with its node, makes the {@link Speaker} answer
 * exactly the VIPs whose {@code spec.nodeName} is this node, reports status and Events, and keeps the liveness
 * Lease. It runs on the controller's runtime ({@link ControllerRuntime} without leader election: every node's agent
 * works): one key, the node, one worker, so the whole node is reconciled at a time, level-based (everything is
 * recomputed from the cache, so a missed event or a failed write is repaired by the next turn, at the latest a
 * second later).
 *
 * <p>What the node answers lives in memory only: when the API server is unreachable the agent keeps answering what
 * it last knew; when the agent dies, nothing is left configured anywhere.
 */
public final class NodeAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);
    private static final Duration TICK = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** How long the watch may take to bring its cache in line with a direct list after an outage. */
    private static final Duration CACHE_SETTLE = Duration.ofSeconds(5);
    private static final ResourceDefinitionContext ADVERTISEMENTS =
            ResourceDefinitionContext.fromResourceType(ARPAdvertisement.class);

    private final KubernetesClient client;
    private final AgentOptions options;
    private final Supplier<List<InterfaceInfo>> interfaces;
    private final InterfaceChooser chooser;
    private final AgentMetrics metrics = new AgentMetrics();
    private final ScheduledExecutorService timer;
    private final Speaker speaker;
    private final Reporter reporter;
    private final LeaseKeeper lease;
    private final ApiReachability api;
    private volatile SharedIndexInformer<GenericKubernetesResource> informer;
    private final ControllerRuntime runtime;
    private final WorkQueue<String> queue;
    private final OpsServer ops;
    private final NodeSources sources;
    private final BgpDriver bgp;
    private final SessionWriter sessions;
    private List<String> lastPlanProblems = List.of();
    /** BGP work runs on its own thread: BIRD and the BGPSession writes must never slow the ARP loop down. */
    private final ScheduledExecutorService bgpThread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "juneau-agent-bgp");
        t.setDaemon(true);
        return t;
    });
    private final java.util.concurrent.atomic.AtomicReference<NodePlan> nextPlan =
            new java.util.concurrent.atomic.AtomicReference<>();
    private final ArpStatusWriter statuses;
    private final Map<Long, Long> lastConflictEvent = new ConcurrentHashMap<>();
    private final Map<String, AdvertisementRead> reads = new HashMap<>();
    private Map<String, String> lastSkipped = Map.of();
    private volatile long pendingSince;
    private volatile boolean stopping;
    private volatile boolean firstListDone;
    private volatile boolean socketsOk = true;
    private volatile long heartbeatNanos = System.nanoTime();
    private volatile boolean catchingUp;
    private Boolean lastWatching;
    private volatile long notWatchingSince = System.nanoTime();
    private boolean wasDown;
    private long cacheCheckSince;
    private long lastCacheCheck;

    private NodeAgent(KubernetesClient client, AgentOptions options, BgpOptions bgpOptions, Clock clock,
            PacketSocket sockets, Supplier<List<InterfaceInfo>> interfaces) throws IOException {
        this.client = client;
        this.options = options;
        this.interfaces = interfaces;
        this.chooser = new InterfaceChooser(options.interfaces());
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "juneau-agent-garp");
            t.setDaemon(true);
            return t;
        });
        this.speaker = new Speaker(sockets, options.announce(), timer, metrics, this::conflict);
        this.reporter = new Reporter(client, options.node());
        this.statuses = new ArpStatusWriter(reporter, metrics, options.node(), MAX_BACKOFF);
        this.api = new ApiReachability(() -> "answering ARP for " + speaker.answering().size()
                + " VIP(s) from memory meanwhile");
        this.lease = new LeaseKeeper(client, options.namespace(), options.node(), options.holder(), options.lease(),
                metrics, this::paused, api);
        this.informer = newInformer();
        this.sources = new NodeSources(client, options.node(), options.namespace(), bgpOptions.routerId(), clock,
                metrics, this::kick);
        this.bgp = new BgpDriver(bgpOptions.settings(), metrics, clock);
        this.sessions = new SessionWriter(client, options.node(), reporter, clock);
        this.runtime = new ControllerRuntime("juneau-agent", new MicrometerRuntimeMetrics(metrics.registry()));
        this.queue = runtime.register(Registration.<String>of("node", "node", this::reconcileNode)
                .withBackoff(Duration.ofMillis(200), MAX_BACKOFF));
        this.ops = options.metricsPort() < 0 ? null
                : new OpsServer(options.metricsBind(), options.metricsPort(), this::healthProblem,
                        this::readinessProblem, metrics::scrape);
    }

    /** The watch of this node's advertisements (not started). */
    private SharedIndexInformer<GenericKubernetesResource> newInformer() {
        // generic, then read one by one: a typed informer that meets one malformed object fails the whole list
        SharedIndexInformer<GenericKubernetesResource> i = client.genericKubernetesResources(ADVERTISEMENTS)
                .withLabel(JuneauConstants.LABEL_NODE, options.node()).runnableInformer(0);
        i.exceptionHandler((started, t) -> {
            // keep retrying with the informer's backoff: a node agent has nothing better to do than wait
            LOG.debug("ARPAdvertisement list/watch: {}", t.getMessage());
            api.failed("ARPAdvertisement watch", ApiReachability.firstLine(t));
            return true;
        });
        i.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource obj) {
                kick();
            }

            @Override
            public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                kick();
            }

            @Override
            public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
                kick();
            }
        });
        return i;
    }

    /** Starts watching, answering and renewing; returns at once (the first list may still be under way). */
    public static NodeAgent start(KubernetesClient client, AgentOptions options, PacketSocket sockets,
            Supplier<List<InterfaceInfo>> interfaces) throws IOException {
        return start(client, options, BgpOptions.defaults(), Clock.systemUTC(), sockets, interfaces);
    }

    /** As above, with BIRD's settings and the clock given (docs/bgp.md). */
    public static NodeAgent start(KubernetesClient client, AgentOptions options, BgpOptions bgpOptions, Clock clock,
            PacketSocket sockets, Supplier<List<InterfaceInfo>> interfaces) throws IOException {
        NodeAgent agent = new NodeAgent(client, options, bgpOptions, clock, sockets, interfaces);
        LOG.info("node agent for node {} starting: Lease {}/{}, interfaces {}", options.node(), options.namespace(),
                agent.lease.name(), options.interfaces().isEmpty() ? "chosen by prefix" : options.interfaces());
        agent.runtime.startWithoutLeaderElection();
        agent.queue.add(options.node());
        agent.lease.start();
        agent.informer.start();
        agent.sources.start();
        return agent;
    }

    public AgentMetrics metrics() {
        return metrics;
    }

    public int opsPort() {
        return ops == null ? -1 : ops.port();
    }

    /** The VIPs answered now, with the interface and MAC (for tests and the demo). */
    public Map<Long, Speaker.Binding> answering() {
        return speaker.answering();
    }

    /**
     * Null when the agent is healthy; liveness fails (and the kubelet restarts it) only when something is stuck. An
     * API server outage alone is not: a restarted agent could not list what it owns and would stop answering it.
     */
    public String healthProblem() {
        if (speaker.failure() != null) {
            return speaker.failure();
        }
        if (runtime.failed()) {
            return "the reconcile runtime stopped: " + runtime.failure();
        }
        if (!stopping && informer.stopped().toCompletableFuture().isDone()) {
            return "the ARPAdvertisement watch stopped for good";
        }
        long stuck = options.stuckAfter().toNanos();
        long now = System.nanoTime();
        long down = notWatchingSince;
        if (down != 0 && now - down > stuck && lease.renewedNanos() - down > stuck / 2) {
            return "the ARPAdvertisement watch has been down for " + (now - down) / 1_000_000_000
                    + " s although the API server answers the Lease renewals";
        }
        if (now - heartbeatNanos > stuck) {
            return "the reconcile loop has not run for " + (now - heartbeatNanos) / 1_000_000_000 + " s";
        }
        if (now - lease.heartbeatNanos() > stuck + options.lease().idleInterval().toNanos()) {
            return "the Lease loop has not run for " + (now - lease.heartbeatNanos()) / 1_000_000_000 + " s";
        }
        return null;
    }

    /** Null when ready: the first list is done and every socket the owned VIPs need is open. */
    public String readinessProblem() {
        if (!firstListDone) {
            return "first list of ARPAdvertisements not done yet";
        }
        if (!socketsOk) {
            return "a packet socket could not be opened (see the ARPAdvertisement status, reason "
                    + JuneauConstants.REASON_SOCKET_ERROR + ")";
        }
        return healthProblem();
    }

    private void kick() {
        if (pendingSince == 0) {
            pendingSince = System.nanoTime();
        }
        queue.add(options.node());
    }

    private void paused() {
        speaker.suspend();
        catchingUp = true;
        kick();
    }

    /** The runtime's reconcile of the one key; it looks again every second (interfaces, retries, the watch). */
    private Result reconcileNode(String node, Term term) {
        heartbeatNanos = System.nanoTime();
        if (stopping) {
            return Result.DONE;
        }
        logWatchState();
        if (!informer.hasSynced()) {
            return Result.after(Duration.ofMillis(200));
        }
        if (cacheReplacedAfterOutage()) {
            return Result.after(Duration.ofMillis(200)); // nothing changes until the fresh list is in
        }
        long learned = pendingSince == 0 ? System.nanoTime() : pendingSince;
        pendingSince = 0;
        reconcile(learned);
        return Result.after(TICK);
    }

    /**
     * After an outage a watch resumes from its last resourceVersion, without a list. An API server that came back
     * with other contents (a restored or replaced store) would leave the cache stale for good, answering for
     * advertisements that no longer exist; so once the watch is back, one direct list is compared with the cache,
     * and a cache that still differs after a few seconds is replaced by a fresh informer (a fresh list).
     */
    private boolean cacheReplacedAfterOutage() {
        boolean down = api.down();
        long now = System.nanoTime();
        if (wasDown && !down) {
            cacheCheckSince = now;
            lastCacheCheck = 0;
        }
        wasDown = down;
        if (cacheCheckSince == 0 || down || (lastCacheCheck != 0 && now - lastCacheCheck < TICK.toNanos())) {
            return false;
        }
        lastCacheCheck = now;
        Map<String, String> server;
        try {
            server = versions(client.genericKubernetesResources(ADVERTISEMENTS)
                    .withLabel(JuneauConstants.LABEL_NODE, options.node()).list().getItems());
        } catch (KubernetesClientException e) {
            return false; // the next turn tries again
        }
        if (server.equals(versions(informer.getStore().list()))) {
            cacheCheckSince = 0;
        } else if (now - cacheCheckSince > CACHE_SETTLE.toNanos()) {
            cacheCheckSince = 0;
            LOG.info("the API server's ARPAdvertisements differ from the watch's cache after the outage (a restored or"
                    + " replaced store?); listing them afresh");
            SharedIndexInformer<GenericKubernetesResource> stale = informer;
            notWatchingSince = System.nanoTime(); // a new watch opening, not an outage
            lastWatching = false;
            informer = newInformer();
            informer.start();
            stale.stop();
            return true;
        }
        return false;
    }

    /** The watch's state, for the log (one line per change, via {@link ApiReachability}) and liveness. */
    private void logWatchState() {
        boolean watching = informer.isWatching();
        if (watching) {
            notWatchingSince = 0;
            api.ok("ARPAdvertisement watch");
        } else if (notWatchingSince == 0) {
            notWatchingSince = System.nanoTime();
            if (Boolean.TRUE.equals(lastWatching)) {
                // fabric8 reconnects a lost watch itself (with backoff) without calling the exception handler
                api.failed("ARPAdvertisement watch", "the watch closed; reconnecting");
            }
        }
        if (lastWatching == null || lastWatching != watching) {
            if (watching && lastWatching == null) {
                LOG.info("watching ARPAdvertisements labelled {}={}", JuneauConstants.LABEL_NODE, options.node());
            } else if (!watching && lastWatching == null) {
                LOG.info("connecting to the API server (retried with backoff until it answers)");
            }
            lastWatching = watching;
        }
    }

    private void reconcile(long learned) {
        List<GenericKubernetesResource> raw;
        boolean resuming = false;
        if (catchingUp) {
            try {
                raw = client.genericKubernetesResources(ADVERTISEMENTS)
                        .withLabel(JuneauConstants.LABEL_NODE, options.node()).list().getItems();
            } catch (KubernetesClientException e) {
                return; // still paused: answering from a cache older than our Lease could split the brain
            }
            catchingUp = !versions(raw).equals(versions(informer.getStore().list()));
            resuming = speaker.suspended();
        } else {
            raw = informer.getStore().list();
        }
        List<ARPAdvertisement> list = readAll(raw);
        if (!firstListDone) {
            firstListDone = true;
            LOG.info("first list done: {} ARPAdvertisement(s) labelled for node {}", list.size(), options.node());
        }
        NodePlan plan = NodePlanner.plan(sources.view(list));
        SortedMap<Long, Claim> owned = plan.arpOwned();
        SortedMap<String, String> invalid = plan.arpInvalid();
        reportSkipped(invalid);
        List<InterfaceInfo> ifs = interfaces.get();
        Map<Long, Speaker.Binding> desired = new HashMap<>();
        Map<Long, String[]> problems = new HashMap<>();
        for (Claim c : owned.values()) {
            InterfaceChooser.Choice choice = chooser.choose(c.vip(), ifs);
            if (choice instanceof InterfaceChooser.Chosen chosen) {
                desired.put(c.vip(), new Speaker.Binding(c, chosen.iface()));
            } else {
                problems.put(c.vip(), new String[] {JuneauConstants.REASON_INTERFACE_NOT_FOUND,
                        ((InterfaceChooser.NotFound) choice).message()});
            }
        }
        Map<Long, Speaker.Binding> before = speaker.answering();
        Speaker.Applied applied = speaker.apply(desired, learned);
        applied.socketErrors().forEach((vip, msg) -> problems.put(vip, new String[] {
                JuneauConstants.REASON_SOCKET_ERROR, msg}));
        socketsOk = applied.socketErrors().isEmpty();
        if (resuming) {
            speaker.resume();
            LOG.info("fresh list done after the pause: answering {} VIP(s) again", speaker.answering().size());
            speaker.announceAll(learned);
        }
        Map<Long, Speaker.Binding> now = speaker.answering();
        lease.owning(!now.isEmpty());
        for (Speaker.Binding b : applied.gained()) {
            statuses.gained(b.claim().vip());
            LOG.info("answering ARP for {} on {} ({}) for {}", b.claim().vipText(), b.iface().name(), b.iface().mac(),
                    b.claim().advertisement());
            if (b.claim().hasService()) {
                reporter.event(b.claim().serviceNamespace(), b.claim().serviceName(), "Normal",
                        JuneauConstants.EVENT_ANNOUNCING, "Announcing " + b.claim().vipText() + " from "
                                + options.node() + " via " + b.iface().name());
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
        if (sources.synced()) {
            announce(plan);
        }
    }

    /**
     * Hands the BGP half of the plan to the BGP thread, which carries out the latest one (plans that arrive while it
     * works are coalesced).
     */
    private void announce(NodePlan plan) {
        if (nextPlan.getAndSet(plan) == null && !stopping) {
            bgpThread.execute(this::announceLatest);
        }
    }

    /** On the BGP thread: BIRD runs the plan, the BGPSessions say what BIRD reports (docs/bgp.md). */
    private void announceLatest() {
        NodePlan plan = nextPlan.getAndSet(null);
        if (plan == null || stopping) {
            return;
        }
        try {
            if (sources.refreshSecrets()) {
                kick(); // a password appeared or changed: plan again with it
            }
            if (!plan.problems().equals(lastPlanProblems)) {
                List<String> before = lastPlanProblems;
                plan.problems().stream().filter(p -> !before.contains(p)).forEach(p -> LOG.warn("BGP: {}", p));
                lastPlanProblems = plan.problems();
            }
            List<SessionReport> reports = bgp.apply(plan);
            sessions.write(plan.sessions(), reports, sources.unknownPeers());
        } catch (RuntimeException e) {
            LOG.warn("BGP turn failed (retried on the next one): {}", e.toString());
        }
    }

    /** BIRD's pid, or -1 when none runs (tests). */
    public long birdPid() {
        return bgp.birdPid();
    }

    private static Map<String, String> versions(List<GenericKubernetesResource> list) {
        return list.stream().filter(a -> a.getMetadata() != null).collect(Collectors.toMap(
                a -> String.valueOf(a.getMetadata().getName()),
                a -> String.valueOf(a.getMetadata().getResourceVersion()), (a, b) -> a));
    }

    /**
     * The readable advertisements, each version read once; the unreadable ones are remembered with their problem
     * (for {@link #reportSkipped}) and otherwise ignored.
     */
    private List<ARPAdvertisement> readAll(List<GenericKubernetesResource> raw) {
        Map<String, AdvertisementRead> now = new HashMap<>();
        List<ARPAdvertisement> readable = new java.util.ArrayList<>(raw.size());
        for (GenericKubernetesResource g : raw) {
            String name = g.getMetadata() == null ? "" : String.valueOf(g.getMetadata().getName());
            AdvertisementRead r = reads.get(name);
            if (r == null || r.resourceVersion() == null
                    || !r.resourceVersion().equals(g.getMetadata().getResourceVersion())) {
                r = AdvertisementRead.of(g);
            }
            now.put(name, r);
            if (r.readable()) {
                readable.add(r.advertisement());
            }
        }
        reads.clear();
        reads.putAll(now);
        return readable;
    }

    /**
     * Says, once per object and problem, which advertisements this node skips: a log line, a Warning event on the
     * advertisement and the skipped gauge. Never an exception: one bad object must not stop the node answering
     * the good ones.
     */
    private void reportSkipped(Map<String, String> invalid) {
        Map<String, String> skipped = new java.util.TreeMap<>(invalid);
        reads.values().stream().filter(r -> !r.readable()).forEach(r -> skipped.put(r.name(), r.problem()));
        metrics.skipped(skipped.size());
        if (skipped.equals(lastSkipped)) {
            return;
        }
        skipped.forEach((name, problem) -> {
            if (!problem.equals(lastSkipped.get(name))) {
                LOG.warn("skipping ARPAdvertisement {}: {}", name.isEmpty() ? "(without a name)" : name, problem);
                if (!name.isEmpty()) {
                    timer.execute(() -> reporter.eventOnAdvertisement(name, "Warning",
                            JuneauConstants.EVENT_INVALID_ADVERTISEMENT, "node " + options.node()
                                    + " does not answer ARP for this advertisement: " + problem));
                }
            }
        });
        lastSkipped = Map.copyOf(skipped);
    }

    private void conflict(Claim claim, InterfaceInfo iface, MacAddress other) {
        long now = System.nanoTime();
        Long last = lastConflictEvent.get(claim.vip());
        if (last != null && now - last < Duration.ofMinutes(1).toNanos()) {
            return; // one Warning a minute per VIP: a flapping peer must not flood the Events API
        }
        lastConflictEvent.put(claim.vip(), now);
        LOG.warn("ARP conflict: {} owned by this node ({} on {}) is also claimed by {}", claim.vipText(), iface.mac(),
                iface.name(), other);
        if (claim.hasService()) {
            timer.execute(() -> reporter.event(claim.serviceNamespace(), claim.serviceName(), "Warning",
                    JuneauConstants.EVENT_ARP_CONFLICT, "ARP for " + claim.vipText() + " answered by " + other
                            + " too; " + options.node() + " answers via " + iface.name() + " with " + iface.mac()
                            + ". Another host uses this address: remove it there or from the AddressPool"));
        }
    }

    /**
     * SIGTERM: stop answering ARP and withdraw every BGP route first, then release the Lease so the controller moves
     * the VIPs at once.
     */
    @Override
    public void close() {
        stopping = true;
        runtime.close();
        speaker.close();
        LOG.info("stopped answering ARP (shutdown)");
        bgpThread.shutdown();
        try {
            bgpThread.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        bgp.close(); // withdraws every route and waits for BIRD to send the withdrawals, then stops it
        lease.close();
        informer.stop();
        sources.close();
        if (ops != null) {
            ops.close();
        }
        timer.shutdownNow();
    }
}
