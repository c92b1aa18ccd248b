package me.loutres.juneau.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressRangeTest {

    private static AddressRange r(String first, String last) {
        return new AddressRange(Ipv4.parse(first), Ipv4.parse(last));
    }

    @ParameterizedTest(name = "{0}-{1} & {2}-{3} = {4}")
    @CsvSource({
            "10.0.0.0, 10.0.0.255, 10.0.0.128, 10.0.1.10, 10.0.0.128-10.0.0.255",
            "10.0.0.0, 10.0.0.255, 10.0.0.255, 10.0.1.10, 10.0.0.255",
            "10.0.0.5, 10.0.0.5, 10.0.0.0, 10.0.0.255, 10.0.0.5",
            "10.0.0.0, 10.0.0.255, 10.0.0.10, 10.0.0.20, 10.0.0.10-10.0.0.20",
            "10.0.0.0, 10.0.0.255, 10.0.1.0, 10.0.1.255, ",
            "0.0.0.0, 255.255.255.255, 255.255.255.255, 255.255.255.255, 255.255.255.255",
    })
    void intersectionIsTheSharedRangeBothWays(String a1, String a2, String b1, String b2, String shared) {
        AddressRange a = r(a1, a2);
        AddressRange b = r(b1, b2);
        Optional<String> expected = Optional.ofNullable(shared);
        assertThat(a.intersection(b).map(AddressRange::toString)).isEqualTo(expected);
        assertThat(b.intersection(a).map(AddressRange::toString)).isEqualTo(expected);
        assertThat(a.overlaps(b)).isEqualTo(shared != null);
        assertThat(b.overlaps(a)).isEqualTo(shared != null);
    }

    @Test
    void sizeOfTheWholeSpaceDoesNotOverflow() {
        assertThat(new AddressRange(0, Ipv4.MAX).size()).isEqualTo(1L << 32);
    }

    @Test
    void refusesReversedOrOutOfRangeBounds() {
        assertThatThrownBy(() -> new AddressRange(5, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AddressRange(-1, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AddressRange(0, Ipv4.MAX + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ordersByFirstThenLast() {
        assertThat(r("10.0.0.1", "10.0.0.9")).isLessThan(r("10.0.0.2", "10.0.0.3"));
        assertThat(r("10.0.0.1", "10.0.0.3")).isLessThan(r("10.0.0.1", "10.0.0.9"));
    }
}
