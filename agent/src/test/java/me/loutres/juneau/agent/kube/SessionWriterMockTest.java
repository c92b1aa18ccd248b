package me.loutres.juneau.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import me.loutres.juneau.agent.bgp.SessionReport;
import me.loutres.juneau.agent.plan.NodePlan;
import me.loutres.juneau.agent.testing.AgentCluster;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.BGPSessionSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The BGPSessions one node keeps (docs/bgp.md, Status): written for the peers that apply, deleted when a peer stops
 * applying, also after a restart of the agent, and never another node's. Each call of {@code write} is one BGP turn;
 * the clock moves a second between turns, past the writer's one-second spacing.
 */
class SessionWriterMockTest {
    final AgentCluster cluster = new AgentCluster();
    final me.loutres.juneau.testing.ManualClock clock = new me.loutres.juneau.testing.ManualClock(
            Instant.ofEpochMilli(1_000_000));

    @AfterEach
    void close() {
        cluster.close();
    }

    SessionWriter writer(String node) {
        return new SessionWriter(cluster.newAgentClient(), node, new Reporter(cluster.client(), node), clock);
    }

    static NodePlan.SessionPlan plan(String peer, String uid) {
        return new NodePlan.SessionPlan(peer, uid, 1, "198.18.0.1", false, null);
    }

    static SessionReport report(String peer) {
        return new SessionReport(peer, "Active", null, 0, "Socket: Connection refused");
    }

    void turn(SessionWriter w, List<NodePlan.SessionPlan> plans, Set<String> keep) {
        clock.advance(java.time.Duration.ofMillis(1_100));
        w.write(plans, plans.stream().map(p -> report(p.peer())).toList(), keep);
    }

    List<String> sessions() {
        return cluster.client().resources(BGPSession.class).list().getItems().stream()
                .map(s -> s.getMetadata().getName()).sorted().toList();
    }

    BGPSession session(String name) {
        return cluster.client().resources(BGPSession.class).withName(name).get();
    }

