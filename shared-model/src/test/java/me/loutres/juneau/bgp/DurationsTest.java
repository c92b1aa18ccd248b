package me.loutres.juneau.bgp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The duration form Kubernetes and Go read, checked against the table of Go's own time package tests
 * ({@code parseDurationTests}, {@code parseDurationErrorTests}), float rounding and overflow edges included.
 */
class DurationsTest {
    static final long S = 1_000_000_000L;
    static final long MS = 1_000_000L;
    static final long US = 1_000L;
    static final long M = 60 * S;
    static final long H = 60 * M;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "0|0", "5s|5000000000", "30s|30000000000", "1478s|1478000000000",
            "-5s|-5000000000", "+5s|5000000000", "-0|0", "+0|0",
            "5.0s|5000000000", "5.6s|5600000000", "5.s|5000000000", ".5s|500000000", "1.0s|1000000000",
            "1.00s|1000000000", "1.004s|1004000000", "1.0040s|1004000000", "100.00100s|100001000000",
            "10ns|10", "11us|11000", "12\u00b5s|12000", "12\u03bcs|12000", "13ms|13000000", "14s|14000000000",
            "15m|900000000000", "16h|57600000000000",
            "3h30m|12600000000000", "10.5s4m|250500000000", "-2m3.4s|-123400000000",
            "1h2m3s4ms5us6ns|3723004005006", "39h9m14.425s|140954425000000",
            "52763797000ns|52763797000",
            "0.3333333333333333333h|1200000000000",
            "9007199254740993ns|9007199254740993",
            "9223372036854775807ns|9223372036854775807", "9223372036854775.807us|9223372036854775807",
            "9223372036s854ms775us807ns|9223372036854775807",
            "-9223372036854775808ns|-9223372036854775808", "-9223372036854775.808us|-9223372036854775808",
            "-9223372036s854ms775us808ns|-9223372036854775808", "-2562047h47m16.854775808s|-9223372036854775808",
            "0.100000000000000000000h|360000000000",
            "0.830103483285477580700h|2988372539827",
            // the examples: what admission let through and the agent could not read
            "3.s|3000000000", "0.3s2.4s0.3s|3000000000", "1h2m|3720000000000"})
    void readsWhatGoReads(String text, long nanos) {
        assertThat(Durations.nanos(text)).isEqualTo(nanos);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "3", "-", "s", ".", "-.", ".s", "+.s", "1d", "\u0085\u0085", "\u00ffff",
            "hello \u00ffff world", "\ufffd", "\ufffd hello \ufffd world",
            "9223372036854775810ns", "9223372036854775808ns", "-9223372036854775809ns", "9223372036854776us",
            "3000000h", "9223372036854775.808us", "9223372036854ms775us808ns",
            " 90s", "90s ", "90 s", "1S", "1sec"})
    void refusesWhatGoRefuses(String text) {
        assertThat(Durations.nanos(text)).isNull();
        assertThat(Durations.isDuration(text)).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {"90s|90", "1m30s|90", "0|0", "3.s|3", "1500ms|null",
            ".5s|null", "2000ms|2", "1.5m|90", "x|null"})
    void wholeSecondsOnly(String text, Long seconds) {
        assertThat(Durations.wholeSeconds(text)).isEqualTo(seconds);
    }
}
