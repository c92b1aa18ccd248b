package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import me.loutres.juneau.agent.bgp.RefusalLocator;
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
 *
 * <p>A BGPSession of this node whose peer no longer applies (the BGPPeer deleted, its {@code nodeSelectors} no longer
 * selecting the node, the node no longer a BGP speaker) is deleted: it would otherwise report a session that does not
 * exist, forever. The ownerReference only covers a deleted peer, and only where a garbage collector runs. Which
 * sessions exist is listed once (by the node's label) and then followed from this writer's own creates and deletes:
 * only this node's agent writes them (docs/admission.md, BGPSession).
 */
public final class SessionWriter {
    private static final Logger LOG = LoggerFactory.getLogger(SessionWriter.class);
    public static final String EVENT_SESSION_UP = "BGPSessionUp";
    public static final String EVENT_SESSION_DOWN = "BGPSessionDown";
    /** On an ExternalNetwork whose routes this node's BIRD refused (docs/bgp.md, "Troubleshooting"). */
    public static final String EVENT_ROUTES_WITHHELD = "RoutesWithheld";
    private static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
    /** The start of a stopped agent's lastError (docs/bgp.md, "SIGTERM"). */
    public static final String STOPPED = "juneau-agent stopped on node ";
    private static final ResourceDefinitionContext SESSIONS = ResourceDefinitionContext.fromResourceType(BGPSession.class);

    private final KubernetesClient client;
    private final String node;
    private final Reporter reporter;
    private final Clock clock;
    private final Map<String, Long> lastWrite = new HashMap<>();
    private final Map<String, BGPSessionStatus> written = new HashMap<>();
    private final Map<String, Boolean> wasEstablished = new HashMap<>();
    private final Map<String, String> lastErrorEvent = new HashMap<>();
    /** The withheld networks last told in an Event, by network: the reason without BIRD's line numbers. */
    private final Map<String, String> withheldEvent = new HashMap<>();
    /** This node's BGPSessions believed to exist, by name, each with its owner's uid (null: unknown); null until listed. */
    private Map<String, String> existing;
    private final Map<String, Long> lastDelete = new HashMap<>();

    public SessionWriter(KubernetesClient client, String node, Reporter reporter, Clock clock) {
        this.client = client;
        this.node = node;
        this.reporter = reporter;
        this.clock = clock;
    }

    /**
     * Writes the sessions of {@code plans} from BIRD's {@code reports} and deletes this node's other BGPSessions, except
     * those of {@code keepPeers} (peers that exist but cannot be read: whether they apply is unknown).
     */
    public void write(List<NodePlan.SessionPlan> plans, List<SessionReport> reports, Set<String> keepPeers) {
        Map<String, SessionReport> byPeer = new HashMap<>();
        reports.forEach(r -> byPeer.put(r.peer(), r));
        withheldEvents(reports);
        listOnce();
        for (NodePlan.SessionPlan plan : plans) {
            SessionReport r = byPeer.get(plan.peer());
            if (r != null) {
                events(plan, r);
                write(plan, r);
            }
        }
        Set<String> wanted = new HashSet<>();
        plans.forEach(p -> wanted.add(JuneauConstants.bgpSessionName(p.peer(), node)));
        keepPeers.forEach(p -> wanted.add(JuneauConstants.bgpSessionName(p, node)));
        if (existing != null) {
            for (String name : new TreeSet<>(existing.keySet())) {
                if (!wanted.contains(name)) {
                    delete(name);
                }
            }
        }
    }

    /**
     * A clean stop (SIGTERM, after BIRD closed every session): each session this agent wrote says {@code Idle} with
     * why, so no BGPSession claims {@code Established} for a node that announces nothing (issue 41). Called before
     * the Lease is released; the controller judges a node whose agent died without this by its Lease (docs/bgp.md).
     *
     * @return the sessions written
     */
    public List<String> markStopped() {
        List<String> done = new java.util.ArrayList<>();
        for (String name : new TreeSet<>(written.keySet())) {
            BGPSessionStatus last = written.get(name);
            String peer = name.substring(0, name.length() - node.length() - 1);
            try {
                BGPSession current = client.resources(BGPSession.class).withName(name).get();
                if (current == null) {
                    continue;
                }
                long generation = last.getObservedGeneration() == null ? 0 : last.getObservedGeneration();
                current.setStatus(SessionStatuses.wanted(new SessionReport(peer, "Idle", null, 0, STOPPED + node
                        + ": its routes are withdrawn and its BIRD is stopped"), current.getStatus(), generation,
                        clock.instant()));
                client.resources(BGPSession.class).resource(current).updateStatus();
                done.add(name);
            } catch (KubernetesClientException e) {
                LOG.warn("BGPSession {} not marked stopped: {}", name, e.getMessage());
            }
        }
        return done;
    }

    /**
     * The agent did not run (or reach the API server) for longer than its Lease: the controller may have written its
     * sessions {@code Unknown} meanwhile (docs/bgp.md), so what this writer remembers having written is no longer
     * what is stored; the next turn writes every session afresh.
     */
    public void forgetWritten() {
        written.clear();
        lastWrite.clear();
    }

    /** Which of this node's sessions exist, listed by its label until a list succeeds (an outage retries). */
    private void listOnce() {
        if (existing != null) {
            return;
        }
        try {
            Map<String, String> found = new HashMap<>();
            // generic: a typed list fails whole on one malformed object, and only the names and owners are needed
            for (GenericKubernetesResource g : client.genericKubernetesResources(SESSIONS)
                    .withLabel(JuneauConstants.LABEL_NODE, node).list().getItems()) {
                if (g.getMetadata() != null && g.getMetadata().getName() != null) {
                    found.put(g.getMetadata().getName(), ownerUid(g.getMetadata().getOwnerReferences()));
                }
            }
            existing = found;
        } catch (KubernetesClientException e) {
            reporter.refusals().refused(JuneauConstants.KIND_BGP_SESSION, e);
            LOG.debug("BGPSessions of node {} not listed: {}", node, e.getMessage());
        }
    }

    private void delete(String name) {
        long now = clock.millis();
        Long last = lastDelete.get(name);
        if (last != null && now - last < MIN_INTERVAL.toMillis()) {
            return;
        }
        lastDelete.put(name, now);
        try {
            client.resources(BGPSession.class).withName(name).delete(); // already gone (404) is no exception
            LOG.info("deleted BGPSession {}: its peer no longer applies to node {}", name, node);
            forget(name);
        } catch (KubernetesClientException e) {
            reporter.refusals().refused(JuneauConstants.KIND_BGP_SESSION, e);
            LOG.debug("BGPSession {} not deleted: {}", name, e.getMessage());
        }
    }

    /** Drops everything known of a session, so that one made again later starts afresh. */
    private void forget(String name) {
        existing.remove(name);
        lastDelete.remove(name);
        lastWrite.remove(name);
        written.remove(name);
        String suffix = "." + node;
        if (name.endsWith(suffix)) {
            String peer = name.substring(0, name.length() - suffix.length());
            wasEstablished.remove(peer);
            lastErrorEvent.remove(peer);
        }
    }

    private static String ownerUid(List<OwnerReference> refs) {
        if (refs == null) {
            return null;
        }
        return refs.stream().filter(r -> JuneauConstants.KIND_BGP_PEER.equals(r.getKind())).map(OwnerReference::getUid)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    private void events(NodePlan.SessionPlan plan, SessionReport r) {
        Boolean before = wasEstablished.put(plan.peer(), r.established());
        if (before != null && before != r.established()) {
            reporter.eventOnClusterObject(JuneauConstants.KIND_BGP_PEER, peerRef(plan),
                    r.established() ? "Normal" : "Warning", r.established() ? EVENT_SESSION_UP : EVENT_SESSION_DOWN,
                    "BGP session from node " + node + " " + (r.established() ? "Established" : "down: " + r.state()
                            + (r.lastError() == null ? "" : " (" + r.lastError() + ")")));
        }
        String error = r.lastError();
        String said = RefusalLocator.withoutPlace(error);
        if (error != null && !r.established() && !said.equals(lastErrorEvent.get(plan.peer()))
                && (plan.problem() != null || error.startsWith("BIRD"))) {
            // a configuration problem of ours (not BIRD's words about the wire): one Warning per distinct problem
            reporter.eventOnClusterObject(JuneauConstants.KIND_BGP_PEER, peerRef(plan), "Warning", EVENT_SESSION_DOWN,
                    "node " + node + " cannot keep this session: " + error);
        }
        lastErrorEvent.put(plan.peer(), said);
    }

    /** One Warning on an ExternalNetwork when this node's BIRD starts withholding its routes, or for other words. */
    private void withheldEvents(List<SessionReport> reports) {
        Map<String, String> now = new HashMap<>();
        reports.forEach(r -> r.withheld().forEach((network, why) -> now.putIfAbsent(network, why)));
        now.forEach((network, why) -> {
            String said = RefusalLocator.withoutPlace(why);
            if (!said.equals(withheldEvent.get(network))) {
                // the network's uid is not in the session report: kubectl describe externalnetwork does not list
                // this Event yet (kubectl get events does)
                reporter.eventOnClusterObject(JuneauConstants.KIND_EXTERNAL_NETWORK,
                        new Reporter.Involved(network, null, null), "Warning",
                        EVENT_ROUTES_WITHHELD, "node " + node + " does not announce the routes of this network: " + why);
            }
        });
        withheldEvent.keySet().retainAll(now.keySet());
        now.forEach((network, why) -> withheldEvent.put(network,
                RefusalLocator.withoutPlace(why)));
    }

    /** The BGPPeer an Event is about, with its uid: without it {@code kubectl describe bgppeer} shows no Event. */
    private static Reporter.Involved peerRef(NodePlan.SessionPlan plan) {
        return new Reporter.Involved(plan.peer(), plan.peerUid(), null);
    }

    private void write(NodePlan.SessionPlan plan, SessionReport r) {
        String name = JuneauConstants.bgpSessionName(plan.peer(), node);
        long now = clock.millis();
        String owner = existing == null ? null : existing.get(name);
        boolean replaced = owner != null && plan.peerUid() != null && !owner.equals(plan.peerUid());
        if (replaced) {
            // the BGPPeer was deleted and made again under the same name: the session of the old one goes
            lastWrite.remove(name);
            written.remove(name);
        }
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
            if (current != null && plan.peerUid() != null
                    && !plan.peerUid().equals(ownerUid(current.getMetadata().getOwnerReferences()))) {
                client.resources(BGPSession.class).withName(name).delete();
                LOG.info("deleted BGPSession {}: it belonged to an earlier BGPPeer {}", name, plan.peer());
                current = null;
            }
            if (current == null) {
                current = client.resources(BGPSession.class).resource(fresh(plan, name)).create();
            }
            if (existing != null) {
                existing.put(name, plan.peerUid());
            }
            BGPSessionStatus wanted = SessionStatuses.wanted(r, current.getStatus(), plan.generation(),
                    clock.instant());
            if (SessionStatuses.same(wanted, current.getStatus())) {
                written.put(name, wanted);
                return;
            }
            current.setStatus(wanted);
            client.resources(BGPSession.class).resource(current).updateStatus();
            reporter.refusals().succeeded(JuneauConstants.KIND_BGP_SESSION);
            lastWrite.put(name, now);
            written.put(name, wanted);
        } catch (KubernetesClientException e) {
            reporter.refusals().refused(JuneauConstants.KIND_BGP_SESSION, e);
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
