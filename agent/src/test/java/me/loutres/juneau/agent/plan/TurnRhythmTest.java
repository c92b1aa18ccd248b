package me.loutres.juneau.agent.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.TreeMap;
import me.loutres.juneau.agent.bgp.BirdConfig;
import me.loutres.juneau.agent.bgp.NetworkRoutes;
import me.loutres.juneau.agent.bgp.Prefix;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;

class TurnRhythmTest {
    private static final NodePlan NOTHING = plan(List.of(), List.of());

    private static NodePlan plan(List<NetworkRoutes> routes, List<NodePlan.SessionPlan> sessions) {
        return new NodePlan(new TreeMap<>(), new TreeMap<>(), new BirdConfig("198.18.0.2", List.of(), routes),
                sessions, null, List.of());
    }

    @Test
    void aNodeWithNothingToDoLooksAgainOnlyAtTheIdleRhythm() {
        assertThat(TurnRhythm.next(0, false, NOTHING, false)).isEqualTo(TurnRhythm.IDLE);
        assertThat(TurnRhythm.IDLE).isGreaterThan(TurnRhythm.BUSY);
    }

    @Test
    void anAdvertisementForTheNodeKeepsTheSecondRhythmEvenWhenItIsNotAnswered() {
        // its status write may have failed, or its interface may not exist yet: both are only seen by looking again
        assertThat(TurnRhythm.next(1, false, NOTHING, false)).isEqualTo(TurnRhythm.BUSY);
    }

    @Test
    void answeringKeepsTheSecondRhythm() {
        assertThat(TurnRhythm.next(0, true, NOTHING, false)).isEqualTo(TurnRhythm.BUSY);
    }

    @Test
    void bgpWorkKeepsTheSecondRhythm() {
        NodePlan routes = plan(List.of(new NetworkRoutes("wan", List.of(Prefix.covering(Ipv4.parse("198.19.0.1"), 32)), List.of(),
                null)), List.of());
        NodePlan session = plan(List.of(), List.of(new NodePlan.SessionPlan("tor", "uid", 1, "198.18.0.1", false,
                "no router id")));
        assertThat(TurnRhythm.next(0, false, routes, false)).isEqualTo(TurnRhythm.BUSY);
        assertThat(TurnRhythm.next(0, false, session, false)).isEqualTo(TurnRhythm.BUSY);
        // BIRD still running from an earlier plan: its sessions are still polled
        assertThat(TurnRhythm.next(0, false, NOTHING, true)).isEqualTo(TurnRhythm.BUSY);
    }

    @Test
    void theIdleRhythmStaysWellInsideTheLivenessProbesPatience() {
        // the probe fails when the loop has not turned for stuckAfter (60 s by default)
        assertThat(TurnRhythm.IDLE.multipliedBy(3)).isLessThan(
                me.loutres.juneau.agent.AgentOptions.defaults("n").stuckAfter());
    }
}
