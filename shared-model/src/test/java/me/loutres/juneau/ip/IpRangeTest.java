package me.loutres.juneau.ip;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IpRangeTest {

    private static IpRange r(String first, String last) {
        return new IpRange(IpAddress.parse(first), IpAddress.parse(last));
    }

    @Test
    void sizesAreExactUpToLongMaxThenSaturate() {
        assertThat(r("2001:db8::", "2001:db8::").size()).isEqualTo(1);
        assertThat(r("2001:db8::", "2001:db8::ffff").size()).isEqualTo(65536);
        assertThat(r("2001:db8::", "2001:db8::7fff:ffff:ffff:fffe").size()).isEqualTo(Long.MAX_VALUE);
        assertThat(r("2001:db8::", "2001:db8::7fff:ffff:ffff:ffff").size()).isEqualTo(Long.MAX_VALUE); // 2^63
        assertThat(r("2001:db8::", "2001:db8::ffff:ffff:ffff:ffff").size()).isEqualTo(Long.MAX_VALUE);
        assertThat(r("::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").size()).isEqualTo(Long.MAX_VALUE);
        // across the 64-bit boundary: 2 addresses
        assertThat(r("2001:db8:0:0:ffff:ffff:ffff:ffff", "2001:db8:0:1::").size()).isEqualTo(2);
        assertThat(r("0.0.0.0", "255.255.255.255").size()).isEqualTo(1L << 32);
    }

    @Test
    void saturatingAddNeverTurnsNegative() {
        assertThat(IpRange.saturatingAdd(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(IpRange.saturatingAdd(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(IpRange.saturatingAdd(2, 3)).isEqualTo(5);
    }

    @Test
    void intersectsWithinOneFamilyOnly() {
        assertThat(r("2001:db8::1", "2001:db8::9").intersection(r("2001:db8::5", "2001:db8::20")))
                .hasValueSatisfying(x -> assertThat(x).hasToString("2001:db8::5-2001:db8::9"));
        assertThat(r("2001:db8::1", "2001:db8::4").intersection(r("2001:db8::5", "2001:db8::20"))).isEmpty();
        assertThat(r("0.0.0.0", "0.0.0.9").intersection(r("::", "::9"))).isEmpty();
        assertThat(r("2001:db8::1", "2001:db8::9").contains(IpAddress.parse("2001:db8::9"))).isTrue();
    }

    @Test
    void specialPurposeRangesHoldWhatTheySay() {
        assertThat(Ipv6SpecialPurposeRange.containing(IpAddress.parse("fe80::1"))).hasValueSatisfying(
                s -> assertThat(s.cidr()).isEqualTo("fe80::/10"));
        assertThat(Ipv6SpecialPurposeRange.containing(IpAddress.parse("febf:ffff::1"))).isPresent();
        assertThat(Ipv6SpecialPurposeRange.containing(IpAddress.parse("fec0::1"))).isEmpty();
        assertThat(Ipv6SpecialPurposeRange.containing(IpAddress.parse("::ffff:10.0.0.1"))).hasValueSatisfying(
                s -> assertThat(s.cidr()).isEqualTo("::ffff:0:0/96"));
        assertThat(Ipv6SpecialPurposeRange.containing(IpAddress.parse("100::ffff"))).isPresent();
        assertThat(Ipv6SpecialPurposeRange.containing(IpAddress.parse("100:0:0:1::"))).isEmpty();
        assertThat(Ipv6SpecialPurposeRange.containing(IpAddress.parse("2001:db8::1"))).isEmpty();
        assertThat(Ipv6SpecialPurposeRange.containing(IpAddress.parse("fd00::1"))).isEmpty();
        assertThat(Ipv6SpecialPurposeRange.containing(IpAddress.parse("ff02::1"))).isPresent();
    }
}
