package me.loutres.juneau.agent.arp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AnnounceScheduleTest {
    @Test
    void theDefaultIsAtOnceThenEvery1100MsUntil5s() {
        assertThat(AnnounceSchedule.DEFAULT.offsets()).containsExactly(Duration.ZERO, Duration.ofMillis(1100),
                Duration.ofMillis(2200), Duration.ofMillis(3300), Duration.ofMillis(4400));
    }

    @Test
    void aWindowOfZeroSendsNothing() {
        assertThat(AnnounceSchedule.NONE.offsets()).isEmpty();
    }

    @Test
    void aWindowShorterThanTheIntervalSendsOnlyTheFirstRound() {
        assertThat(new AnnounceSchedule(Duration.ofSeconds(2), Duration.ofSeconds(1)).offsets())
                .containsExactly(Duration.ZERO);
    }

    @Test
    void rejectsANonPositiveInterval() {
        assertThatThrownBy(() -> new AnnounceSchedule(Duration.ZERO, Duration.ofSeconds(5)))
                .hasMessage("gratuitous ARP interval must be positive, got PT0S");
    }
}
