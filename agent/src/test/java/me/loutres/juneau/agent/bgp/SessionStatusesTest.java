package me.loutres.juneau.agent.bgp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;
import org.junit.jupiter.api.Test;

/** A BGPSession's status from what BIRD reports: since and the condition's transition move only with the state. */
class SessionStatusesTest {
    static final Instant T0 = Instant.parse("2026-12-02T03:00:00.400Z");
    static final Instant T1 = Instant.parse("2026-12-02T03:05:00Z");

    @Test
    void anEstablishedSessionSaysSoWithItsRoutesAndBfd() {
        BGPSessionStatus s = SessionStatuses.wanted(new SessionReport("tor", "Established", "Up", 12, null), null, 3,
                T0);
        assertThat(s.getState()).isEqualTo("Established");
        assertThat(s.getBfdState()).isEqualTo("Up");
        assertThat(s.getRoutesAdvertised()).isEqualTo(12L);
        assertThat(s.getSince()).isEqualTo("2026-12-02T03:00:00Z");
        assertThat(s.getObservedGeneration()).isEqualTo(3L);
        assertThat(s.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("Established");
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getMessage()).isEqualTo("BGP session Established, BFD Up");
        });
    }

    @Test
    void theSameStateKeepsItsSinceAndTransitionSoNothingIsWrittenAgain() {
        BGPSessionStatus first = SessionStatuses.wanted(new SessionReport("tor", "Established", null, 1, null), null, 1,
                T0);
        BGPSessionStatus later = SessionStatuses.wanted(new SessionReport("tor", "Established", null, 1, null), first,
                1, T1);
        assertThat(SessionStatuses.same(later, first)).isTrue();
        BGPSessionStatus moreRoutes = SessionStatuses.wanted(new SessionReport("tor", "Established", null, 2, null),
                first, 1, T1);
        assertThat(SessionStatuses.same(moreRoutes, first)).isFalse();
        assertThat(moreRoutes.getSince()).isEqualTo(first.getSince());
    }

    @Test
    void aSessionGoingDownSaysBirdsReasonAndWhen() {
        BGPSessionStatus up = SessionStatuses.wanted(new SessionReport("tor", "Established", null, 1, null), null, 1,
                T0);
        BGPSessionStatus down = SessionStatuses.wanted(new SessionReport("tor", "Active", null, 0,
                "Socket: Connection refused"), up, 1, T1);
        assertThat(down.getSince()).isEqualTo("2026-12-02T03:05:00Z");
        assertThat(down.getLastError()).isEqualTo("Socket: Connection refused");
        assertThat(down.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("Active");
            assertThat(c.getMessage()).isEqualTo("BGP session Active: Socket: Connection refused");
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-12-02T03:05:00Z");
        });
    }

    @Test
    void theAddressesBirdCarriesAreWrittenAndANewRouteIsAChange() {
        BGPSessionStatus before = SessionStatuses.wanted(new SessionReport("tor", "Established", null, 1, null,
                java.util.Map.of(), java.util.List.of("198.18.100.10")), null, 1, T0);
        assertThat(before.getCarriedAddresses()).containsExactly("198.18.100.10");
        BGPSessionStatus after = SessionStatuses.wanted(new SessionReport("tor", "Established", null, 1, null,
                java.util.Map.of(), java.util.List.of("198.18.100.10-198.18.100.11")), before, 1, T1);
        assertThat(SessionStatuses.same(after, before)).as("a new VIP is written, though the count is the same")
                .isFalse();
        assertThat(SessionStatuses.wanted(new SessionReport("tor", "Established", null, 1, null), null, 1, T0)
                .getCarriedAddresses()).as("not reported").isNull();
    }

    @Test
    void theNetworksBirdWithholdsAreListedWithWhyAndNamedInTheCondition() {
        String why = "BIRD refused ExternalNetwork broken, left out of this node's configuration: bird.conf:21:36 x";
        BGPSessionStatus s = SessionStatuses.wanted(new SessionReport("tor", "Established", null, 1, null,
                java.util.Map.of("broken", why)), null, 1, T0);
        assertThat(s.getWithheldNetworks()).containsExactly(
                new me.loutres.juneau.api.v1alpha1.WithheldNetwork("broken", why));
        assertThat(s.getConditions()).singleElement().satisfies(c -> assertThat(c.getMessage())
                .isEqualTo("BGP session Established; routes of broken not sent (see withheldNetworks)"));
        BGPSessionStatus carried = SessionStatuses.wanted(new SessionReport("tor", "Established", null, 1, null), s,
                1, T1);
        assertThat(carried.getWithheldNetworks()).as("absent when BIRD carries them all").isNull();
        assertThat(SessionStatuses.same(carried, s)).isFalse();
    }
}
