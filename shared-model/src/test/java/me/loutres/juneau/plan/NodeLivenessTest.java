package me.loutres.juneau.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** docs/phases-and-conditions.md: which nodes an agent Lease declares dead, at a given instant. */
class NodeLivenessTest {
    static final Instant NOW = Instant.parse("2026-12-01T12:00:10Z");

    static Lease lease(String name, String holder, String renewTime, Integer seconds) {
        return new LeaseBuilder().withNewMetadata().withNamespace("juneau-system").withName(name).endMetadata()
                .withNewSpec().withHolderIdentity(holder)
                .withRenewTime(renewTime == null ? null : java.time.ZonedDateTime.parse(renewTime))
                .withLeaseDurationSeconds(seconds)
                .endSpec().build();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(nullValues = "null", value = {
            // case, lease name, holder, renewTime, duration -> dead, expiresAt
            "renewed 1 s ago for 3 s,       juneau-agent-n1, a, 2026-12-01T12:00:09.000000Z, 3, false, 2026-12-01T12:00:12Z",
            "ran out exactly now,           juneau-agent-n1, a, 2026-12-01T12:00:07Z,        3, true,  2026-12-01T12:00:10Z",
            "ran out 7 s ago,               juneau-agent-n1, a, 2026-12-01T12:00:00Z,        3, true,  2026-12-01T12:00:03Z",
            "idle agent with a 30 s duration,     juneau-agent-n1, a, 2026-12-01T11:59:50Z,       30, false, 2026-12-01T12:00:20Z",
            "released (empty holder),       juneau-agent-n1, '', 2026-12-01T12:00:09Z,       3, true,  null",
            "released (no holder),          juneau-agent-n1, null, 2026-12-01T12:00:09Z,     3, true,  null",
            "no renewTime: judged by endpoints, juneau-agent-n1, a, null,                    3, false, null",
            "no duration,                   juneau-agent-n1, a, 2026-12-01T12:00:00Z,     null, false, null",
            "not an agent Lease,            juneau-controller, '', 2026-12-01T12:00:00Z,     3, false, null",
    })
    void aLeaseSaysANodeIsDeadWhenItRanOutOrWasReleased(String name, String leaseName, String holder, String renew,
            Integer seconds, boolean dead, String expires) {
        NodeLiveness l = NodeLiveness.of(List.of(lease(leaseName, holder, renew, seconds)), NOW);
        assertThat(l.dead("n1")).isEqualTo(dead);
        assertThat(l.expiresAt("n1")).isEqualTo(Optional.ofNullable(expires).map(Instant::parse));
        assertThat(l.why("n1") != null).isEqualTo(dead);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "null", value = {"juneau-agent-node-1, node-1", "juneau-agent-, null", "juneau-controller, null",
            "other-juneau-agent-x, null"})
    void onlyLeasesNamedAfterANodeCount(String name, String node) {
        assertThat(NodeLiveness.nodeOf(lease(name, "a", null, null))).isEqualTo(node);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"n1, true", "n2, false", "n3, false"})
    void aNodeWithoutALeaseIsNeverDead(String node, boolean dead) {
        NodeLiveness l = NodeLiveness.of(List.of(lease("juneau-agent-n1", "", null, null),
                lease("juneau-agent-n2", "a", "2026-12-01T12:00:09Z", 3)), NOW);
        assertThat(l.dead(node)).isEqualTo(dead);
        assertThat(l.deadAmong(List.of("n3", "n2", "n1"))).containsExactly("n1");
        assertThat(NodeLiveness.unknown().dead(node)).isFalse();
    }

    @ParameterizedTest(name = "{0}: agent {1}")
    @CsvSource({"n1, true", "n2, true", "n3, false"})
    void aNodeHasAnAgentWhenItHasAnAgentLeaseWhateverItSays(String node, boolean agent) {
        // n1 released its Lease (dead), n2's cannot be read (no renewTime): both have an agent; n3 has none
        List<Lease> leases = List.of(lease("juneau-agent-n1", "", null, null),
                lease("juneau-agent-n2", "a", null, 3), lease("juneau-controller", "x", null, 3));
        assertThat(NodeLiveness.of(leases, NOW).hasAgent(node)).isEqualTo(agent);
        assertThat(NodeLiveness.unknown().hasAgent(node)).isFalse();
    }
}
