package me.loutres.juneau.agent;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import me.loutres.juneau.agent.arp.ArpDriver;
import me.loutres.juneau.agent.arp.ProbeSchedule;
import me.loutres.juneau.agent.arp.Speaker;
import me.loutres.juneau.agent.ndp.NdpDriver;
import me.loutres.juneau.agent.ndp.NdpSpeaker;
import me.loutres.juneau.agent.own.Ownership;
import me.loutres.juneau.agent.bgp.BgpDriver;
import me.loutres.juneau.agent.bgp.BgpLoop;
import me.loutres.juneau.agent.kube.AdvertisementWatch;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.agent.kube.NodeSources;
import me.loutres.juneau.agent.kube.Reporter;
import me.loutres.juneau.agent.kube.SessionWriter;
import me.loutres.juneau.agent.kube.WriteRefusals;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.net.PacketSocket;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.plan.ArpPlanner;
import me.loutres.juneau.agent.plan.NodePlan;
import me.loutres.juneau.agent.plan.NodePlanner;
import me.loutres.juneau.agent.plan.NodeView;
import me.loutres.juneau.agent.plan.TurnRhythm;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.runtime.ControllerRuntime;
import me.loutres.juneau.runtime.MicrometerRuntimeMetrics;
import me.loutres.juneau.runtime.Registration;
import me.loutres.juneau.runtime.Result;
import me.loutres.juneau.runtime.Term;
import me.loutres.juneau.runtime.WorkQueue;
import me.loutres.juneau.runtime.ops.OpsServer;
import me.loutres.juneau.runtime.watch.ApiConnection;
import me.loutres.juneau.runtime.watch.WatchedCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent (README.md, "How a VIP answers"; docs/bgp.md), as wiring: the sources (the {@link AdvertisementWatch}
 * and {@link NodeSources}, kinds of one runtime {@link WatchedCache}) give the node's view, the planners ({@link NodePlanner}, {@link ArpPlanner}) say what the
 * node must do, the {@link ArpDriver} and the {@link BgpLoop} carry it out, and the {@link LeaseKeeper} keeps the
 * liveness Lease. It runs on the controller's runtime ({@link ControllerRuntime} without leader election: every
 * node's agent works): one key, the node, one worker, so the whole node is reconciled at a time, level-based
 * (everything is recomputed from the caches, so a missed event or a failed write is repaired by the next turn: a
 * second later while the node has work, {@link TurnRhythm}). All time is read from the injected {@link Clock}. What
 * the node answers lives in memory only: during an API server outage it answers what it last knew; a dead agent leaves
 * nothing configured.
 */
