package me.loutres.juneau.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class PendingLeaseChecksTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private final PendingLeaseChecks checks = new PendingLeaseChecks();

    @Test
    void theFirstExpiryOfANodeIsScheduled() {
        assertThat(checks.offer("node-a", T0.plusSeconds(30))).isTrue();
        assertThat(checks.offer("node-b", T0.plusSeconds(30))).as("another node has its own check").isTrue();
    }

    @Test
    void aLaterOrEqualExpiryWaitsForThePendingCheck() {
        checks.offer("node-a", T0.plusSeconds(3));
        assertThat(checks.offer("node-a", T0.plusSeconds(3))).isFalse();
        assertThat(checks.offer("node-a", T0.plusSeconds(30))).isFalse();
    }

    @Test
    void anEarlierExpiryIsScheduledAlthoughALaterCheckIsPending() {
        // idle Lease of 30 s, then the agent owns a VIP and renews with 3 s
        checks.offer("node-a", T0.plusSeconds(30));
        assertThat(checks.offer("node-a", T0.plusSeconds(4))).isTrue();
    }

    @Test
    void aFiredCheckLetsTheNextOneBeScheduledButASupersededOneDoesNotClearTheEarlierOne() {
        checks.offer("node-a", T0.plusSeconds(30));
        checks.offer("node-a", T0.plusSeconds(4));
        checks.ended("node-a", T0.plusSeconds(30)); // the superseded timer fires late: the 4 s one stays pending
        assertThat(checks.offer("node-a", T0.plusSeconds(5))).isFalse();
        checks.ended("node-a", T0.plusSeconds(4));
        assertThat(checks.offer("node-a", T0.plusSeconds(5))).isTrue();
    }

    @Test
    void aDroppedCheckIsNotPending() {
        checks.offer("node-a", T0.plusSeconds(3));
        checks.ended("node-a", T0.plusSeconds(3));
        assertThat(checks.offer("node-a", T0.plusSeconds(3))).isTrue();
    }
}
