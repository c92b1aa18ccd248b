package me.loutres.juneau.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.reconcile.KubeWriter;
import me.loutres.juneau.runtime.Term;
import me.loutres.juneau.runtime.LostLeadershipException;
import me.loutres.juneau.plan.SessionLiveness;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the BGPSessions of a node dead by its agent's Lease as {@code Unknown} (docs/bgp.md, "When an agent dies"):
 * the agent that wrote them no longer speaks, and {@code kubectl get bgpsessions} must not go on saying
 * {@code Established} for a node whose BIRD died with it (issue 41). Thin: the status is {@link SessionLiveness}'s;
 * each write carries the cached resourceVersion, so a session its agent rewrote meanwhile (it came back) is left as
 * the agent says (a 409). Each write goes through {@link KubeWriter}, fenced by the leadership term, as every write of
 * the controller: a deposed leader marks nothing. Runs on its own thread: a Lease event must not wait on API calls.
 */
final class DeadNodeSessions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeadNodeSessions.class);

    private final KubernetesClient client;
    private final KubeWriter writer;
    private final Supplier<Term> term;
    private final ClusterCache cache;
    private final Clock clock;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "juneau-dead-node-sessions");
        t.setDaemon(true);
        return t;
    });

    /** @param term the current leadership term, null when this controller does not lead */
    DeadNodeSessions(KubernetesClient client, KubeWriter writer, Supplier<Term> term, ClusterCache cache, Clock clock) {
        this.client = client;
        this.writer = writer;
        this.term = term;
        this.cache = cache;
        this.clock = clock;
    }

    /** The node just became dead, {@code why} in NodeLiveness' words; returns at once. */
    void dead(String node, String why) {
        try {
            thread.execute(() -> mark(node, why));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing
        }
    }

    private void mark(String node, String why) {
        Term t = term.get();
        if (t == null || !t.active()) {
            return; // only the leader speaks for dead nodes; the next leader judges the Lease itself
        }
        for (BGPSession s : cache.bgpSessionsOf(node)) {
            BGPSessionStatus was = s.getStatus();
            if (was != null && SessionLiveness.UNKNOWN.equals(was.getState())) {
                continue;
            }
            BGPSession copy = client.getKubernetesSerialization().clone(s);
            copy.setStatus(SessionLiveness.unknown(was, node, why, clock.instant()));
            try {
                writer.deadNodeSessionStatus(t, copy);
                LOG.info("BGPSession {} marked {}: node {} is dead ({})", s.getMetadata().getName(),
                        SessionLiveness.UNKNOWN, node, why);
            } catch (LostLeadershipException e) {
                return; // deposed mid-way: the rest is the next leader's
            } catch (KubernetesClientException e) {
                LOG.warn("BGPSession {} of dead node {} not marked {} (HTTP {}): {}", s.getMetadata().getName(), node,
                        SessionLiveness.UNKNOWN, e.getCode(), e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
