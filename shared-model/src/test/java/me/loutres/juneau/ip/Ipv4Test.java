package me.loutres.juneau.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Ipv4Test {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "0.0.0.0, 0",
            "0.0.0.1, 1",
            "10.0.0.1, 167772161",
            "192.0.2.10, 3221225994",
            "255.255.255.255, 4294967295",
            "128.0.0.0, 2147483648",
    })
    void parsesAndFormatsDottedQuads(String text, long value) {
        assertThat(Ipv4.parse(text)).isEqualTo(value);
        assertThat(Ipv4.format(value)).isEqualTo(text);
        assertThat(Ipv4.isValid(text)).isTrue();
    }

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvSource(delimiter = '|', value = {
            "1.2.3           | expected a dotted quad",
            "1.2.3.4.5       | expected a dotted quad",
            "1.2.3.4.        | expected a dotted quad",
            ".1.2.3          | expected a dotted quad",
            "1..2.3          | expected a dotted quad",
            "256.1.1.1       | octet 256 is above 255",
            "1.2.3.999       | octet 999 is above 255",
            "01.2.3.4        | leading zeros",
            "1.2.3.010       | leading zeros",
            "1.2.3.a         | expected a dotted quad",
            "1.2.3.-1        | expected a dotted quad",
            "1.2.3.1000      | expected a dotted quad",
            "::1             | expected a dotted quad",
            "'1.2.3.4 '      | expected a dotted quad",
            "' 1.2.3.4'      | expected a dotted quad",
            "''              | expected a dotted quad",
    })
    void refusesWithTheTextQuotedAndWhatIsAccepted(String text, String why) {
        assertThatThrownBy(() -> Ipv4.parse(text))
                .isInstanceOf(InvalidAddressException.class)
                .hasMessageContaining("\"" + text + "\"")
                .hasMessageContaining(why)
                .hasMessageContaining("such as 192.0.2.10");
        assertThat(Ipv4.isValid(text)).isFalse();
    }

    @Test
    void nullIsRefusedLikeEmptyText() {
        assertThatThrownBy(() -> Ipv4.parse(null)).isInstanceOf(InvalidAddressException.class)
                .hasMessageContaining("expected a dotted quad");
    }

    @ParameterizedTest(name = "/{0} -> {1}")
    @CsvSource({
            "0, 0.0.0.0",
            "1, 128.0.0.0",
            "8, 255.0.0.0",
            "24, 255.255.255.0",
            "31, 255.255.255.254",
            "32, 255.255.255.255",
    })
    void masks(int prefix, String mask) {
        assertThat(Ipv4.format(Ipv4.mask(prefix))).isEqualTo(mask);
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 4294967296L})
    void formatRefusesValuesOutside32Bits(long value) {
        assertThatThrownBy(() -> Ipv4.format(value)).isInstanceOf(IllegalArgumentException.class);
    }
}
