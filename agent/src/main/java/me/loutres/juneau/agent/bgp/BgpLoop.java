package me.loutres.juneau.agent.bgp;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import me.loutres.juneau.agent.kube.NodeSources;
import me.loutres.juneau.agent.kube.SessionWriter;
import me.loutres.juneau.agent.plan.NodePlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The BGP half's own thread (docs/bgp.md): BIRD and the BGPSession writes must never slow the ARP loop down. It
 * carries out the latest plan handed to it (plans that arrive while it works are coalesced): the {@link BgpDriver}
 * makes BIRD run it, the {@link SessionWriter} says what BIRD reports.
 */
public final class BgpLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BgpLoop.class);

    private final BgpDriver bgp;
    private final SessionWriter sessions;
    private final NodeSources sources;
    private final Runnable replan;
    private final AtomicReference<NodePlan> nextPlan = new AtomicReference<>();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "juneau-agent-bgp");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean stopping;
    /** Read by the ARP loop without waiting for the driver, which may be busy with BIRD for a while. */
    private volatile boolean birdRunning;
    private List<String> lastPlanProblems = List.of();
    private String lastFailure;

    /** @param replan asks for a new plan (a Secret a peer names appeared or changed) */
    public BgpLoop(BgpDriver bgp, SessionWriter sessions, NodeSources sources, Runnable replan) {
        this.bgp = bgp;
        this.sessions = sessions;
        this.sources = sources;
        this.replan = replan;
    }

    /** Hands the plan over; returns at once. */
    public void announce(NodePlan plan) {
        if (nextPlan.getAndSet(plan) == null && !stopping) {
            thread.execute(this::announceLatest);
        }
    }

    private void announceLatest() {
        NodePlan plan = nextPlan.getAndSet(null);
        if (plan == null || stopping) {
            return;
        }
        try {
            if (!plan.problems().equals(lastPlanProblems)) {
                List<String> before = lastPlanProblems;
                plan.problems().stream().filter(p -> !before.contains(p)).forEach(p -> LOG.warn("BGP: {}", p));
                lastPlanProblems = plan.problems();
            }
            List<SessionReport> reports = bgp.apply(plan);
            birdRunning = bgp.birdPid() >= 0;
            // after BIRD has the plan: reading a Secret is a call to the API server, which a route must not wait for
            if (sources.refreshSecrets()) {
                replan.run(); // a password appeared or changed: plan again with it
            }
            sessions.write(plan.sessions(), reports, sources.unknownPeers());
            lastFailure = null;
        } catch (RuntimeException e) {
            // the next turn tries again, and fails the same way until something changes: said once, not every turn
            if (!e.toString().equals(lastFailure)) {
                LOG.warn("BGP turn failed (retried on the next one): {}", e.toString());
            } else {
                LOG.debug("BGP turn failed again: {}", e.toString());
            }
            lastFailure = e.toString();
        }
    }

    /** After a pause longer than the Lease: the sessions are written afresh on the next turn (on the BGP thread). */
    public void afterPause() {
        if (!stopping) {
            try {
                thread.execute(sessions::forgetWritten);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // stopping meanwhile
            }
        }
    }

    /** Whether BIRD ran after the last plan carried out (its sessions are polled each turn); never waits. */
    public boolean birdRunning() {
        return birdRunning;
    }

    /** BIRD's pid, or -1 when none runs. */
    public long birdPid() {
        return bgp.birdPid();
    }

    /**
     * Lets the turn under way finish, then withdraws every route and waits for BIRD to send that, and stops it; then
     * marks this node's BGPSessions stopped (at most {@link #MARK_WAIT}: an API server that does not answer must not
     * hold the shutdown, the Lease then tells the controller).
     */
    @Override
    public void close() {
        stopping = true;
        thread.shutdown();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        bgp.close();
        java.util.concurrent.ExecutorService marker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "juneau-agent-bgp-stop");
            t.setDaemon(true);
            return t;
        });
        try {
            // the BGP thread is done: only the marker uses the writer now
            List<String> marked = marker.submit(sessions::markStopped).get(MARK_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (!marked.isEmpty()) {
                LOG.info("BGPSessions marked stopped: {}", marked);
            }
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            LOG.warn("BGPSessions not all marked stopped within {} ms: {}", MARK_WAIT.toMillis(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            marker.shutdownNow();
        }
    }

    private static final java.time.Duration MARK_WAIT = java.time.Duration.ofSeconds(3);
}
