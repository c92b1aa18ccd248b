package me.loutres.juneau.bgp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;

class CarriedAddressesTest {
    static AddressRange r(String first, String last) {
        return new AddressRange(Ipv4.parse(first), Ipv4.parse(last));
    }

    @Test
    void adjacentAndOverlappingRoutesMergeIntoFewEntries() {
        assertThat(CarriedAddresses.of(List.of(r("198.18.100.12", "198.18.100.12"), r("198.18.100.10", "198.18.100.10"),
                r("198.18.100.11", "198.18.100.11"), r("198.18.101.0", "198.18.101.255"),
                r("198.18.101.7", "198.18.101.7"), r("198.18.100.20", "198.18.100.20"))))
                .containsExactly("198.18.100.10-198.18.100.12", "198.18.100.20", "198.18.101.0-198.18.101.255");
        assertThat(CarriedAddresses.of(List.of())).isEmpty();
    }

    @Test
    void aVipIsCoveredOnlyByAnEntryThatHoldsIt() {
        List<String> entries = List.of("198.18.100.10-198.18.100.12", "198.18.100.20", "not an address", "1.2.3.4-x");
        assertThat(CarriedAddresses.covers(entries, "198.18.100.10")).isTrue();
        assertThat(CarriedAddresses.covers(entries, "198.18.100.12")).isTrue();
        assertThat(CarriedAddresses.covers(entries, "198.18.100.20")).isTrue();
        assertThat(CarriedAddresses.covers(entries, "198.18.100.13")).isFalse();
        assertThat(CarriedAddresses.covers(entries, "1.2.3.4")).isFalse();
        assertThat(CarriedAddresses.covers(entries, "2001:db8::1")).isFalse();
        assertThat(CarriedAddresses.covers(List.of(), "198.18.100.10")).isFalse();
        assertThat(CarriedAddresses.covers(null, "198.18.100.10")).isFalse();
    }
}
