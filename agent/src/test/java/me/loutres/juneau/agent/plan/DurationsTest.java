package me.loutres.juneau.agent.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {
    @ParameterizedTest
    @CsvSource({"90s,90", "0s,0", "1m30s,90", "3m,180", "1h,3600", "1500ms,1", "2.5s,2"})
    void parses(String text, long seconds) {
        assertThat(Durations.seconds(text)).isEqualTo(seconds);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "90", "s", "1x", "-1s", "1s2"})
    void refusesWithTheText(String text) {
        assertThatThrownBy(() -> Durations.seconds(text)).hasMessageContaining("'" + text + "'");
    }
}
