package me.loutres.juneau.agent.bgp;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.plan.NodePlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the BGP half of a {@link NodePlan}: BIRD runs exactly the plan's configuration, and reports what BIRD
 * says about each session. Thin: every decision is the planner's; BIRD is started only when the node has BGP work (an
 * ARP-only node never needs BIRD installed).
 */
public final class BgpDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BgpDriver.class);
    private static final Set<String> STATES = Set.of("Idle", "Connect", "Active", "OpenSent", "OpenConfirm",
            "Established");
    private static final Duration START_RETRY = Duration.ofSeconds(10);
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
    private BirdDaemon daemon;
    private String startError;
    private long nextStartMillis;
    private String refused;
    private String lastText;
    private BirdConfig lastConfig;
    /** Since when (clock millis) each peer's session has not been Established, for {@link SilentSessions}. */
    private final Map<String, Long> downSince = new java.util.HashMap<>();
    private final LastErrors lastErrors = new LastErrors();
    private final java.util.function.Supplier<NodeReach> reach;

    public BgpDriver(Settings settings, AgentMetrics metrics, Clock clock) {
        this(settings, metrics, clock, NodeReach::unknown);
    }

    /** @param reach the node's interfaces and routes, read when a silent session needs explaining */
    public BgpDriver(Settings settings, AgentMetrics metrics, Clock clock, java.util.function.Supplier<NodeReach> reach) {
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock;
        this.reach = reach;
    }

    /** Makes BIRD run the plan's configuration; returns one report per session of the plan. */
    public synchronized List<SessionReport> apply(NodePlan plan) {
        String problem = plan.birdProblem();
        if (problem == null && (plan.needsBird() || daemon != null)) {
            problem = run(plan.bird());
        }
        return reports(plan, problem);
    }

    /** Null when BIRD runs the configuration; else why not (not installed, refused, not answering). */
    private String run(BirdConfig config) {
        String text = BirdConfigRenderer.render(config);
        if (daemon == null) {
            if (clock.millis() < nextStartMillis) {
                return startError;
            }
            try {
                daemon = BirdDaemon.start(settings.prefix(), settings.bird(), settings.dir(), text,
                        status -> metrics.bgpDaemonRestarted());
                startError = null;
                lastText = text;
                lastConfig = config;
                LOG.info("BIRD started ({}): {} session(s)", settings.bird(), config.neighbors().size());
                return null;
            } catch (IOException e) {
                if (!e.getMessage().equals(startError)) {
                    LOG.warn("BGP: {}", e.getMessage());
                }
                startError = e.getMessage();
                nextStartMillis = clock.millis() + START_RETRY.toMillis();
                return startError;
            }
        }
        if (text.equals(lastText)) {
            return refused;
        }
        BirdDaemon.Applied applied = daemon.apply(text);
        lastText = text;
        if (applied.ok()) {
            metrics.bgpReconfigured(applied.took());
            refused = null;
            lastConfig = config;
        } else {
            LOG.warn("BGP: {}", applied.error());
            refused = applied.error();
            lastText = null; // a BIRD that was only restarting takes it on the next turn
        }
        return refused;
    }

    private List<SessionReport> reports(NodePlan plan, String problem) {
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
            BirdStatus.Session b = sessions.get(BirdConfigRenderer.protocolName(s.peer()));
            String error = s.problem() != null ? s.problem() : problem;
            if (b == null) {
                out.add(new SessionReport(s.peer(), "Idle", null, 0, error != null ? error
                        : "not configured in BIRD yet"));
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
                    error != null ? error : lastErrors.of(s.peer(), b, neighbors.get(s.peer()), down, reach)));
        }
        metrics.bgpSessions(out);
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
