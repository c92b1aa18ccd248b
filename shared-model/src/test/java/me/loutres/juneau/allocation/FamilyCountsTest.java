package me.loutres.juneau.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.IpPoolEntry;
import org.junit.jupiter.api.Test;

class FamilyCountsTest {

    private static List<IpPoolEntry> entries(String mode, String... texts) {
        return java.util.Arrays.stream(texts).map(t -> IpPoolEntry.parse(mode, t)).toList();
    }

    @Test
    void aSlash64SaturatesAndStaysPositive() {
        Map<IpFamily, FamilyCounts> c = FamilyCounts.of(entries("bgp", "2001:db8:0:1::/64"),
                Map.of(IpFamily.IPV6, 1_000_000L));
        // 2^64 - 1 usable (the subnet-router anycast address left out): more than an int64 holds
        assertThat(c.get(IpFamily.IPV6)).isEqualTo(new FamilyCounts(Long.MAX_VALUE, 1_000_000L, Long.MAX_VALUE));
        assertThat(c).doesNotContainKey(IpFamily.IPV4);
    }

    @Test
    void manySlash64sNeverOverflow() {
        FamilyCounts c = FamilyCounts.of(entries("bgp", "2001:db8:0:1::/64", "2001:db8:0:2::/64", "2001:db8:0:3::/64"),
                Map.of()).get(IpFamily.IPV6);
        assertThat(c.total()).isEqualTo(Long.MAX_VALUE);
        assertThat(c.free()).isEqualTo(Long.MAX_VALUE);
        assertThat(c.allocated()).isZero();
    }

    @Test
    void exactBelowTheLimitAndPerFamily() {
        Map<IpFamily, FamilyCounts> c = FamilyCounts.of(entries("bgp", "192.0.2.0/24", "2001:db8::/120", "2001:db8:1::/127",
                "10.0.0.0/8"), Map.of(IpFamily.IPV4, 4L, IpFamily.IPV6, 2L));
        assertThat(c.get(IpFamily.IPV4)).isEqualTo(new FamilyCounts(254 + 16_777_214, 4, 254 + 16_777_214 - 4));
        // /120: 255 (anycast left out); /127: both addresses
        assertThat(c.get(IpFamily.IPV6)).isEqualTo(new FamilyCounts(257, 2, 255));
    }

    @Test
    void freeIsExactWhenTheTotalIsJustAboveTheLimit() {
        // 2^63 addresses: total saturates, and free = 2^63 - 5 is exact (below the limit)
        FamilyCounts c = FamilyCounts.of(entries("arp", "fd00::-fd00::7fff:ffff:ffff:ffff"), Map.of(IpFamily.IPV6, 5L))
                .get(IpFamily.IPV6);
        assertThat(c.total()).isEqualTo(Long.MAX_VALUE);
        assertThat(c.free()).isEqualTo(Long.MAX_VALUE - 4);
    }

    private static me.loutres.juneau.api.v1alpha1.AddressPool pool(String mode, String... texts) {
        me.loutres.juneau.api.v1alpha1.AddressPool p = new me.loutres.juneau.api.v1alpha1.AddressPool();
        p.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("p").build());
        p.setSpec(new me.loutres.juneau.api.v1alpha1.AddressPoolSpec());
        p.getSpec().setAdvertiseMode(mode);
        p.getSpec().setAddresses(List.of(texts));
        return p;
    }

    @Test
    void statusOfAnIpv4OnlyPoolHasNoFamilyBlocks() {
        assertThat(FamilyCounts.forStatus(pool("bgp", "192.0.2.0/24"), new PoolUsage("p", 254, 3), 0)).isEmpty();
    }

    @Test
    void statusOfADualPoolTakesIpv4FromTheAllocatorAndSaturatesIpv6() {
        // the allocator's IPv4 usage (node addresses, reserved ranges already out) is what ipv4 shows
        Map<IpFamily, FamilyCounts> c = FamilyCounts.forStatus(pool("bgp", "192.0.2.0/24", "2001:db8::/64", "junk"),
                new PoolUsage("p", 250, 3), 7);
        assertThat(c.get(IpFamily.IPV4)).isEqualTo(new FamilyCounts(250, 3, 247));
        assertThat(c.get(IpFamily.IPV6)).isEqualTo(new FamilyCounts(Long.MAX_VALUE, 7, Long.MAX_VALUE));
    }

    @Test
    void statusOfAnIpv6OnlyPoolAndOfOneBiggerThanA64() {
        Map<IpFamily, FamilyCounts> small = FamilyCounts.forStatus(pool("arp", "fd00::10-fd00::1f"),
                new PoolUsage("p", 0, 0), 2);
        assertThat(small).containsOnlyKeys(IpFamily.IPV6);
        assertThat(small.get(IpFamily.IPV6)).isEqualTo(new FamilyCounts(16, 2, 14));
        // an arp range wider than a /64 (2^80 addresses) saturates too, never negative
        FamilyCounts wide = FamilyCounts.forStatus(pool("arp", "fd00::-fd00::ffff:ffff:ffff:ffff:ffff"),
                new PoolUsage("p", 0, 0), 0).get(IpFamily.IPV6);
        assertThat(wide).isEqualTo(new FamilyCounts(Long.MAX_VALUE, 0, Long.MAX_VALUE));
    }
}
