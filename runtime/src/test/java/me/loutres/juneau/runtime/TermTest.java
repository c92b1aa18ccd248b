package me.loutres.juneau.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A leader's term expires by itself at its renew deadline, on the monotonic clock it is given. */
class TermTest {
    private static final long MS = 1_000_000L;
    private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - 5_000 * MS);   // wraps during the test

    private Term term(long renewedAtMs) {
        return new Term(7, now::get, Duration.ofSeconds(10), at(renewedAtMs));
    }

    private long at(long ms) {
        return Long.MAX_VALUE - 5_000 * MS + ms * MS;
    }

    private void advanceTo(long ms) {
        now.set(at(ms));
    }

    @Test
    void aTermNobodyRenewsExpiresAtItsDeadlineWithoutBeingEnded() {
        Term t = term(0);
        advanceTo(9_999);
        assertThat(t.active()).isTrue();
        assertThat(t.remaining()).isEqualTo(Duration.ofMillis(1));
        advanceTo(10_000);
        assertThat(t.active()).isFalse();
        assertThat(t.expired()).isTrue();
        assertThat(t.remaining()).isZero();
        assertThatThrownBy(t::ensureActive).isInstanceOf(LostLeadershipException.class);
        assertThat(t).hasToString("term 7 (expired)");
    }

    @Test
    void aSuccessfulRenewMovesTheDeadlineFromWhenItsRequestStarted() {
        Term t = term(0);
        advanceTo(6_000);
        t.renewed(at(4_000));    // the renew's read started at 4 s and its write succeeded at 6 s
        advanceTo(13_999);
        assertThat(t.active()).isTrue();
        advanceTo(14_000);
        assertThat(t.active()).isFalse();
    }

    @Test
    void aRenewOlderThanTheLastOneChangesNothing() {
        Term t = term(0);
        advanceTo(5_000);
        t.renewed(at(5_000));
        t.renewed(at(1_000));   // a slow write whose answer came last
        advanceTo(14_999);
        assertThat(t.active()).isTrue();
    }

    @Test
    void anExpiredTermNeverComesBackToLife() {
        Term t = term(0);
        advanceTo(12_000);
        t.renewed(at(9_000));   // started in time, answered after the deadline: the standby may already lead
        assertThat(t.active()).isFalse();
    }

    @Test
    void anEndedTermIsOverWhateverTheClockSays() {
        Term t = term(0);
        advanceTo(1_000);
        assertThat(t.end()).isTrue();
        assertThat(t.end()).isFalse();
        assertThat(t.active()).isFalse();
        assertThat(t.expired()).isFalse();
        assertThat(t.remaining()).isZero();
        assertThat(t).hasToString("term 7 (ended)");
    }

    @Test
    void aTermWithoutALeaseRunsUntilEnded() {
        Term t = new Term(1);
        assertThat(t.active()).isTrue();
        assertThat(t.expired()).isFalse();
        assertThat(t.remaining()).isGreaterThan(Duration.ofDays(365));
        t.end();
        assertThat(t.active()).isFalse();
    }
}
