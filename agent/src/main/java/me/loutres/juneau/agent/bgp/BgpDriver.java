package me.loutres.juneau.agent.bgp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.plan.NodePlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the BGP half of a {@link NodePlan}: BIRD runs exactly the plan's configuration, and reports what BIRD
 * says about each session. Thin: every decision is the planner's, or {@link RefusalLocator}'s and {@link Refusals}' for
 * a piece BIRD refuses (left out, the rest applied at once, tried again with backoff: docs/bgp.md,
 * "Troubleshooting"); BIRD is started only when the node has BGP work (an ARP-only node never needs BIRD installed).
 */
public final class BgpDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BgpDriver.class);
    private static final Set<String> STATES = Set.of("Idle", "Connect", "Active", "OpenSent", "OpenConfirm",
            "Established");
    private static final Duration RETRY_CAP = Duration.ofSeconds(30);
    private static final Duration WITHDRAW_WAIT = Duration.ofSeconds(3);

    /**
     * Where BIRD is and runs.
     *
     * @param bird   the bird binary ({@code --bird})
     * @param dir    its configuration and control socket ({@code --bird-dir})
     * @param prefix a command BIRD runs under (tests); empty in the agent
     */
    public record Settings(Path bird, Path dir, List<String> prefix) {
    }

    private final Settings settings;
    private final AgentMetrics metrics;
    private final Clock clock;
    private final Function<BirdConfig, String> renderer;
    private final Refusals refusals = new Refusals();
    private BirdDaemon daemon;
    /** Why BIRD does not run the plan's configuration (a refusal no single piece explains, a start error), or null. */
    private String refused;
    private String refusedText;
    private long retryAtMillis;
    private long retryDelayMillis;
    private String lastText;
    private BirdConfig lastConfig;
    /** Since when (clock millis) each peer's session has not been Established, for {@link SilentSessions}. */
    private final Map<String, Long> downSince = new java.util.HashMap<>();
    private final LastErrors lastErrors = new LastErrors();
    private final java.util.function.Supplier<NodeReach> reach;

    public BgpDriver(Settings settings, AgentMetrics metrics, Clock clock) {
        this(settings, metrics, clock, BirdConfigRenderer::render, NodeReach::unknown);
    }

    /** @param renderer BIRD's text for a configuration: {@link BirdConfigRenderer#render}, or a test's double of it */
    public BgpDriver(Settings settings, AgentMetrics metrics, Clock clock, Function<BirdConfig, String> renderer) {
        this(settings, metrics, clock, renderer, NodeReach::unknown);
    }

    /** @param reach the node's interfaces and routes, read when a silent session needs explaining */
    public BgpDriver(Settings settings, AgentMetrics metrics, Clock clock, java.util.function.Supplier<NodeReach> reach) {
        this(settings, metrics, clock, BirdConfigRenderer::render, reach);
    }

    private BgpDriver(Settings settings, AgentMetrics metrics, Clock clock, Function<BirdConfig, String> renderer,
            java.util.function.Supplier<NodeReach> reach) {
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock;
        this.renderer = renderer;
        this.reach = reach;
    }

    /** Makes BIRD run the plan's configuration; returns one report per session of the plan. */
    public synchronized List<SessionReport> apply(NodePlan plan) {
        String problem = plan.birdProblem();
        if (problem == null && (plan.needsBird() || daemon != null)) {
            problem = run(plan.bird());
        }
        metrics.bgpRefused(refusals.pieces());
        return reports(plan, problem);
    }

    /**
     * Null when BIRD runs the configuration, less the pieces it refused; else why not (not installed, refused as a
     * whole, not answering). A refused piece is left out and the rest applied at once (docs/bgp.md,
     * "Troubleshooting"): one peer or network BIRD cannot take never stops the others.
     */
    private String run(BirdConfig full) {
        long now = clock.millis();
        BirdConfig config = refusals.apply(full, now);
        int most = full.neighbors().size() + full.networks().size();
        for (int pieces = most; pieces >= 0; pieces--) {
            String text = renderer.apply(config);
            if (daemon != null && text.equals(lastText)) {
                return runs(); // BIRD already runs it (say, the plan went back to it after a refusal)
            }
            if (pieces == most && refused != null && now < retryAtMillis && (text.equals(refusedText)
                    || now < retryAtMillis - retryDelayMillis + Refusals.FIRST_RETRY.toMillis())) {
                return refused; // at most one attempt a second; the same refused text only after its backoff
            }
            String error = attempt(config, text);
            if (error != null) {
                metrics.bgpConfigurationRefused();
            }
            if (error == null) {
                refusals.accepted(config);
                return runs();
            }
            RefusedPiece piece = blame(config, text, error);
            if (piece == null) {
                if (!Objects.equals(RefusalLocator.withoutPlace(error),
                        RefusalLocator.withoutPlace(refused))) {
                    LOG.warn("BGP: {}", error);
                }
                refused = error;
                refusedText = text;
                retryDelayMillis = retryDelayMillis == 0 ? Refusals.FIRST_RETRY.toMillis()
                        : Math.min(retryDelayMillis * 2, RETRY_CAP.toMillis());
                retryAtMillis = now + retryDelayMillis;
                return refused;
            }
            if (refusals.refused(piece, full, now)) {
                LOG.warn("BGP: {}; the rest is applied without it", piece.describe());
            }
            config = piece.dropFrom(config);
        }
        return refused;
    }

    /** BIRD runs the plan's configuration (less its refused pieces): nothing is refused as a whole any more. */
    private String runs() {
        if (refused != null) {
            LOG.info("BGP: BIRD runs the plan's configuration again");
        }
        refused = null;
        retryDelayMillis = 0;
        return null;
    }

    /** Starts BIRD with {@code text}, or has the running one take it: null, or BIRD's words for why not. */
    private String attempt(BirdConfig config, String text) {
        if (daemon == null) {
            try {
                daemon = BirdDaemon.start(settings.prefix(), settings.bird(), settings.dir(), text,
                        status -> metrics.bgpDaemonRestarted());
                LOG.info("BIRD started ({}): {} session(s)", settings.bird(), config.neighbors().size());
            } catch (IOException e) {
                return e.getMessage();
            }
        } else {
            BirdDaemon.Applied applied = daemon.apply(text);
            if (!applied.ok()) {
                return applied.error();
            }
            metrics.bgpReconfigured(applied.took());
        }
        lastText = text;
        lastConfig = config;
        return null;
    }

    /**
     * The piece BIRD refused: where its words point, or, when they point nowhere but the text really does not parse,
     * the one piece without which it does. Null for a refusal of the whole (or BIRD not there, not answering).
     */
    private RefusedPiece blame(BirdConfig config, String text, String error) {
        RefusedPiece piece = RefusalLocator.locate(config, text, error);
        if (piece != null || !Files.isExecutable(settings.bird())) {
            return piece;
        }
        BirdParse parse = new BirdParse(settings.bird(), settings.dir());
        String words = parse.check(text);
        if (words == null) {
            return null; // BIRD parses it: not the text's fault (a socket, a port, BIRD itself)
        }
        RefusedPiece located = RefusalLocator.locate(config, text, words);
        return located != null ? located : RefusalLocator.search(config, error, renderer, parse::check);
    }

    private List<SessionReport> reports(NodePlan plan, String problem) {
        String notRunning = problem; // why BIRD does not run the plan (a failed status query below is not that)
        Map<String, BirdStatus.Session> sessions = Map.of();
        Map<String, String> bfd = Map.of();
        if (daemon != null) {
            try {
                sessions = BirdStatus.sessions(daemon.command("show protocols all"));
                if (plan.sessions().stream().anyMatch(NodePlan.SessionPlan::bfd)) {
                    bfd = BirdStatus.bfd(daemon.command("show bfd sessions"));
                }
            } catch (IOException e) {
                problem = problem != null ? problem : "BIRD is not answering: " + e.getMessage();
            }
        }
        List<SessionReport> out = new ArrayList<>();
        Map<String, Neighbor> neighbors = new java.util.HashMap<>();
        plan.bird().neighbors().forEach(n -> neighbors.put(n.peer(), n));
        long now = clock.millis();
        downSince.keySet().retainAll(neighbors.keySet());
        lastErrors.retain(neighbors.keySet());
        for (NodePlan.SessionPlan s : plan.sessions()) {
            BirdStatus.Session b = sessions.get(BirdSymbols.peer(s.peer()));
            RefusedPiece refusedPeer = refusals.peer(s.peer());
            String error = s.problem() != null ? s.problem() : refusedPeer != null ? refusedPeer.describe() : problem;
            Map<String, String> withheld = withheld(neighbors.get(s.peer()), notRunning);
            if (b == null || refusedPeer != null) {
                out.add(new SessionReport(s.peer(), "Idle", null, 0, error != null ? error
                        : "not configured in BIRD yet", withheld, List.of()));
                continue;
            }
            String state = STATES.contains(b.state()) ? b.state() : "Idle";
            String bfdState = s.bfd() ? bfd.getOrDefault(s.address(), "Down") : null;
            if (b.established()) {
                downSince.remove(s.peer());
            } else {
                downSince.putIfAbsent(s.peer(), now);
            }
            Duration down = Duration.ofMillis(now - downSince.getOrDefault(s.peer(), now));
            out.add(new SessionReport(s.peer(), state, bfdState, b.established() ? b.exported() : 0,
                    error != null ? error : lastErrors.of(s.peer(), b, neighbors.get(s.peer()), down, reach),
                    withheld, carried(plan, neighbors.get(s.peer()), withheld)));
        }
        metrics.bgpSessions(out);
        return out;
    }

    /**
     * The addresses the routes a session sends cover (docs/bgp.md, "Status"): the networks of its neighbour that BIRD
     * carries, from the plan BIRD runs (the one applied; every network is withheld while BIRD runs an earlier one).
     */
    private static List<String> carried(NodePlan plan, Neighbor neighbor, Map<String, String> withheld) {
        if (neighbor == null) {
            return List.of();
        }
        List<me.loutres.juneau.ip.AddressRange> ranges = new ArrayList<>();
        for (NetworkRoutes n : plan.bird().networks()) {
            if (neighbor.networks().contains(n.network()) && !withheld.containsKey(n.network())) {
                for (Prefix p : n.prefixes()) {
                    long size = 1L << (32 - p.length());
                    ranges.add(new me.loutres.juneau.ip.AddressRange(p.address(), p.address() + size - 1));
                }
            }
        }
        return me.loutres.juneau.bgp.CarriedAddresses.of(ranges);
    }

    /**
     * The networks a session should send and BIRD does not carry, with why: those BIRD refused, or every one while
     * BIRD runs an earlier configuration than the plan's ({@code problem}), whose routes may be stale.
     */
    private Map<String, String> withheld(Neighbor neighbor, String problem) {
        Map<String, String> out = new TreeMap<>();
        if (neighbor == null) {
            return out;
        }
        for (String network : neighbor.networks()) {
            RefusedPiece piece = refusals.network(network);
            if (piece != null) {
                out.put(network, piece.describe());
            } else if (problem != null && daemon != null) {
                out.put(network, "this node's BIRD still runs an earlier configuration: " + problem);
            }
        }
        return out;
    }

    /**
     * SIGTERM (docs/bgp.md): withdraw every route and wait until BIRD has sent the withdrawals (no route exported to
     * any session, at most a few seconds), then stop BIRD.
     */
    @Override
    public synchronized void close() {
        if (daemon == null) {
            return;
        }
        if (lastConfig != null) {
            BirdDaemon.Applied a = daemon.apply(BirdConfigRenderer.render(lastConfig.withoutRoutes()));
            if (a.ok()) {
                long deadline = System.nanoTime() + WITHDRAW_WAIT.toNanos();
                while (System.nanoTime() < deadline && !withdrawn()) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                LOG.info("BGP: routes withdrawn (shutdown)");
            }
        }
        daemon.close();
        daemon = null;
        LOG.info("BIRD stopped");
    }

    private boolean withdrawn() {
        try {
            return BirdStatus.sessions(daemon.command("show protocols all")).values().stream()
                    .allMatch(s -> s.exported() == 0);
        } catch (IOException e) {
            return true; // nothing left to ask
        }
    }

    /** BIRD's pid, or -1 (tests). */
    public synchronized long birdPid() {
        return daemon == null ? -1 : daemon.pid();
    }
}