public final class NodeAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** After the first full turn: start-up is over, the first lists are in. */
    private static final Duration SETTLED = Duration.ofSeconds(10);
    /** Objects per page of the watches' lists: a page of ServiceLoadBalancers decoded is about 1 MiB of heap. */
    static final long LIST_LIMIT = 250;

    private final AgentOptions options;
    private final Clock clock;
    private final Supplier<List<InterfaceInfo>> interfaces;
    private final AgentMetrics metrics = new AgentMetrics();
    private final ScheduledExecutorService timer;
    private final ArpDriver arp;
    private final NdpDriver ndp;
    private final LeaseKeeper lease;
    private final WatchedCache watches;
    private final AdvertisementWatch advertisements;
    private final NodeSources sources;
    private final BgpLoop bgp;
    private final ControllerRuntime runtime;
    private final WorkQueue<String> queue;
    private final OpsServer ops;
    /** When the first change not yet reconciled was learned (the takeover metric), or null. */
    private volatile Instant pendingSince;
    private volatile boolean stopping;
    private volatile boolean firstListDone;
    private volatile long heartbeatMillis;
    private volatile boolean catchingUp;

    private NodeAgent(KubernetesClient client, AgentOptions options, BgpOptions bgpOptions, Clock clock,
            PacketSocket sockets, Supplier<List<InterfaceInfo>> interfaces) throws IOException {
        this.options = options;
        this.clock = clock;
        this.interfaces = interfaces;
        this.heartbeatMillis = clock.millis();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "juneau-agent-garp"); // the later gratuitous ARP rounds, and Events
            t.setDaemon(true);
            return t;
        });
        WriteRefusals refusals = new WriteRefusals(metrics);
        Reporter reporter = new Reporter(client, options.node(), clock, refusals);
        this.arp = new ArpDriver(sockets, options.announce(), ProbeSchedule.DEFAULT, timer, metrics, reporter,
                options.node(), MAX_BACKOFF, clock, this::kick);
        this.ndp = new NdpDriver(sockets, options.announce(), timer, metrics, reporter, options.node(), MAX_BACKOFF,
                clock);
        ApiConnection api = new ApiConnection(() -> "answering ARP for " + arp.answering().size()
                + " VIP(s) from memory meanwhile");
        // no monitor thread: the one reconcile loop looks at the watches each turn (at least every 10 s, more
        // often while events arrive, so "four looks without a watch" is no duration here). The Lease, renewed every
        // second, and the lists tell of an outage; a watch fabric8 is reconnecting is not one (it was a false
        // second line after a restarted API server in ApiServerOutageMockTest)
        // lists in pages (issue 38): one list of every ServiceLoadBalancer at once was decoded whole before the store
        // kept its few, and 10,000 of them were an OutOfMemoryError in the 48 MiB heap even with nothing kept
        this.watches = new WatchedCache("agent watches", api,
                WatchedCache.Policy.DEFAULT.withListLimit(LIST_LIMIT).checkingEvery(Duration.ZERO).withClock(clock)
                        .outagesFromOtherPaths());
        this.lease = new LeaseKeeper(client, options.namespace(), options.node(), options.holder(), options.lease(),
                metrics, this::paused, api, clock);
        lease.reportRefusals(refusals::annotation);
        this.advertisements = new AdvertisementWatch(client, watches, options.node(), metrics, reporter, timer, clock,
                this::kick);
        this.sources = new NodeSources(client, watches, options.node(), options.namespace(), bgpOptions.routerId(),
                clock, metrics, this::kick);
        this.bgp = new BgpLoop(new BgpDriver(bgpOptions.settings(), metrics, clock,
                () -> me.loutres.juneau.agent.bgp.NodeReach.read(interfaces.get())),
                new SessionWriter(client, options.node(), reporter, clock), sources, this::kick);
        this.runtime = new ControllerRuntime("juneau-agent", new MicrometerRuntimeMetrics(metrics.registry()));
        this.queue = runtime.register(Registration.<String>of("node", "node", this::reconcileNode)
                .withBackoff(Duration.ofMillis(200), MAX_BACKOFF));
        this.ops = options.metricsPort() < 0 ? null
                : new OpsServer(options.metricsBind(), options.metricsPort(), this::healthProblem,
                        this::readinessProblem, metrics::scrape);
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
        agent.watches.start();
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
        return arp.answering();
    }

    /** The IPv6 VIPs answered by NDP now, with the interface and MAC (for tests and the demo). */
    public Map<me.loutres.juneau.ip.IpAddress, NdpSpeaker.Binding> answeringIpv6() {
        return ndp.answering();
    }

    /** BIRD's pid, or -1 when none runs (tests). */
    public long birdPid() {
        return bgp.birdPid();
    }

    /** Null when the agent is healthy, else what is stuck ({@link AgentHealth}). */
    public String healthProblem() {
        return new AgentHealth(arp.failure() != null ? arp.failure() : ndp.failure(), runtime.failed() ? String.valueOf(runtime.failure()) : null,
                !stopping && watches.stopped().contains("ARPAdvertisement"), clock.millis(), advertisements.notWatchingSince(),
                lease.renewedMillis(), heartbeatMillis, lease.heartbeatMillis(), options.stuckAfter(),
                options.lease().idleInterval()).problem();
    }

    /** Null when ready: the first list is done and every socket the owned VIPs need is open. */
    public String readinessProblem() {
        if (!firstListDone) {
            return "first list of ARPAdvertisements not done yet";
        }
        if (!arp.socketsOk() || !ndp.socketsOk()) {
            return "a packet socket could not be opened (see the ARPAdvertisement status, reason "
                    + JuneauConstants.REASON_SOCKET_ERROR + ")";
        }
        return healthProblem();
    }

    private void kick() {
        if (pendingSince == null) {
            pendingSince = clock.instant();
        }
        queue.add(options.node());
    }

    /** The Lease loop saw the process frozen longer than its Lease: silent until a fresh list. */
    private void paused() {
        arp.suspend();
        ndp.suspend();
        bgp.afterPause(); // the controller may have written our sessions Unknown meanwhile
        catchingUp = true;
        kick();
    }

    /** The runtime's reconcile of the one key; it looks again after {@link TurnRhythm} (interfaces, retries, BIRD). */
    private Result reconcileNode(String node, Term term) {
        heartbeatMillis = clock.millis();
        if (stopping) {
            return Result.DONE;
        }
        watches.check();
        // the networks say where to answer (spec.arp.interfaces): no answer before they are known
        if (!watches.synced()) {
            return Result.after(Duration.ofMillis(200));
        }
        if (advertisements.replacedAfterOutage()) {
            return Result.after(Duration.ofMillis(200)); // nothing changes until the fresh list is in
        }
        Instant since = pendingSince;
        pendingSince = null;
        return Result.after(reconcile(since == null ? clock.instant() : since));
    }

    /** One turn: the view, the plan, and each driver carries out its half; returns when to look again. */
    private Duration reconcile(Instant learned) {
        List<GenericKubernetesResource> raw;
        boolean resuming = false;
        if (catchingUp) {
            try {
                raw = advertisements.listFromServer();
            } catch (KubernetesClientException e) {
                // still paused: answering from a cache older than our Lease could split the brain
                return TurnRhythm.BUSY;
            }
            catchingUp = !advertisements.matchesCache(raw);
            resuming = arp.suspended();
        } else {
            raw = advertisements.cached();
        }
        List<ARPAdvertisement> list = advertisements.readAll(raw);
        if (!firstListDone) {
            firstListDone = true;
            LOG.info("first list done: {} ARPAdvertisement(s) labelled for node {}", list.size(), options.node());
            // start-up (classes, TLS, the first lists) promoted garbage that grew the old generation, and the serial
            // collector gives heap back only after a full collection: one, once settled, returns it down to -Xms
            // (AgentJvm; BENCHMARKS.md, "Node agent: what one node pays")
            timer.schedule(System::gc, SETTLED.toMillis(), TimeUnit.MILLISECONDS);
        }
        NodeView view = sources.view(list);
        NodePlan plan = NodePlanner.plan(view);
        bgp.announce(plan); // first: a route change must not wait for ARP sockets or status writes below
        advertisements.reportSkipped(plan.arpInvalid());
        List<InterfaceInfo> links = interfaces.get();
        // IPv6 VIPs: the same advertisements, answered by NDP on the interface the same rule picks (docs/ndp.md);
        // on the wire first, reported after the ARP half, so neither family's frames wait on the other's API writes
        NdpDriver.Turn ipv6 = ndp.answer(ArpPlanner.planIpv6(Ownership.ipv6(view.node(), view.advertisements()), view,
                links, options.interfaces()), learned, resuming);
        boolean owning = arp.apply(ArpPlanner.plan(plan.arpOwned(), view, links, options.interfaces()),
                list, plan.arpInvalid(), learned, resuming);
        owning |= ndp.report(ipv6, list);
        lease.owning(owning);
        return catchingUp ? TurnRhythm.BUSY
                : TurnRhythm.next(raw.size(), owning, plan, bgp.birdRunning());
    }

    /**
     * SIGTERM: stop answering ARP and withdraw every BGP route first, then release the Lease so the controller moves
     * the VIPs at once.
     */
    @Override
    public void close() {
        stopping = true;
        runtime.close();
        arp.close();
        ndp.close();
        bgp.close(); // withdraws every route and waits for BIRD to send the withdrawals, then stops it
        lease.close();
        watches.close();
        if (ops != null) {
            ops.close();
        }
        timer.shutdownNow();
    }
}
