package me.loutres.juneau.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import me.loutres.juneau.plan.WatchedTime;
import me.loutres.juneau.testing.ManualClock;
import org.junit.jupiter.api.Test;

/** docs/operations.md, "Node liveness after an outage": what the Lease watch has shown, and its silences. */
class LeaseWatchHorizonTest {
    static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    final ManualClock clock = new ManualClock(T0);
    final LeaseWatchHorizon horizon = new LeaseWatchHorizon(clock, Duration.ofMillis(1500));

    static Lease renewed(String name, Instant at) {
        return new LeaseBuilder().withNewMetadata().withName(name).withNamespace("juneau-system").endMetadata()
                .withNewSpec().withHolderIdentity(name).withLeaseDurationSeconds(3)
                .withRenewTime(at.atZone(ZoneOffset.UTC)).endSpec().build();
    }

    /** The leader renews every 500 ms for {@code seconds}, each event arriving 10 ms after it was written. */
    void leaderRenewsFor(double seconds) {
        for (int i = 0; i < seconds * 2; i++) {
            clock.advance(Duration.ofMillis(490));
            Instant written = clock.instant();
            clock.advance(Duration.ofMillis(10));
            horizon.saw(renewed("juneau-controller", written));
        }
    }

    @Test
    void steadyRenewalsMoveTheHorizonWithoutGaps() {
        horizon.saw(renewed("juneau-controller", T0));
        leaderRenewsFor(5);
        WatchedTime w = horizon.watched();
        assertThat(w.gaps()).isEmpty();
        assertThat(w.horizon()).isEqualTo(clock.instant().minusMillis(10));
    }

    @Test
    void aSilenceLongerThanTheLimitIsAGapFromTheLastSeenInstantToTheFirstArrivalAfterIt() {
        horizon.saw(renewed("juneau-controller", T0));
        leaderRenewsFor(2);
        Instant lastSeen = horizon.watched().horizon();
        clock.advance(Duration.ofSeconds(60)); // the API server frozen: nothing arrives
        Instant back = clock.instant();
        horizon.saw(renewed("juneau-controller", back));
        assertThat(horizon.watched().gaps()).containsExactly(new WatchedTime.Gap(lastSeen, back));
    }

    @Test
    void renewTimesThatJumpFurtherThanTheLimitAreAGapEvenWhenEventsKeptArriving() {
        // events arrive every second, but the instants they show jump by 1.9 s: what lay between was not seen (a
        // renewal written before an outage and stored after it, then one written after it)
        horizon.saw(renewed("agent-a", T0));
        clock.advance(Duration.ofSeconds(1));
        horizon.saw(renewed("agent-a", T0.plusMillis(100)));
        clock.advance(Duration.ofSeconds(1));
        horizon.saw(renewed("juneau-controller", T0.plusSeconds(2)));
        assertThat(horizon.watched().gaps()).containsExactly(
                new WatchedTime.Gap(T0.plusMillis(100), T0.plusSeconds(2)));
    }

    @Test
    void aRenewTimeAheadOfTheArrivalShowsNoMoreThanTheArrival() {
        horizon.saw(renewed("agent-fast-clock", T0.plusSeconds(30)));
        assertThat(horizon.watched().horizon()).isEqualTo(T0);
    }

    @Test
    void listenersHearEveryAdvanceOnly() {
        AtomicInteger heard = new AtomicInteger();
        horizon.onAdvance(heard::incrementAndGet);
        horizon.saw(renewed("a", T0));
        horizon.saw(renewed("a", T0)); // same instant: nothing new shown
        horizon.saw(null);              // a deletion carries no time
        clock.advance(Duration.ofMillis(100));
        horizon.saw(renewed("a", clock.instant()));
        assertThat(heard).hasValue(2);
    }

    @Test
    void onlyTheLatestGapsAreKept() {
        horizon.saw(renewed("a", T0));
        for (int i = 0; i < LeaseWatchHorizon.KEPT + 5; i++) {
            clock.advance(Duration.ofSeconds(10));
            horizon.saw(renewed("a", clock.instant()));
        }
        assertThat(horizon.watched().gaps()).hasSize(LeaseWatchHorizon.KEPT);
        assertThat(horizon.watched().gaps().get(LeaseWatchHorizon.KEPT - 1).recovered()).isEqualTo(clock.instant());
    }
}
