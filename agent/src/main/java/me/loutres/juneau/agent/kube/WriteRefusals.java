package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.plan.RefusedWrites;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's writes the API server refuses (docs/troubleshooting.md): a 403 (RBAC or admission) or a 422 (schema)
 * is no outage and no retry cures it, so it is said, not hidden at DEBUG (issue 41: a refused identity left the agent's
 * BGPSessions unwritten and the ServiceLoadBalancer saying the agent does not run). Each is a WARN once per kind and
 * reason (again after that kind was written successfully), the counter {@code juneau_agent_writes_refused_total{kind,
 * reason}}, and the latest refusal per kind on the agent's Lease ({@link RefusedWrites#ANNOTATION}), which the
 * controller reads into condition Announced. Thread-safe: the BGP thread, the reconcile loop and the Lease loop use it.
 */
public final class WriteRefusals {
    private static final Logger LOG = LoggerFactory.getLogger(WriteRefusals.class);

    private final AgentMetrics metrics;
    private final Set<String> said = ConcurrentHashMap.newKeySet();
    private final Map<String, String> current = new ConcurrentHashMap<>();

    public WriteRefusals(AgentMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Records {@code e} when it is a refusal.
     *
     * @return whether it was one (403 or 422); anything else is the caller's to handle as before
     */
    public boolean refused(String kind, KubernetesClientException e) {
        if (e.getCode() != 403 && e.getCode() != 422) {
            return false;
        }
        String reason = e.getStatus() != null && e.getStatus().getReason() != null && !e.getStatus().getReason().isBlank()
                ? e.getStatus().getReason() : e.getCode() == 403 ? "Forbidden" : "Invalid";
        String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                : String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        metrics.writeRefused(kind, reason);
        current.put(kind, reason + ": " + message);
        if (said.add(kind + "/" + reason)) {
            LOG.warn("the API server refuses this agent's {} writes ({}): {}; nothing this node does is reported"
                    + " there until it is allowed: check the agent's RBAC (ClusterRole juneau-agent) and the webhook's"
                    + " --agent-username", kind, reason, message);
        }
        return true;
    }

    /** A write of {@code kind} went through: its refusal is over (and would be said again if it came back). */
    public void succeeded(String kind) {
        if (current.remove(kind) != null) {
            said.removeIf(k -> k.startsWith(kind + "/"));
            LOG.info("the API server accepts this agent's {} writes again", kind);
        }
    }

    /** The Lease annotation's value now; null when nothing is refused. */
    public String annotation() {
        return RefusedWrites.format(Map.copyOf(current));
    }
}
