package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.agent.bgp.SessionReport;
import me.loutres.juneau.agent.bgp.SessionStatuses;
import me.loutres.juneau.agent.plan.NodePlan;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.BGPSessionSpec;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes this node's BGPSessions (docs/api-reference.md, BGPSession): one per peer that applies to the node, created
 * with its labels and an ownerReference to the BGPPeer, its status written when it changes and at most once a second
 * per session; Events {@code BGPSessionUp} / {@code BGPSessionDown} on the BGPPeer when the session comes up or goes.
 */
public final class SessionWriter {
    private static final Logger LOG = LoggerFactory.getLogger(SessionWriter.class);
    public static final String EVENT_SESSION_UP = "BGPSessionUp";
    public static final String EVENT_SESSION_DOWN = "BGPSessionDown";
    private static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

    private final KubernetesClient client;
    private final String node;
    private final Reporter reporter;
    private final Clock clock;
    private final Map<String, Long> lastWrite = new HashMap<>();
    private final Map<String, BGPSessionStatus> written = new HashMap<>();
    private final Map<String, Boolean> wasEstablished = new HashMap<>();
    private final Map<String, String> lastErrorEvent = new HashMap<>();

    public SessionWriter(KubernetesClient client, String node, Reporter reporter, Clock clock) {
        this.client = client;
        this.node = node;
        this.reporter = reporter;
        this.clock = clock;
    }

    public void write(List<NodePlan.SessionPlan> plans, List<SessionReport> reports) {
        Map<String, SessionReport> byPeer = new HashMap<>();
        reports.forEach(r -> byPeer.put(r.peer(), r));
        for (NodePlan.SessionPlan plan : plans) {
            SessionReport r = byPeer.get(plan.peer());
            if (r != null) {
                events(plan, r);
                write(plan, r);
            }
        }
    }

    private void events(NodePlan.SessionPlan plan, SessionReport r) {
        Boolean before = wasEstablished.put(plan.peer(), r.established());
        if (before != null && before != r.established()) {
            reporter.eventOnClusterObject(JuneauConstants.KIND_BGP_PEER, plan.peer(),
                    r.established() ? "Normal" : "Warning", r.established() ? EVENT_SESSION_UP : EVENT_SESSION_DOWN,
                    "BGP session from node " + node + " " + (r.established() ? "Established" : "down: " + r.state()
                            + (r.lastError() == null ? "" : " (" + r.lastError() + ")")));
        }
        String error = r.lastError();
        if (error != null && !r.established() && !error.equals(lastErrorEvent.get(plan.peer()))
                && (plan.problem() != null || error.startsWith("BIRD"))) {
            // a configuration problem of ours (not BIRD's words about the wire): one Warning per distinct problem
            reporter.eventOnClusterObject(JuneauConstants.KIND_BGP_PEER, plan.peer(), "Warning", EVENT_SESSION_DOWN,
                    "node " + node + " cannot keep this session: " + error);
        }
        lastErrorEvent.put(plan.peer(), error);
    }

    private void write(NodePlan.SessionPlan plan, SessionReport r) {
        String name = JuneauConstants.bgpSessionName(plan.peer(), node);
        long now = clock.millis();
        Long last = lastWrite.get(name);
        if (last != null && now - last < MIN_INTERVAL.toMillis()) {
            return;
        }
        BGPSessionStatus mine = written.get(name);
        if (mine != null && SessionStatuses.same(SessionStatuses.wanted(r, mine, plan.generation(), clock.instant()),
                mine)) {
            return; // what we wrote last is still true: no call to the API server
        }
        try {
            BGPSession current = client.resources(BGPSession.class).withName(name).get();
            if (current == null) {
                current = client.resources(BGPSession.class).resource(fresh(plan, name)).create();
            }
            BGPSessionStatus wanted = SessionStatuses.wanted(r, current.getStatus(), plan.generation(),
                    clock.instant());
            if (SessionStatuses.same(wanted, current.getStatus())) {
                written.put(name, wanted);
                return;
            }
            current.setStatus(wanted);
            client.resources(BGPSession.class).resource(current).updateStatus();
            lastWrite.put(name, now);
            written.put(name, wanted);
        } catch (KubernetesClientException e) {
            LOG.debug("BGPSession {} not written: {}", name, e.getMessage());
            lastWrite.put(name, now); // tried: the next turn a second later tries again
        }
    }

    private BGPSession fresh(NodePlan.SessionPlan plan, String name) {
        BGPSession s = new BGPSession();
        s.setMetadata(new ObjectMetaBuilder().withName(name)
                .withLabels(Map.of(JuneauConstants.LABEL_PEER, plan.peer(), JuneauConstants.LABEL_NODE, node))
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(JuneauConstants.API_VERSION)
                        .withKind(JuneauConstants.KIND_BGP_PEER).withName(plan.peer()).withUid(plan.peerUid())
                        .withBlockOwnerDeletion(false).build())
                .build());
        BGPSessionSpec spec = new BGPSessionSpec();
        spec.setPeer(plan.peer());
        spec.setNodeName(node);
        s.setSpec(spec);
        return s;
    }

}
