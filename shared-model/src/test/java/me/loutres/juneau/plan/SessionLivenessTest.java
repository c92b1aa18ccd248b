package me.loutres.juneau.plan;

import static me.loutres.juneau.plan.ServicePlannerTest.BGP_NET;
import static me.loutres.juneau.plan.ServicePlannerTest.NOW;
import static me.loutres.juneau.plan.ServicePlannerTest.VIP;
import static me.loutres.juneau.plan.ServicePlannerTest.cond;
import static me.loutres.juneau.plan.ServicePlannerTest.deadNodes;
import static me.loutres.juneau.plan.ServicePlannerTest.lease;
import static me.loutres.juneau.plan.ServicePlannerTest.slices;
import static me.loutres.juneau.plan.ServicePlannerTest.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;
import me.loutres.juneau.plan.AnnounceFacts.SessionReport;
import me.loutres.juneau.selection.NodeEligibility;
import org.junit.jupiter.api.Test;

/**
 * A session of a node whose agent is dead by its Lease counts as Unknown (issue 41, item 2): an Established written
 * before the agent died no longer makes the VIP Announced from that node.
 */
class SessionLivenessTest {
    static AnnounceFacts bothEstablished() {
        return new AnnounceFacts(NodeEligibility.everyNode(), true, List.of(
                new SessionReport("tor", "node-a", "Established", null),
                new SessionReport("tor", "node-b", "Established", null)), List.of());
    }

    static Condition announced(NodeLiveness liveness) {
        ServicePlan p = ServicePlanner.plan(ServicePlannerSelectionTest.in(status("Ready", VIP, null), BGP_NET,
                slices("node-a", "node-b"), null, liveness, bothEstablished()));
        return cond(p.status(), JuneauConstants.CONDITION_ANNOUNCED);
    }

    @Test
    void aNodeWhoseAgentReleasedItsLeaseIsNoLongerNamedAsAnnouncing() {
        NodeLiveness released = NodeLiveness.of(List.of(lease("node-a", "agent-a", NOW.minusSeconds(1), 30),
                lease("node-b", "", NOW.minusSeconds(1), 30)), NOW);
        Condition c = announced(released);
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getMessage()).isEqualTo("VIP 10.0.0.1 is announced by node-a (tor); not by node-b: no"
                + " Established session (tor: Unknown, its agent released Lease juneau-agent-node-b)");
    }

    @Test
    void everyAnnouncingNodeDeadIsNotAnnounced() {
        Condition c = announced(deadNodes("node-a", "node-b"));
        assertThat(c.getStatus() + "/" + c.getReason()).isEqualTo("False/" + JuneauConstants.REASON_NOT_ANNOUNCED);
        assertThat(c.getMessage()).contains("node-a: no Established session (tor: Unknown, its agent's Lease"
                + " juneau-agent-node-a expired at");
    }

    @Test
    void liveNodesKeepWhatTheirAgentsReport() {
        AnnounceFacts facts = bothEstablished();
        assertThat(SessionLiveness.judged(facts, deadNodes())).isSameAs(facts);
        assertThat(announced(NodeLiveness.unknown()).getMessage())
                .isEqualTo("VIP 10.0.0.1 is announced by node-a (tor), node-b (tor)");
    }

    @Test
    void theControllersStatusSaysUnknownClaimsNoRouteAndKeepsItsTimesOnceWritten() {
        BGPSessionStatus was = new BGPSessionStatus();
        was.setState("Established");
        was.setRoutesAdvertised(4L);
        was.setObservedGeneration(2L);
        BGPSessionStatus first = SessionLiveness.unknown(was, "node-b", "its agent released Lease juneau-agent-node-b",
                NOW);
        assertThat(first.getState()).isEqualTo(SessionLiveness.UNKNOWN);
        assertThat(first.getRoutesAdvertised()).isZero();
        assertThat(first.getObservedGeneration()).isEqualTo(2L);
        assertThat(first.getLastError()).isEqualTo("node node-b is dead: its agent released Lease juneau-agent-node-b;"
                + " what its agent last reported (state Established) is no longer known");
        assertThat(first.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("Unknown");
            assertThat(c.getReason()).isEqualTo(SessionLiveness.REASON_AGENT_NOT_REPORTING);
        });
        BGPSessionStatus again = SessionLiveness.unknown(first, "node-b", "its agent released Lease"
                + " juneau-agent-node-b", NOW.plusSeconds(60));
        assertThat(again).isEqualTo(first);
    }
}
