package me.loutres.juneau.agent.bgp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a BGPSession's lastError says when BIRD stays silent about a session that never comes up. */
class SilentSessionsTest {
    static Neighbor neighbor(String password) {
        return new Neighbor("tor", "198.18.0.2", 65000, 65001, 179, 9, null, false, null, password, null,
                List.of("lab"));
    }

    static BirdStatus.Session bird(String state, String error) {
        return new BirdStatus.Session(state, "198.18.0.2", error, 0);
    }

    @Test
    void aSilentSessionWithAPasswordPointsAtTheMd5Password() {
        String e = SilentSessions.lastError(bird("Connect", null), neighbor("s3cret"), Duration.ofSeconds(6));
        assertThat(e).startsWith("no reply from 198.18.0.2:179 (BGP state Connect)").contains("MD5 password")
                .contains("spec.passwordSecret").doesNotContain("s3cret");
    }

    @Test
    void aSilentSessionWithoutPasswordNamesAFilterOrARouterThatExpectsOne() {
        assertThat(SilentSessions.lastError(bird("Active", null), neighbor(null), Duration.ofSeconds(5)))
                .isEqualTo("no reply from 198.18.0.2:179 (BGP state Active): the connection is dropped silently; a"
                        + " filter on the way, or a router that expects an MD5 password (BGPPeer spec.passwordSecret)");
    }

    @Test
    void birdsOwnErrorWins() {
        assertThat(SilentSessions.lastError(bird("Active", "Socket: Connection refused"), neighbor("s3cret"),
                Duration.ofMinutes(1))).isEqualTo("Socket: Connection refused");
    }

    @Test
    void startingUpEstablishedOrShutDownSessionsSayNothing() {
        assertThat(SilentSessions.lastError(bird("Connect", null), neighbor("s3cret"), Duration.ofMillis(4_999)))
                .isNull();
        assertThat(SilentSessions.lastError(bird("Established", null), neighbor("s3cret"), Duration.ofMinutes(1)))
                .isNull();
        assertThat(SilentSessions.lastError(bird("Idle", null), neighbor("s3cret"), Duration.ofMinutes(1))).isNull();
        assertThat(SilentSessions.lastError(bird("OpenSent", null), neighbor(null), Duration.ofMinutes(1))).isNull();
        assertThat(SilentSessions.lastError(bird("Connect", null), null, Duration.ofMinutes(1))).isNull();
    }
}
