package me.loutres.juneau.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PoolEntryTest {

    @ParameterizedTest(name = "bgp {0} -> {1}, usable {2} ({3})")
    @CsvSource(delimiter = '|', value = {
            // text               | canonical          | usable                      | usable count
            "192.0.2.0/24         | 192.0.2.0/24       | 192.0.2.1-192.0.2.254       | 254",
            "192.0.2.77/24        | 192.0.2.0/24       | 192.0.2.1-192.0.2.254       | 254",
            "'  192.0.2.0/24 '    | 192.0.2.0/24       | 192.0.2.1-192.0.2.254       | 254",
            "10.200.3.4/8         | 10.0.0.0/8         | 10.0.0.1-10.255.255.254     | 16777214",
            "255.255.255.255/8    | 255.0.0.0/8        | 255.0.0.1-255.255.255.254   | 16777214",
            "192.0.2.0/30         | 192.0.2.0/30       | 192.0.2.1-192.0.2.2         | 2",
            "192.0.2.7/31         | 192.0.2.6/31       | 192.0.2.6-192.0.2.7         | 2",
            "192.0.2.7/32         | 192.0.2.7/32       | 192.0.2.7                   | 1",
            "0.0.0.0/32           | 0.0.0.0/32         | 0.0.0.0                     | 1",
            "255.255.255.255/32   | 255.255.255.255/32 | 255.255.255.255             | 1",
    })
    void parsesCidrsMaskingHostBits(String text, String canonical, String usable, long count) {
        PoolEntry e = PoolEntry.parse("bgp", text);
        assertThat(e.canonical()).isEqualTo(canonical);
        assertThat(e.isCidr()).isTrue();
        assertThat(e.usable()).hasToString(usable);
        assertThat(e.usableCount()).isEqualTo(count);
        assertThat(e.text()).isEqualTo(text);
    }

    @ParameterizedTest(name = "arp {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "192.0.2.10-192.0.2.20         | 192.0.2.10-192.0.2.20 | 11",
            "'192.0.2.10 - 192.0.2.20'     | 192.0.2.10-192.0.2.20 | 11",
            "' 192.0.2.10-  192.0.2.20  '  | 192.0.2.10-192.0.2.20 | 11",
            "192.0.2.10-192.0.2.10         | 192.0.2.10-192.0.2.10 | 1",
            "192.0.2.0-192.0.2.255         | 192.0.2.0-192.0.2.255 | 256",
            "0.0.0.0-255.255.255.255       | 0.0.0.0-255.255.255.255 | 4294967296",
    })
    void parsesRangesUsingEveryAddress(String text, String canonical, long count) {
        PoolEntry e = PoolEntry.parse("arp", text);
        assertThat(e.canonical()).isEqualTo(canonical);
        assertThat(e.isCidr()).isFalse();
        assertThat(e.usable()).isEqualTo(e.range());
        assertThat(e.usableCount()).isEqualTo(count);
        assertThat(e.isEdge(e.range().first())).isFalse();
        assertThat(e.isEdge(e.range().last())).isFalse();
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "bgp | 192.0.2.0        | has no prefix length",
            "bgp | 192.0.2.0/       | invalid prefix length \"\"",
            "bgp | 192.0.2.0/x      | invalid prefix length \"x\"",
            "bgp | 192.0.2.0/-1     | invalid prefix length \"-1\"",
            "bgp | 192.0.2.0/123    | invalid prefix length \"123\"",
            "bgp | 192.0.2.0/7      | prefix length /7, outside /8 to /32",
            "bgp | 192.0.2.0/33     | prefix length /33, outside /8 to /32",
            "bgp | 192.0.2.0/24/1   | invalid prefix length \"24/1\"",
            "bgp | 192.0.2/24       | \"192.0.2\" is not an IPv4 address",
            "bgp | 300.0.2.0/24     | \"300.0.2.0\" is not an IPv4 address",
            "bgp | 192.0.2.1-192.0.2.9 | is a start-end range, but advertiseMode bgp takes CIDRs",
            "arp | 192.0.2.0/24     | is a CIDR, but advertiseMode arp takes start-end ranges",
            "arp | 192.0.2.10       | is not a start-end range",
            "arp | 192.0.2.10-      | invalid end \"\"",
            "arp | -192.0.2.10      | invalid start \"\"",
            "arp | 192.0.2.x-192.0.2.20 | invalid start \"192.0.2.x\"",
            "arp | 192.0.2.1-192.0.2.20-192.0.2.30 | invalid end \"192.0.2.20-192.0.2.30\"",
            "arp | 192.0.2.20-192.0.2.10 | starts after it ends (192.0.2.20 > 192.0.2.10)",
            "arp | '   '            | an entry is empty",
            "bgp | ''               | an entry is empty",
    })
    void refusesQuotingTheTextAndSayingWhatIsAccepted(String mode, String text, String why) {
        String accepted = mode.equals("bgp") ? "expected an IPv4 CIDR a.b.c.d/N with N from 8 to 32"
                : "expected an IPv4 range start-end with start <= end";
        assertThatThrownBy(() -> PoolEntry.parse(mode, text))
                .isInstanceOf(InvalidAddressException.class)
                .hasMessageContaining("\"" + text + "\"")
                .hasMessageContaining(why)
                .hasMessageContaining(accepted);
    }

    @Test
    void refusesAnUnknownMode() {
        assertThatThrownBy(() -> PoolEntry.parse("l2", "192.0.2.0/24"))
                .isInstanceOf(InvalidAddressException.class)
                .hasMessageContaining("\"192.0.2.0/24\"").hasMessageContaining("\"l2\" is not bgp or arp");
    }

    @ParameterizedTest(name = "{0}: edges {1}")
    @CsvSource(delimiter = '|', value = {
            "10.0.0.0/8     | true  | 10.0.0.0        | 10.255.255.255",
            "192.0.2.0/24   | true  | 192.0.2.0       | 192.0.2.255",
            "192.0.2.0/30   | true  | 192.0.2.0       | 192.0.2.3",
            "192.0.2.0/31   | false | 192.0.2.0       | 192.0.2.1",
            "192.0.2.9/32   | false | 192.0.2.9       | 192.0.2.9",
    })
    void networkAndBroadcastAreSkippedOnlyBelowSlash31(String cidr, boolean skips, String network, String broadcast) {
        PoolEntry e = PoolEntry.parse("bgp", cidr);
        long n = Ipv4.parse(network);
        long b = Ipv4.parse(broadcast);
        assertThat(e.skipsEdges()).isEqualTo(skips);
        assertThat(e.isEdge(n)).isEqualTo(skips);
        assertThat(e.isEdge(b)).isEqualTo(skips);
        assertThat(e.isUsable(n)).isEqualTo(!skips);
        assertThat(e.isUsable(b)).isEqualTo(!skips);
        assertThat(e.range()).isEqualTo(new AddressRange(n, b));
        assertThat(e.usableCount()).isEqualTo(skips ? e.range().size() - 2 : e.range().size());
    }

    @ParameterizedTest(name = "{0} {1} ^ {2} {3} = {4}")
    @CsvSource(delimiter = '|', value = {
            "bgp | 10.0.0.0/24  | bgp | 10.0.0.128/25   | 10.0.0.128-10.0.0.255",
            "bgp | 10.0.0.0/8   | bgp | 10.1.2.3/32     | 10.1.2.3",
            "bgp | 10.0.0.0/24  | arp | 10.0.0.250-10.0.1.5 | 10.0.0.250-10.0.0.255",
            "arp | 10.0.0.1-10.0.0.10 | arp | 10.0.0.10-10.0.0.20 | 10.0.0.10",
            "bgp | 10.0.0.0/24  | bgp | 10.0.1.0/24     | ",
            "arp | 10.0.0.1-10.0.0.10 | arp | 10.0.0.11-10.0.0.20 | ",
    })
    void overlapIsTheSharedAddressOrRangeEdgesIncluded(String m1, String t1, String m2, String t2, String shared) {
        PoolEntry a = PoolEntry.parse(m1, t1);
        PoolEntry b = PoolEntry.parse(m2, t2);
        assertThat(a.overlap(b).map(AddressRange::toString)).isEqualTo(Optional.ofNullable(shared));
        assertThat(b.overlap(a).map(AddressRange::toString)).isEqualTo(Optional.ofNullable(shared));
    }

    @Test
    void parseAllKeepsListOrder() {
        List<PoolEntry> all = PoolEntry.parseAll("bgp", List.of("10.0.1.0/24", "10.0.0.0/24"));
        assertThat(all).extracting(PoolEntry::canonical).containsExactly("10.0.1.0/24", "10.0.0.0/24");
    }

    @Test
    void acceptedTextFollowsTheMode() {
        assertThat(PoolEntry.acceptedFor("arp")).contains("start-end");
        assertThat(PoolEntry.acceptedFor("ARP")).contains("start-end");
        assertThat(PoolEntry.acceptedFor("bgp")).contains("CIDR");
    }
}
