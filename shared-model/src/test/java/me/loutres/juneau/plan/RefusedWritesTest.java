package me.loutres.juneau.plan;

import static me.loutres.juneau.plan.ServicePlannerTest.BGP_NET;
import static me.loutres.juneau.plan.ServicePlannerTest.VIP;
import static me.loutres.juneau.plan.ServicePlannerTest.cond;
import static me.loutres.juneau.plan.ServicePlannerTest.slices;
import static me.loutres.juneau.plan.ServicePlannerTest.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.plan.AnnounceFacts.SessionReport;
import me.loutres.juneau.selection.NodeEligibility;
import org.junit.jupiter.api.Test;

/**
 * An agent's refused writes, as its Lease carries them, in condition Announced (issue 41, item 3): a node whose agent
 * runs but may not write BGPSessions is not "an agent that does not run".
 */
class RefusedWritesTest {
    @Test
    void theAnnotationRoundTripsOneLinePerKindAndStaysSmall() {
        String value = RefusedWrites.format(Map.of("BGPSession", "Forbidden: bgpsessions is forbidden\nsecond line",
                "ARPAdvertisement", "Invalid: " + "x".repeat(500)));
        assertThat(value.lines()).hasSize(2);
        assertThat(value.lines().toList().get(1)).isEqualTo("BGPSession: Forbidden: bgpsessions is forbidden second line");
        assertThat(value.lines().toList().get(0)).hasSize(RefusedWrites.MAX_PER_KIND);
        assertThat(RefusedWrites.parse(value)).containsEntry("BGPSession",
                "Forbidden: bgpsessions is forbidden second line").containsKey("ARPAdvertisement");
        assertThat(RefusedWrites.format(Map.of())).isNull();
        assertThat(RefusedWrites.parse(null)).isEmpty();
        assertThat(RefusedWrites.parse("no colon here")).isEmpty();
    }

    @Test
    void aNodeWhoseSessionWritesAreRefusedIsNamedSoInAnnounced() {
        AnnounceFacts facts = new AnnounceFacts(NodeEligibility.everyNode(), true,
                List.of(new SessionReport("tor", "node-a", "Established", null)), List.of(),
                Map.of("node-b", Map.of("BGPSession", "Forbidden: bgpsessions.juneau.loutres.me is forbidden")));
        ServicePlan p = ServicePlanner.plan(ServicePlannerSelectionTest.in(status("Ready", VIP, null), BGP_NET,
                slices("node-a", "node-b"), null, NodeLiveness.unknown(), facts));
        assertThat(cond(p.status(), JuneauConstants.CONDITION_ANNOUNCED).getMessage()).isEqualTo("VIP 10.0.0.1 is"
                + " announced by node-a (tor); not by node-b: its juneau-agent runs but the API server refuses its"
                + " BGPSession writes (Forbidden: bgpsessions.juneau.loutres.me is forbidden); check the agent's RBAC"
                + " (ClusterRole juneau-agent) and the webhook's --agent-username, and the agent's log");
    }

    @Test
    void theArpOwnerWhoseStatusWritesAreRefusedIsNamedSoInAnnounced() {
        AnnounceFacts facts = new AnnounceFacts(NodeEligibility.everyNode(), true, List.of(), List.of(),
                Map.of("node-a", Map.of("ARPAdvertisement", "Forbidden: arpadvertisements/status is forbidden")));
        ServicePlan p = ServicePlanner.plan(ServicePlannerSelectionTest.in(status("Ready", VIP, null),
                ServicePlannerTest.ARP_NET, slices("node-a"), ServicePlannerTest.ours("node-a"), NodeLiveness.unknown(),
                facts));
        assertThat(cond(p.status(), JuneauConstants.CONDITION_ANNOUNCED).getMessage()).isEqualTo("node-a: its"
                + " juneau-agent runs but the API server refuses its ARPAdvertisement writes (Forbidden:"
                + " arpadvertisements/status is forbidden); check the agent's RBAC (ClusterRole juneau-agent) and the"
                + " webhook's --agent-username, and the agent's log");
    }
}
