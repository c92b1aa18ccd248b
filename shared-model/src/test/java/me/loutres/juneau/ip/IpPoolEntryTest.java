package me.loutres.juneau.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IpPoolEntryTest {

    @ParameterizedTest(name = "bgp {0} -> {1}, usable {2} ({3})")
    @CsvSource(delimiter = '|', value = {
            // text                   | canonical            | usable                                         | count
            "2001:db8:0:1::/64        | 2001:db8:0:1::/64    | 2001:db8:0:1::1-2001:db8:0:1:ffff:ffff:ffff:ffff | 18446744073709551615",
            "2001:db8:0:1:2:3:4:5/64  | 2001:db8:0:1::/64    | 2001:db8:0:1::1-2001:db8:0:1:ffff:ffff:ffff:ffff | 18446744073709551615",
            "fd00::/120               | fd00::/120           | fd00::1-fd00::ff                               | 255",
            "' 2001:DB8::/126 '       | 2001:db8::/126       | 2001:db8::1-2001:db8::3                        | 3",
            "2001:db8::5/127          | 2001:db8::4/127      | 2001:db8::4-2001:db8::5                        | 2",
            "2001:db8::5/128          | 2001:db8::5/128      | 2001:db8::5                                    | 1",
    })
    void parsesIpv6CidrsSkippingOnlyTheSubnetRouterAnycast(String text, String canonical, String usable, String count) {
        IpPoolEntry e = IpPoolEntry.parse("bgp", text);
        assertThat(e.family()).isEqualTo(IpFamily.IPV6);
        assertThat(e.canonical()).isEqualTo(canonical);
        assertThat(e.usable()).hasToString(usable);
        // a /64 holds 2^64 - 1 usable addresses: more than a long, so the count saturates
        long expected = Long.parseUnsignedLong(count) < 0 ? Long.MAX_VALUE : Long.parseUnsignedLong(count);
        assertThat(e.usableCount()).isEqualTo(expected);
        assertThat(e.ipv4()).isEmpty();
    }

    @Test
    void theAnycastAddressIsAnEdgeAndIpv6HasNoBroadcast() {
        IpPoolEntry e = IpPoolEntry.parse("bgp", "2001:db8::/120");
        assertThat(e.edge(IpAddress.parse("2001:db8::"))).contains("the subnet-router anycast address");
        assertThat(e.edge(IpAddress.parse("2001:db8::ff"))).isEmpty();
        assertThat(e.isUsable(IpAddress.parse("2001:db8::ff"))).isTrue();
        IpPoolEntry v4 = IpPoolEntry.parse("bgp", "192.0.2.0/24");
        assertThat(v4.edge(IpAddress.parse("192.0.2.0"))).contains("the network address");
        assertThat(v4.edge(IpAddress.parse("192.0.2.255"))).contains("the broadcast address");
    }

    @ParameterizedTest(name = "arp {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "2001:db8::10-2001:db8::20           | 2001:db8::10-2001:db8::20 | 17",
            "' 2001:db8::10 - 2001:DB8::10 '     | 2001:db8::10-2001:db8::10 | 1",
            "fd00::-fd00::ffff:ffff:ffff:ffff    | fd00::-fd00::ffff:ffff:ffff:ffff | 9223372036854775807",
    })
    void parsesIpv6RangesUsingEveryAddress(String text, String canonical, long count) {
        IpPoolEntry e = IpPoolEntry.parse("arp", text);
        assertThat(e.canonical()).isEqualTo(canonical);
        assertThat(e.usable()).isEqualTo(e.range());
        assertThat(e.usableCount()).isEqualTo(count);
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "bgp | 2001:db8::/63           | has prefix length /63, outside /64 to /128",
            "bgp | 2001:db8::/129          | has prefix length /129, outside /64 to /128",
            "bgp | 2001:db8::              | has no prefix length",
            "bgp | 2001:db8::1-2001:db8::9 | is a start-end range, but advertiseMode bgp takes CIDRs",
            "bgp | 2001:db8::/x            | invalid prefix length \"x\"",
            "bgp | 2001:db8::g/64          | is not a valid CIDR",
            "bgp | fe80::1%eth0/64         | has a zone id",
            "arp | 2001:db8::/64           | is a CIDR, but advertiseMode arp takes start-end ranges",
            "arp | 2001:db8::20-2001:db8::10 | starts after it ends",
            "arp | 192.0.2.1-2001:db8::1   | mixes IPv4 and IPv6; a range is of one family",
            "arp | 2001:db8::1             | is not a start-end range",
            "arp | 2001:db8::1-2001:db8::x | has an invalid end",
    })
    void refusesBadIpv6Entries(String mode, String text, String words) {
        assertThatThrownBy(() -> IpPoolEntry.parse(mode, text)).isInstanceOf(InvalidAddressException.class)
                .hasMessageContaining(words).hasMessageContaining("IPv6");
    }

    @Test
    void ipv4EntriesAreTheOldEntriesWithTheOldWords() {
        IpPoolEntry e = IpPoolEntry.parse("bgp", "192.0.2.77/24");
        assertThat(e.ipv4()).contains(PoolEntry.parse("bgp", "192.0.2.77/24"));
        assertThat(e.canonical()).isEqualTo("192.0.2.0/24");
        assertThat(e.usableCount()).isEqualTo(254);
        assertThatThrownBy(() -> IpPoolEntry.parse("bgp", "192.0.2.0/7"))
                .hasMessage(catchMessage(() -> PoolEntry.parse("bgp", "192.0.2.0/7")));
    }

    @Test
    void familiesNeverOverlap() {
        IpPoolEntry v6 = IpPoolEntry.parse("arp", "::-::ffff:ffff");
        IpPoolEntry v4 = IpPoolEntry.parse("arp", "0.0.0.0-255.255.255.255");
        assertThat(v6.overlap(v4)).isEmpty();
        assertThat(v6.overlap(IpPoolEntry.parse("arp", "::5-::7"))).hasValueSatisfying(r -> assertThat(r).hasToString("::5-::7"));
    }

    private static String catchMessage(Runnable r) {
        try {
            r.run();
            return null;
        } catch (InvalidAddressException e) {
            return e.getMessage();
        }
    }
}
