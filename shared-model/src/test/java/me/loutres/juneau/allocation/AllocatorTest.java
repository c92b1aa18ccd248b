package me.loutres.juneau.allocation;

import static me.loutres.juneau.ip.Ipv4.format;
import static me.loutres.juneau.ip.Ipv4.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import me.loutres.juneau.ip.PoolEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class AllocatorTest {

    private static void pool(Allocator a, String name, String mode, String... entries) {
        a.upsertPool(name, mode, Arrays.stream(entries).map(e -> PoolEntry.parse(mode, e)).toList());
    }

    private static String vip(AllocationResult r) {
        assertThat(r).isInstanceOf(AllocationResult.Allocated.class);
        AllocationResult.Allocated a = (AllocationResult.Allocated) r;
        return format(a.address()) + "@" + a.pool();
    }

    private static List<String> allocateMany(Allocator a, List<String> order, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            AllocationResult r = a.allocate("ns/s" + i, order, OptionalLong.empty());
            out.add(r instanceof AllocationResult.Allocated ? vip(r) : r.getClass().getSimpleName());
        }
        return out;
    }

    static Stream<Arguments> firstFitOrders() {
        return Stream.of(
                Arguments.of("pools in network order, edges of a /30 skipped",
                        List.of("a:bgp:10.0.0.0/30", "b:bgp:10.0.1.0/31"), List.of("a", "b"),
                        List.of("10.0.0.1@a", "10.0.0.2@a", "10.0.1.0@b", "10.0.1.1@b", "Exhausted")),
                Arguments.of("network order wins over the order pools became known",
                        List.of("a:bgp:10.0.0.0/30", "b:bgp:10.0.1.0/31"), List.of("b", "a"),
                        List.of("10.0.1.0@b", "10.0.1.1@b", "10.0.0.1@a", "10.0.0.2@a", "Exhausted")),
                Arguments.of("entries in list order, not numeric order",
                        List.of("a:bgp:10.0.9.0/31,10.0.0.0/32"), List.of("a"),
                        List.of("10.0.9.0@a", "10.0.9.1@a", "10.0.0.0@a", "Exhausted")),
                Arguments.of("/32 and /31 use every address",
                        List.of("a:bgp:10.0.0.7/32,10.0.0.8/31"), List.of("a"),
                        List.of("10.0.0.7@a", "10.0.0.8@a", "10.0.0.9@a", "Exhausted")),
                Arguments.of("arp ranges use every address",
                        List.of("a:arp:10.0.0.0-10.0.0.1, 10.0.0.255 - 10.0.0.255"), List.of("a"),
                        List.of("10.0.0.0@a", "10.0.0.1@a", "10.0.0.255@a", "Exhausted")),
                Arguments.of("an address two entries cover belongs to the first; the edge of a /30 is usable via a /32",
                        List.of("a:bgp:10.0.0.0/30,10.0.0.0/32,10.0.0.1/32"), List.of("a"),
                        List.of("10.0.0.1@a", "10.0.0.2@a", "10.0.0.0@a", "Exhausted")),
                Arguments.of("an entry that earlier entries cover adds nothing",
                        List.of("a:bgp:10.0.0.0/30,10.0.0.1/32"), List.of("a"),
                        List.of("10.0.0.1@a", "10.0.0.2@a", "Exhausted")),
                Arguments.of("unknown pools in the order are skipped",
                        List.of("a:bgp:10.0.0.0/32"), List.of("ghost", "a"),
                        List.of("10.0.0.0@a", "Exhausted")),
                Arguments.of("a pool listed twice is used once",
                        List.of("a:bgp:10.0.0.0/32"), List.of("a", "a"),
                        List.of("10.0.0.0@a", "Exhausted")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("firstFitOrders")
    void firstFit(String why, List<String> pools, List<String> order, List<String> expected) {
        Allocator a = new Allocator();
        for (String p : pools) {
            String[] f = p.split(":");
            pool(a, f[0], f[1], f[2].split(","));
        }
        assertThat(allocateMany(a, order, expected.size())).containsExactlyElementsOf(expected);
    }

    @Test
    void releasedAddressIsTheLowestFreeAgain() {
        Allocator a = new Allocator();
        pool(a, "a", "bgp", "10.0.0.0/29");
        allocateMany(a, List.of("a"), 4);
        assertThat(a.release("ns/s1")).contains(new AllocationRecord("ns/s1", "a", parse("10.0.0.2")));
        assertThat(vip(a.allocate("ns/new", List.of("a"), OptionalLong.empty()))).isEqualTo("10.0.0.2@a");
        assertThat(vip(a.allocate("ns/next", List.of("a"), OptionalLong.empty()))).isEqualTo("10.0.0.5@a");
    }

    @Test
    void releaseOfAnOwnerWithoutAddressIsEmpty() {
        Allocator a = new Allocator();
        assertThat(a.release("ns/none")).isEmpty();
    }

    @Test
    void allocateIsIdempotentPerOwnerWhateverItAsksNow() {
        Allocator a = new Allocator();
        pool(a, "a", "bgp", "10.0.0.0/24");
        pool(a, "b", "bgp", "10.0.1.0/24");
        AllocationResult first = a.allocate("ns/web", List.of("a"), OptionalLong.empty());
        assertThat(a.allocate("ns/web", List.of("a"), OptionalLong.empty())).isEqualTo(first);
        assertThat(a.allocate("ns/web", List.of("b"), OptionalLong.of(parse("10.0.1.9")))).isEqualTo(first);
        assertThat(a.records()).hasSize(1);
        assertThat(a.holderOf(parse("10.0.1.9"))).isEmpty();
    }

    static Stream<Arguments> requested() {
        return Stream.of(
                Arguments.of("inside the first pool", "10.0.0.77", "ALLOCATED 10.0.0.77@a"),
                Arguments.of("inside a later pool", "10.0.1.1", "ALLOCATED 10.0.1.1@b"),
                Arguments.of("inside an arp range, also its first address", "192.168.5.10", "ALLOCATED 192.168.5.10@c"),
                Arguments.of("every address of a /31", "10.0.1.0", "ALLOCATED 10.0.1.0@b"),
                Arguments.of("network address of a /24", "10.0.0.0", "OUTSIDE"),
                Arguments.of("broadcast address of a /24", "10.0.0.255", "OUTSIDE"),
                Arguments.of("outside every pool", "10.9.9.9", "OUTSIDE"),
                Arguments.of("in a pool the allocator knows but the network does not list", "172.16.0.5", "OUTSIDE"),
                Arguments.of("held by another Service", "10.0.0.5", "IN_USE ns/holder"),
                Arguments.of("a node address in an arp pool", "192.168.5.11", "IN_USE " + Allocator.NODE_ADDRESS_HOLDER),
                Arguments.of("a node address in a bgp pool is fine", "10.0.0.9", "ALLOCATED 10.0.0.9@a"));
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @MethodSource("requested")
    void requestedAddress(String why, String ip, String expected) {
        Allocator a = new Allocator();
        pool(a, "a", "bgp", "10.0.0.0/24");
        pool(a, "b", "bgp", "10.0.1.0/31");
        pool(a, "c", "arp", "192.168.5.10-192.168.5.20");
        pool(a, "other", "bgp", "172.16.0.0/24");
        a.setExcludedAddresses(Set.of(parse("192.168.5.11"), parse("10.0.0.9")));
        a.allocate("ns/holder", List.of("a"), OptionalLong.of(parse("10.0.0.5")));

        AllocationResult r = a.allocate("ns/web", List.of("a", "b", "c"), OptionalLong.of(parse(ip)));

        String got;
        if (r instanceof AllocationResult.Allocated al) {
            got = "ALLOCATED " + format(al.address()) + "@" + al.pool();
            assertThat(a.holderOf(parse(ip))).contains("ns/web");
        } else if (r instanceof AllocationResult.RequestedInUse u) {
            got = "IN_USE " + u.holder();
            assertThat(u.address()).isEqualTo(parse(ip));
            assertThat(a.allocationOf("ns/web")).isEmpty();
        } else if (r instanceof AllocationResult.RequestedOutsidePools o) {
            got = "OUTSIDE";
            assertThat(o.address()).isEqualTo(parse(ip));
            assertThat(o.poolRanges()).containsExactly("10.0.0.1-10.0.0.254 (a)", "10.0.1.0-10.0.1.1 (b)",
                    "192.168.5.10-192.168.5.20 (c)");
            assertThat(a.allocationOf("ns/web")).isEmpty();
        } else {
            got = r.toString();
        }
        assertThat(got).isEqualTo(expected);
    }

    @Test
    void requestedAddressOfAnotherNetworkHeldBySomeoneIsOutsideNotInUse() {
        Allocator a = new Allocator();
        pool(a, "a", "bgp", "10.0.0.0/24");
        pool(a, "x", "bgp", "10.5.0.0/24");
        a.allocate("ns/holder", List.of("x"), OptionalLong.of(parse("10.5.0.1")));
        assertThat(a.allocate("ns/web", List.of("a"), OptionalLong.of(parse("10.5.0.1"))))
                .isInstanceOf(AllocationResult.RequestedOutsidePools.class);
    }

    @Test
    void requestedAddressIsTakenOutOfFirstFit() {
        Allocator a = new Allocator();
        pool(a, "a", "bgp", "10.0.0.0/29");
        a.allocate("ns/req", List.of("a"), OptionalLong.of(parse("10.0.0.2")));
        assertThat(allocateMany(a, List.of("a"), 6))
                .containsExactly("10.0.0.1@a", "10.0.0.3@a", "10.0.0.4@a", "10.0.0.5@a", "10.0.0.6@a", "Exhausted");
    }

    @Test
    void exhaustedReportsEveryPoolOfTheNetworkInOrder() {
        Allocator a = new Allocator();
        pool(a, "a", "bgp", "10.0.0.0/30");
        pool(a, "b", "arp", "10.0.1.1-10.0.1.1");
        allocateMany(a, List.of("b", "a"), 3);
        assertThat(a.allocate("ns/late", List.of("b", "ghost", "a"), OptionalLong.empty()))
                .isEqualTo(new AllocationResult.Exhausted(List.of(new PoolUsage("b", 1, 1), new PoolUsage("a", 2, 2))));
        assertThat(a.allocate("ns/late", List.of("ghost"), OptionalLong.empty()))
                .isEqualTo(new AllocationResult.Exhausted(List.of()));
    }

    @ParameterizedTest(name = "{0}: total {1}")
    @CsvSource({
            "10.0.0.0/8, 16777214",
            "10.0.0.0/24, 254",
            "10.0.0.0/30, 2",
            "10.0.0.0/31, 2",
            "10.0.0.0/32, 1",
    })
    void totalsFollowTheEdgeRules(String cidr, long total) {
        Allocator a = new Allocator();
        pool(a, "p", "bgp", cidr);
        assertThat(a.usage("p")).isEqualTo(new PoolUsage("p", total, 0));
        assertThat(a.usage("p").free()).isEqualTo(total);
    }

    @Test
    void countsOfManySlash8PoolsDoNotOverflow() {
        Allocator a = new Allocator();
        long sum = 0;
        for (int i = 1; i <= 200; i++) {
            pool(a, "p" + i, "bgp", i + ".0.0.0/8");
            sum += a.usage("p" + i).total();
        }
        assertThat(sum).isEqualTo(200L * 16_777_214L).isGreaterThan(Integer.MAX_VALUE);
        a.allocate("ns/x", List.of("p1"), OptionalLong.empty());
        assertThat(a.usage("p1")).isEqualTo(new PoolUsage("p1", 16_777_214L, 1));
        assertThat(a.usage("p1").free()).isEqualTo(16_777_213L);
    }

    @Test
    void unknownPoolHasNoAddresses() {
        assertThat(new Allocator().usage("nope")).isEqualTo(new PoolUsage("nope", 0, 0));
    }

    @Test
    void excludedNodeAddressesAreNeverHandedOutFromArpPoolsAndReduceTheirTotal() {
        Allocator a = new Allocator();
        pool(a, "arp", "arp", "10.0.0.1-10.0.0.4");
        pool(a, "bgp", "bgp", "10.0.1.0/30");
        a.setExcludedAddresses(Set.of(parse("10.0.0.1"), parse("10.0.0.3"), parse("10.0.1.1")));
        assertThat(a.usage("arp")).isEqualTo(new PoolUsage("arp", 2, 0));
        assertThat(a.usage("bgp")).isEqualTo(new PoolUsage("bgp", 2, 0));
        assertThat(allocateMany(a, List.of("arp", "bgp"), 5))
                .containsExactly("10.0.0.2@arp", "10.0.0.4@arp", "10.0.1.1@bgp", "10.0.1.2@bgp", "Exhausted");

        // the node leaves: its address becomes allocatable again
        a.setExcludedAddresses(Set.of(parse("10.0.0.1")));
        assertThat(a.usage("arp")).isEqualTo(new PoolUsage("arp", 3, 2));
        assertThat(vip(a.allocate("ns/back", List.of("arp"), OptionalLong.empty()))).isEqualTo("10.0.0.3@arp");
    }

    @Test
    void aRestoredRecordOnANodeAddressStaysHeldAndIsNotFreedToOthers() {
        Allocator a = new Allocator();
        pool(a, "arp", "arp", "10.0.0.1-10.0.0.2");
        a.restore(List.of(new AllocationRecord("ns/old", "arp", parse("10.0.0.1"))));
        a.setExcludedAddresses(Set.of(parse("10.0.0.1")));
        assertThat(a.usage("arp")).isEqualTo(new PoolUsage("arp", 2, 1));
        a.release("ns/old");
        assertThat(a.usage("arp")).isEqualTo(new PoolUsage("arp", 1, 0));
        assertThat(allocateMany(a, List.of("arp"), 2)).containsExactly("10.0.0.2@arp", "Exhausted");
    }

    @Test
    void reservedRangesAreNeverHandedOutFromAnyPoolAndReduceTheirTotal() {
        Allocator a = new Allocator();
        pool(a, "bgp", "bgp", "10.97.0.0/29");
        pool(a, "arp", "arp", "10.244.1.250-10.244.2.3");
        // a ServiceCIDR and a Node's podCIDR learnt after the pools were stored
        a.setReservedRanges(List.of(range("10.96.0.0", "10.111.255.255"), range("10.244.1.0", "10.244.1.255")));
        assertThat(a.usage("bgp")).isEqualTo(new PoolUsage("bgp", 0, 0));
        assertThat(a.reservedCount("bgp")).isEqualTo(6);
        assertThat(a.usage("arp")).isEqualTo(new PoolUsage("arp", 4, 0));
        assertThat(a.reservedCount("arp")).isEqualTo(6);
        assertThat(allocateMany(a, List.of("bgp", "arp"), 5)).containsExactly("10.244.2.0@arp", "10.244.2.1@arp",
                "10.244.2.2@arp", "10.244.2.3@arp", "Exhausted");
        // asking for one by name is a configuration mistake no release can fix
        assertThat(a.allocate("ns/asks", List.of("bgp"), OptionalLong.of(parse("10.97.0.3"))))
                .isEqualTo(new AllocationResult.RequestedInUse(parse("10.97.0.3"), Allocator.CLUSTER_RANGE_HOLDER));

        // the ServiceCIDR goes: its addresses are free again, lowest first
        a.setReservedRanges(List.of(range("10.244.1.0", "10.244.1.255")));
        assertThat(a.usage("bgp")).isEqualTo(new PoolUsage("bgp", 6, 0));
        assertThat(a.reservedCount("bgp")).isZero();
        assertThat(vip(a.allocate("ns/back", List.of("bgp"), OptionalLong.empty()))).isEqualTo("10.97.0.1@bgp");
    }

    @Test
    void aVipHeldBeforeItsRangeWasLearntStaysHeldCountsAsAllocatedAndIsReported() {
        Allocator a = new Allocator();
        pool(a, "p", "bgp", "10.244.1.0/29");
        assertThat(vip(a.allocate("ns/live", List.of("p"), OptionalLong.empty()))).isEqualTo("10.244.1.1@p");
        a.setReservedRanges(List.of(range("10.244.1.0", "10.244.1.3")));
        // the live VIP is not taken back: taking it would cut its traffic; it is reported instead
        assertThat(a.allocationOf("ns/live")).contains(new AllocationRecord("ns/live", "p", parse("10.244.1.1")));
        assertThat(a.heldInReserved("p")).containsExactly(new AllocationRecord("ns/live", "p", parse("10.244.1.1")));
        assertThat(a.reservedCount("p")).isEqualTo(2); // .2 and .3; .0 is the network address, never usable
        assertThat(a.usage("p")).isEqualTo(new PoolUsage("p", 4, 1));
        assertThat(allocateMany(a, List.of("p"), 4)).containsExactly("10.244.1.4@p", "10.244.1.5@p",
                "10.244.1.6@p", "Exhausted");
        // released, it is reserved like its neighbours, not free
        a.release("ns/live");
        assertThat(a.heldInReserved("p")).isEmpty();
        assertThat(a.reservedCount("p")).isEqualTo(3);
        assertThat(a.usage("p")).isEqualTo(new PoolUsage("p", 3, 3));
    }

    @Test
    void reservedRangesSetBeforeThePoolExistsApplyAndCountANodeAddressInsideThemOnce() {
        Allocator a = new Allocator();
        a.setReservedRanges(List.of(range("10.244.3.0", "10.244.3.127")));
        a.setExcludedAddresses(Set.of(parse("10.244.3.10"), parse("10.244.3.200")));
        pool(a, "arp", "arp", "10.244.3.1-10.244.3.254");
        // 254 usable, 127 reserved (.1-.127), .200 excluded; .10 is both and counts once, as reserved
        assertThat(a.reservedCount("arp")).isEqualTo(127);
        assertThat(a.usage("arp")).isEqualTo(new PoolUsage("arp", 126, 0));
        a.setExcludedAddresses(Set.of(parse("10.244.3.200")));
        assertThat(a.usage("arp")).isEqualTo(new PoolUsage("arp", 126, 0));
        a.setReservedRanges(List.of());
        assertThat(a.usage("arp")).isEqualTo(new PoolUsage("arp", 253, 0));
        assertThat(vip(a.allocate("ns/first", List.of("arp"), OptionalLong.empty()))).isEqualTo("10.244.3.1@arp");
    }

    private static me.loutres.juneau.ip.AddressRange range(String first, String last) {
        return new me.loutres.juneau.ip.AddressRange(parse(first), parse(last));
    }

    @Test
    void exclusionSetBeforeThePoolExistsApplies() {
        Allocator a = new Allocator();
        a.setExcludedAddresses(Set.of(parse("10.0.0.1")));
        pool(a, "arp", "arp", "10.0.0.1-10.0.0.2");
        assertThat(a.usage("arp")).isEqualTo(new PoolUsage("arp", 1, 0));
        assertThat(allocateMany(a, List.of("arp"), 2)).containsExactly("10.0.0.2@arp", "Exhausted");
    }

    @Test
    void restoredAddressOfAnUnknownPoolIsNeverHandedOutWhenThePoolAppears() {
        Allocator a = new Allocator();
        a.restore(List.of(new AllocationRecord("ns/old", "later", parse("10.0.0.1"))));
        assertThat(a.holderOf(parse("10.0.0.1"))).contains("ns/old");
        pool(a, "later", "bgp", "10.0.0.0/30");
        assertThat(a.usage("later")).isEqualTo(new PoolUsage("later", 2, 1));
        assertThat(allocateMany(a, List.of("later"), 2)).containsExactly("10.0.0.2@later", "Exhausted");
        assertThat(a.allocate("ns/req", List.of("later"), OptionalLong.of(parse("10.0.0.1"))))
                .isEqualTo(new AllocationResult.RequestedInUse(parse("10.0.0.1"), "ns/old"));
    }

    @Test
    void removedPoolKeepsItsAddressesHeld() {
        Allocator a = new Allocator();
        pool(a, "p", "bgp", "10.0.0.0/30");
        allocateMany(a, List.of("p"), 1);
        a.removePool("p");
        assertThat(a.allocationOf("ns/s0")).contains(new AllocationRecord("ns/s0", "p", parse("10.0.0.1")));
        pool(a, "p", "bgp", "10.0.0.0/30");
        assertThat(vip(a.allocate("ns/new", List.of("p"), OptionalLong.empty()))).isEqualTo("10.0.0.2@p");
        a.release("ns/s0");
        assertThat(a.usage("p")).isEqualTo(new PoolUsage("p", 2, 1));
    }

    @Test
    void appendingEntriesKeepsAllocationsAndExtendsThePool() {
        Allocator a = new Allocator();
        pool(a, "p", "bgp", "10.0.0.0/31");
        assertThat(allocateMany(a, List.of("p"), 3)).containsExactly("10.0.0.0@p", "10.0.0.1@p", "Exhausted");
        pool(a, "p", "bgp", "10.0.0.0/31", "10.0.0.8/31");
        assertThat(a.usage("p")).isEqualTo(new PoolUsage("p", 4, 2));
        assertThat(vip(a.allocate("ns/more", List.of("p"), OptionalLong.empty()))).isEqualTo("10.0.0.8@p");
    }

    @Test
    void changedEntriesRebuildThePoolAroundHeldAddresses() {
        Allocator a = new Allocator();
        pool(a, "p", "bgp", "10.0.0.0/30");
        allocateMany(a, List.of("p"), 1);
        pool(a, "p", "arp", "10.0.0.0-10.0.0.3");
        assertThat(a.usage("p")).isEqualTo(new PoolUsage("p", 4, 1));
        // ns/s0 keeps 10.0.0.1; the former network address 10.0.0.0 is usable in a range
        assertThat(allocateMany(a, List.of("p"), 5))
                .containsExactly("10.0.0.1@p", "10.0.0.0@p", "10.0.0.2@p", "10.0.0.3@p", "Exhausted");
    }

    @Test
    void upsertWithTheSameEntriesChangesNothing() {
        Allocator a = new Allocator();
        pool(a, "p", "bgp", "10.0.0.0/30");
        allocateMany(a, List.of("p"), 1);
        pool(a, "p", "bgp", "10.0.0.3/30");
        assertThat(a.usage("p")).isEqualTo(new PoolUsage("p", 2, 1));
        assertThat(a.records()).containsExactly(new AllocationRecord("ns/s0", "p", parse("10.0.0.1")));
    }

    @Test
    void restoreKeepsTheFirstClaimOfAnAddressAndReportsTheOther() {
        Allocator a = new Allocator();
        pool(a, "p", "bgp", "10.0.0.0/24");
        AllocationRecord first = new AllocationRecord("ns/old", "p", parse("10.0.0.7"));
        AllocationRecord second = new AllocationRecord("ns/young", "p", parse("10.0.0.7"));
        AllocationRecord other = new AllocationRecord("ns/other", "p", parse("10.0.0.8"));
        a.restore(List.of(first, second, other));
        assertThat(a.records()).containsExactly(first, other);
        assertThat(a.lastRestoreConflicts()).containsExactly(new AllocationConflict(first, second));
        assertThat(a.lastRestoreConflicts().get(0).toString())
                .isEqualTo("address 10.0.0.7 is claimed by Service ns/old and Service ns/young; kept it for ns/old");
        assertThat(a.usage("p")).isEqualTo(new PoolUsage("p", 254, 2));
    }

    @Test
    void restoreKeepsTheFirstAddressOfAnOwnerAndIsQuietForRepeats() {
        Allocator a = new Allocator();
        AllocationRecord first = new AllocationRecord("ns/web", "p", parse("10.0.0.7"));
        AllocationRecord again = new AllocationRecord("ns/web", "p", parse("10.0.0.9"));
        a.restore(List.of(first, first, again));
        assertThat(a.records()).containsExactly(first);
        assertThat(a.lastRestoreConflicts()).containsExactly(new AllocationConflict(first, again));
        assertThat(a.holderOf(parse("10.0.0.9"))).isEmpty();
        a.restore(List.of(first));
        assertThat(a.lastRestoreConflicts()).isEmpty();
    }

    @Test
    void restoreAgainstAnAllocatedAddressKeepsTheHolder() {
        Allocator a = new Allocator();
        pool(a, "p", "bgp", "10.0.0.0/30");
        allocateMany(a, List.of("p"), 1);
        AllocationRecord late = new AllocationRecord("ns/late", "p", parse("10.0.0.1"));
        a.restore(List.of(late));
        assertThat(a.lastRestoreConflicts()).extracting(AllocationConflict::refused).containsExactly(late);
        assertThat(a.holderOf(parse("10.0.0.1"))).contains("ns/s0");
    }

    @Test
    void recordsAreSortedByOwner() {
        Allocator a = new Allocator();
        a.restore(List.of(new AllocationRecord("z/b", "p", 3), new AllocationRecord("a/z", "p", 9),
                new AllocationRecord("m/m", "p", 1)));
        assertThat(a.records()).extracting(AllocationRecord::owner).containsExactly("a/z", "m/m", "z/b");
        assertThat(a.allocationOf("m/m")).isEqualTo(Optional.of(new AllocationRecord("m/m", "p", 1)));
    }

    @Test
    void concurrentCallersNeverShareAnAddress() throws Exception {
        Allocator a = new Allocator();
        pool(a, "p", "bgp", "10.0.0.0/22");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<AllocationResult>> futures = new ArrayList<>();
            for (int i = 0; i < 1200; i++) {
                String owner = "ns/s" + i;
                futures.add(pool.submit(() -> {
                    AllocationResult r = a.allocate(owner, List.of("p"), OptionalLong.empty());
                    if (owner.hashCode() % 3 == 0) {
                        a.release(owner);
                    }
                    return r;
                }));
            }
            for (Future<AllocationResult> f : futures) {
                assertThat(f.get()).isInstanceOf(AllocationResult.Allocated.class);
            }
        } finally {
            pool.shutdown();
        }
        Set<Long> addresses = new HashSet<>();
        for (AllocationRecord r : a.records()) {
            assertThat(addresses.add(r.address())).isTrue();
        }
        assertThat(a.usage("p").allocated()).isEqualTo(a.records().size());
    }
}
