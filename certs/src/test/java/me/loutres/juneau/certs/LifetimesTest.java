package me.loutres.juneau.certs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LifetimesTest {
    @ParameterizedTest
    @CsvSource({"2160h, PT2160H", "90d, PT2160H", "1y, PT8760H", "1h30m, PT1H30M", "45s, PT45S", "P90D, PT2160H",
            "PT12H, PT12H", " 10D , PT240H"})
    void parsesOperatorSpellings(String text, Duration expected) {
        assertThat(Lifetimes.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "90", "d", "-1d", "1w", "1.5h", "P", "99999999999999999999d"})
    void refusesWithAHint(String text) {
        assertThatThrownBy(() -> Lifetimes.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use e.g. 2160h, 90d");
    }
}
