package me.loutres.juneau.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import me.loutres.juneau.plan.WatchedTime.Gap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/operations.md, "Node liveness after an outage": a Lease is judged only against time the controller's watch has
 * shown; a node whose Lease ran out during the controller's own outage gets one full duration after it.
 */
class WatchedTimeTest {
    /** Times as seconds after this instant. */
    static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

    static Instant at(double seconds) {
        return T0.plusMillis(Math.round(seconds * 1000));
    }

    /** A 3 s Lease renewed at {@code renewed}, the watch silent from 10 s (last seen) to 70 s (events again). */
    static WatchedTime frozenFrom10To70(double horizon) {
        return new WatchedTime(at(horizon), List.of(new Gap(at(10), at(70))));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ran out before the outage: dead, and stays dead        | 5    | 70.5 | true  | 8
            ran out during it: alive right after it                | 9    | 70.5 | false | 73
            ran out during it: alive until a duration after it     | 9    | 72.9 | false | 73
            ran out during it: dead once a duration has passed      | 9    | 73   | true  | 73
            renewed after it, runs out later: its own expiry       | 71   | 74.5 | true  | 74
            renewed after it, not run out yet                       | 72   | 74.5 | false | 75
            ran out just after it, still within the grace: grace   | 68   | 72   | false | 73
            """)
    void aLeaseIsDeadOnlyWhenTheWatchHasShownItsDeadline(String name, double renewed, double horizon, boolean dead,
            double deadline) {
        WatchedTime w = frozenFrom10To70(horizon);
        NodeLiveness.State s = NodeLiveness.judge(NodeLivenessTest.lease("juneau-agent-n1", "agent-n1",
                at(renewed).toString(), 3), w);
        assertThat(s.dead()).isEqualTo(dead);
        assertThat(s.expiresAt()).contains(at(deadline));
    }

    @Test
    void anExpiryTheWatchHasNotShownYetIsNotDeath() {
        // the wall clock is past the expiry, but no event since shows a later instant: a renewal may be on its way
        WatchedTime w = new WatchedTime(at(12.9), List.of());
        NodeLiveness.State s = NodeLiveness.judge(NodeLivenessTest.lease("juneau-agent-n1", "a", at(10).toString(), 3), w);
        assertThat(s.dead()).isFalse();
        assertThat(NodeLiveness.judge(NodeLivenessTest.lease("juneau-agent-n1", "a", at(10).toString(), 3),
                new WatchedTime(at(13), List.of())).dead()).isTrue();
        assertThat(new WatchedTime(null, List.of()).shows(at(0))).as("nothing seen shows nothing").isFalse();
    }

    @Test
    void aSecondGapWithinTheGraceExtendsItAgain() {
        WatchedTime w = new WatchedTime(at(100), List.of(new Gap(at(10), at(70)), new Gap(at(71), at(80))));
        assertThat(w.deadline(at(12), java.time.Duration.ofSeconds(3))).isEqualTo(at(83));
        // a Lease that ran out between the two gaps, after the first grace: witnessed before the second
        assertThat(w.deadline(at(70.5), java.time.Duration.ofSeconds(0))).isEqualTo(at(70.5));
    }

    @Test
    void aReleasedLeaseIsDeadAtOnceWhateverTheGaps() {
        assertThat(NodeLiveness.judge(NodeLivenessTest.lease("juneau-agent-n1", "", at(9).toString(), 3),
                frozenFrom10To70(70.1)).dead()).isTrue();
    }

    @Test
    void withoutGapsTheDeadlineIsTheExpiry() {
        assertThat(WatchedTime.until(at(5)).deadline(at(3), java.time.Duration.ofSeconds(30))).isEqualTo(at(3));
    }
}
