package me.loutres.juneau.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BackoffTest {

    @ParameterizedTest(name = "after {0} failure(s): {1} ms")
    @CsvSource({"1, 20", "2, 40", "3, 80", "4, 160", "10, 10240", "12, 40960", "13, 60000", "40, 60000",
            "1000, 60000"})
    void doublesFromTheBaseUpToTheCap(int failures, long millis) {
        Backoff<String> b = new Backoff<>(Duration.ofMillis(20), Duration.ofSeconds(60));
        assertThat(b.delayMillis(failures)).isEqualTo(millis);
    }

    @Test
    void eachKeyHasItsOwnCountAndForgetStartsOver() {
        Backoff<String> b = new Backoff<>(Duration.ofMillis(10), Duration.ofSeconds(1));
        assertThat(b.next("a")).isEqualTo(Duration.ofMillis(10));
        assertThat(b.next("a")).isEqualTo(Duration.ofMillis(20));
        assertThat(b.next("b")).isEqualTo(Duration.ofMillis(10));
        assertThat(b.failures("a")).isEqualTo(2);
        b.forget("a");
        assertThat(b.failures("a")).isZero();
        assertThat(b.next("a")).isEqualTo(Duration.ofMillis(10));
    }

    @ParameterizedTest(name = "write refused {0} time(s): retry in {1} s")
    @CsvSource({"1, 1", "2, 2", "5, 16", "9, 256", "10, 300", "50, 300"})
    void aSlowerScaleSharesTheKeysCountAndHasItsOwnCap(int failures, long seconds) {
        Backoff<String> b = new Backoff<>(Duration.ofMillis(20), Duration.ofSeconds(60));
        Duration last = null;
        for (int i = 0; i < failures; i++) {
            last = b.next("k", Duration.ofSeconds(1), Duration.ofMinutes(5));
        }
        assertThat(last).isEqualTo(Duration.ofSeconds(seconds));
        assertThat(b.failures("k")).isEqualTo(failures);
    }

    @Test
    void refusesAnUnusableConfiguration() {
        assertThatThrownBy(() -> new Backoff<String>(Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessageContaining("0 < base <= max");
        assertThatThrownBy(() -> new Backoff<String>(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("0 < base <= max");
    }
}