    /** A session as an agent of {@code node} wrote it earlier. */
    void stored(String peer, String node, String uid) {
        BGPSession s = new BGPSession();
        s.setMetadata(new ObjectMetaBuilder().withName(JuneauConstants.bgpSessionName(peer, node))
                .withLabels(Map.of(JuneauConstants.LABEL_PEER, peer, JuneauConstants.LABEL_NODE, node))
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(JuneauConstants.API_VERSION)
                        .withKind(JuneauConstants.KIND_BGP_PEER).withName(peer).withUid(uid).build()).build());
        BGPSessionSpec spec = new BGPSessionSpec();
        spec.setPeer(peer);
        spec.setNodeName(node);
        s.setSpec(spec);
        cluster.client().resources(BGPSession.class).resource(s).create();
    }

    @Test
    void aPeerThatStopsApplyingLosesItsSessionAndOnlyThatOne() {
        SessionWriter w = writer("node-a");
        turn(w, List.of(plan("tor", "u-tor"), plan("edge", "u-edge")), Set.of());
        assertThat(sessions()).containsExactly("edge.node-a", "tor.node-a");
        assertThat(session("edge.node-a").getStatus().getState()).isEqualTo("Active");

        turn(w, List.of(plan("tor", "u-tor")), Set.of());

        assertThat(sessions()).containsExactly("tor.node-a");
        assertThat(cluster.agentRequests()).anyMatch(r -> r.method().equals("DELETE")
                && r.path().endsWith("/bgpsessions/edge.node-a"));

        // the peer applies again: a new session, written afresh (nothing remembered of the deleted one)
        turn(w, List.of(plan("tor", "u-tor"), plan("edge", "u-edge")), Set.of());
        assertThat(sessions()).containsExactly("edge.node-a", "tor.node-a");
        assertThat(session("edge.node-a").getStatus()).isNotNull();

        // the node stops being a BGP speaker: no session at all
        turn(w, List.of(), Set.of());
        assertThat(sessions()).isEmpty();
    }

    @Test
    void aStartingAgentDeletesTheSessionsLeftFromPeersThatNoLongerApplyButNeverAnotherNodes() {
        stored("tor", "node-a", "u-tor");
        stored("gone", "node-a", "u-gone");
        stored("gone", "node-b", "u-gone");
        SessionWriter w = writer("node-a");

        turn(w, List.of(plan("tor", "u-tor")), Set.of());

        assertThat(sessions()).containsExactly("gone.node-b", "tor.node-a");
        assertThat(cluster.agentRequests()).as("listed by the node's label, once")
                .filteredOn(r -> r.method().equals("GET") && r.path().contains("/bgpsessions?"))
                .singleElement().satisfies(r -> assertThat(r.path()).contains("labelSelector=juneau.loutres.me"));
        turn(w, List.of(plan("tor", "u-tor")), Set.of());
        assertThat(cluster.agentRequests()).filteredOn(r -> r.method().equals("GET")
                && r.path().contains("/bgpsessions?")).hasSize(1);
    }

    @Test
    void theSessionOfAPeerOfWhichNothingCanBeReadIsKept() {
        stored("damaged", "node-a", "u-damaged");
        SessionWriter w = writer("node-a");

        turn(w, List.of(), Set.of("damaged"));
        turn(w, List.of(), Set.of("damaged"));

        assertThat(sessions()).containsExactly("damaged.node-a");
        assertThat(cluster.agentRequests()).noneMatch(r -> r.method().equals("DELETE"));
    }

    @Test
    void aPeerMadeAgainUnderTheSameNameGetsANewSession() {
        SessionWriter w = writer("node-a");
        turn(w, List.of(plan("tor", "u-old")), Set.of());
        assertThat(session("tor.node-a").getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo("u-old"));

        turn(w, List.of(plan("tor", "u-new")), Set.of());

        BGPSession s = session("tor.node-a");
        assertThat(s.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo("u-new"));
        assertThat(s.getStatus()).as("written for the new peer").isNotNull();
    }

    /** kubectl describe bgppeer lists only Events whose involvedObject.uid is the peer's (issue 41, item 1). */
    @Test
    void sessionEventsNameTheBgpPeerByItsUid() {
        SessionWriter w = writer("node-a");
        turn(w, List.of(plan("tor", "u-tor")), Set.of());
        clock.advance(java.time.Duration.ofMillis(1_100));
        w.write(List.of(plan("tor", "u-tor")), List.of(new SessionReport("tor", "Established", null, 1, null)),
                Set.of());

        var events = cluster.client().v1().events().inNamespace("default").list().getItems();
        assertThat(events).filteredOn(e -> SessionWriter.EVENT_SESSION_UP.equals(e.getReason())).singleElement()
                .satisfies(e -> {
                    assertThat(e.getInvolvedObject().getKind()).isEqualTo(JuneauConstants.KIND_BGP_PEER);
                    assertThat(e.getInvolvedObject().getName()).isEqualTo("tor");
                    assertThat(e.getInvolvedObject().getUid()).isEqualTo("u-tor");
                    assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo(JuneauConstants.API_VERSION);
                });
    }

    /** After a pause longer than its Lease the controller may have written the session Unknown: it is rewritten. */
    @Test
    void afterAPauseTheSessionIsWrittenAfreshOverWhatTheControllerWrote() {
        SessionWriter w = writer("node-a");
        turn(w, List.of(plan("tor", "u-tor")), Set.of());
        BGPSession s = session("tor.node-a");
        s.getStatus().setState("Unknown");
        cluster.client().resources(BGPSession.class).resource(s).updateStatus();

        turn(w, List.of(plan("tor", "u-tor")), Set.of());
        assertThat(session("tor.node-a").getStatus().getState()).as("unchanged report: nothing written")
                .isEqualTo("Unknown");

        w.forgetWritten();
        turn(w, List.of(plan("tor", "u-tor")), Set.of());
        assertThat(session("tor.node-a").getStatus().getState()).isEqualTo("Active");
    }

    @Test
    void aRefusedPeerAndAWithheldNetworkAreWrittenWithBirdsWordsAndToldOnceInAnEventEach() {
        SessionWriter w = writer("node-a");
        String peerWhy = "BIRD refused BGPPeer bad, left out of this node's configuration: bird.conf:43:1 Multihop BGP"
                + " with BFD requires specified local address";
        String netWhy = "BIRD refused ExternalNetwork broken, left out of this node's configuration: bird.conf:21:36"
                + " filter preevaluation, line 21: out of bounds";
        List<NodePlan.SessionPlan> plans = List.of(plan("bad", "u-bad"), plan("tor", "u-tor"));
        for (int line : new int[] {21, 24}) {
            clock.advance(java.time.Duration.ofMillis(1_100));
            // the same refusals on other lines (routes came): the same reasons, no new Event
            w.write(plans, List.of(new SessionReport("bad", "Idle", null, 0, peerWhy.replace(":43:", ":" + (line + 22)
                    + ":")), new SessionReport("tor", "Established", null, 3, null, Map.of("broken",
                    netWhy.replace("21", String.valueOf(line))))), Set.of());
        }
        BGPSession bad = session("bad.node-a");
        assertThat(bad.getStatus().getState()).isEqualTo("Idle");
        assertThat(bad.getStatus().getLastError()).contains("BIRD refused BGPPeer bad").contains("Multihop BGP");
        BGPSession tor = session("tor.node-a");
        assertThat(tor.getStatus().getWithheldNetworks()).singleElement().satisfies(n -> {
            assertThat(n.getName()).isEqualTo("broken");
            assertThat(n.getReason()).startsWith("BIRD refused ExternalNetwork broken").contains(":24:36");
        });
        var events = cluster.client().v1().events().inAnyNamespace().list().getItems();
        assertThat(events).filteredOn(e -> SessionWriter.EVENT_ROUTES_WITHHELD.equals(e.getReason()))
                .singleElement().satisfies(e -> {
                    assertThat(e.getInvolvedObject().getKind()).isEqualTo("ExternalNetwork");
                    assertThat(e.getInvolvedObject().getName()).isEqualTo("broken");
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).startsWith("node node-a does not announce the routes of this network:"
                            + " BIRD refused ExternalNetwork broken");
                });
        assertThat(events).filteredOn(e -> e.getMessage() != null && e.getMessage().contains("Multihop BGP"))
                .singleElement().satisfies(e -> assertThat(e.getInvolvedObject().getName()).isEqualTo("bad"));
    }
}
