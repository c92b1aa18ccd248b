package me.loutres.juneau.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random pools in a small space (10.0.0.0/24, so pools overlap and run full) and random sequences of
 * allocate/release/restore/exclusion/reservation/append operations.
 */
class AllocatorPropertiesTest {
    static final long BASE = Ipv4.parse("10.0.0.0");
    static final List<String> POOL_NAMES = List.of("p0", "p1", "p2");

    record PoolDef(String name, String mode, List<String> entries) {
        List<PoolEntry> parsed() {
            return entries.stream().map(e -> PoolEntry.parse(mode, e)).toList();
        }
    }

    sealed interface Op {
    }

    record Allocate(String owner, List<String> order, Integer requestedOffset) implements Op {
    }

    record Release(String owner) implements Op {
    }

    record Exclude(Set<Integer> offsets) implements Op {
    }

    record Restore(List<AllocationRecord> records) implements Op {
    }

    /** Ranges the cluster says it uses (ServiceCIDRs, podCIDRs), as offsets: replaces the previous ones. */
    record Reserve(List<int[]> ranges) implements Op {
        List<AddressRange> addressRanges() {
            return ranges.stream().map(r -> new AddressRange(BASE + r[0], BASE + r[1])).toList();
        }
    }

    record Append(String pool, String entry) implements Op {
    }

    record Scenario(List<PoolDef> pools, List<Op> ops) {
    }

    // ---- the properties

    @Property(tries = 250)
    void behavesLikeTheObviousModelAndNeverHandsOutAnAddressTwice(@ForAll("scenarios") Scenario s) {
        Allocator allocator = new Allocator();
        AllocationModel model = new AllocationModel();
        Map<String, PoolDef> defs = new HashMap<>();
        for (PoolDef p : s.pools()) {
            allocator.upsertPool(p.name(), p.mode(), p.parsed());
            model.upsertPool(p.name(), p.mode(), p.parsed());
            defs.put(p.name(), p);
        }
        for (Op op : s.ops()) {
            if (op instanceof Allocate a) {
                OptionalLong req = a.requestedOffset() == null ? OptionalLong.empty()
                        : OptionalLong.of(BASE + a.requestedOffset());
                boolean hadOne = allocator.allocationOf(a.owner()).isPresent();
                Map<Long, String> holdersBefore = holders(allocator);
                AllocationResult got = allocator.allocate(a.owner(), a.order(), req);
                assertThat(got).isEqualTo(model.allocate(a.owner(), a.order(), req));
                if (got instanceof AllocationResult.Allocated al && !hadOne) {
                    // never twice, never outside the network's pools, never an edge, never a node address (arp)
                    assertThat(holdersBefore).doesNotContainKey(al.address());
                    assertThat(a.order()).contains(al.pool());
                    PoolDef home = defs.get(al.pool());
                    // usable = inside an entry and not the network/broadcast of a CIDR shorter than /31 (an edge
                    // is only usable when another entry, a /31 or /32, covers it)
                    assertThat(home.parsed()).anyMatch(e -> e.isUsable(al.address()));
                    if (home.mode().equals("arp")) {
                        assertThat(model.excluded).doesNotContain(al.address());
                    }
                    assertThat(model.reserved(al.address())).as("reserved %s handed out",
                            Ipv4.format(al.address())).isFalse();
                }
            } else if (op instanceof Release r) {
                allocator.release(r.owner());
                model.release(r.owner());
            } else if (op instanceof Exclude x) {
                Set<Long> addrs = x.offsets().stream().map(o -> BASE + o).collect(Collectors.toSet());
                allocator.setExcludedAddresses(addrs);
                model.setExcluded(addrs);
            } else if (op instanceof Reserve rv) {
                allocator.setReservedRanges(rv.addressRanges());
                model.setReserved(rv.addressRanges());
            } else if (op instanceof Restore r) {
                allocator.restore(r.records());
                model.restore(r.records());
            } else if (op instanceof Append ap) {
                PoolDef old = defs.get(ap.pool());
                List<String> entries = new ArrayList<>(old.entries());
                entries.add(ap.entry());
                PoolDef grown = new PoolDef(old.name(), old.mode(), entries);
                defs.put(grown.name(), grown);
                allocator.upsertPool(grown.name(), grown.mode(), grown.parsed());
                model.upsertPool(grown.name(), grown.mode(), grown.parsed());
            }
            assertThat(allocator.records()).containsExactlyInAnyOrderElementsOf(model.byOwner.values());
            for (String p : POOL_NAMES) {
                assertThat(allocator.usage(p)).isEqualTo(model.usage(p));
                assertThat(allocator.reservedCount(p)).isEqualTo(model.reservedCount(p));
                for (AllocationRecord kept : allocator.heldInReserved(p)) {
                    assertThat(model.reserved(kept.address())).isTrue();
                }
            }
        }
        Set<Long> seen = new HashSet<>();
        for (AllocationRecord r : allocator.records()) {
            assertThat(seen.add(r.address())).as("address %s held twice", Ipv4.format(r.address())).isTrue();
            assertThat(allocator.holderOf(r.address())).contains(r.owner());
        }
    }

    @Property(tries = 250)
    void anyHistoryEqualsReplayingItsFinalRecords(@ForAll("scenarios") Scenario s) {
        Allocator lived = new Allocator();
        Set<Long> excluded = Set.of();
        List<AddressRange> reserved = List.of();
        List<PoolDef> finalPools = new ArrayList<>(s.pools());
        for (PoolDef p : s.pools()) {
            lived.upsertPool(p.name(), p.mode(), p.parsed());
        }
        for (Op op : s.ops()) {
            if (op instanceof Allocate a) {
                lived.allocate(a.owner(), a.order(), a.requestedOffset() == null ? OptionalLong.empty()
                        : OptionalLong.of(BASE + a.requestedOffset()));
            } else if (op instanceof Release r) {
                lived.release(r.owner());
            } else if (op instanceof Exclude x) {
                excluded = x.offsets().stream().map(o -> BASE + o).collect(Collectors.toSet());
                lived.setExcludedAddresses(excluded);
            } else if (op instanceof Reserve rv) {
                reserved = rv.addressRanges();
                lived.setReservedRanges(reserved);
            } else if (op instanceof Restore r) {
                lived.restore(r.records());
            } else if (op instanceof Append ap) {
                for (int i = 0; i < finalPools.size(); i++) {
                    PoolDef old = finalPools.get(i);
                    if (old.name().equals(ap.pool())) {
                        List<String> entries = new ArrayList<>(old.entries());
                        entries.add(ap.entry());
                        finalPools.set(i, new PoolDef(old.name(), old.mode(), entries));
                        lived.upsertPool(old.name(), old.mode(), finalPools.get(i).parsed());
                    }
                }
            }
        }
        // a restarted controller: pools and nodes first or last, then the records of truth
        Allocator replayed = new Allocator();
        replayed.restore(lived.records());
        for (PoolDef p : finalPools) {
            replayed.upsertPool(p.name(), p.mode(), p.parsed());
        }
        replayed.setExcludedAddresses(excluded);
        replayed.setReservedRanges(reserved);
        assertThat(replayed.lastRestoreConflicts()).isEmpty();
        assertThat(replayed.records()).isEqualTo(lived.records());
        for (String p : POOL_NAMES) {
            assertThat(replayed.usage(p)).isEqualTo(lived.usage(p));
        }
        // and both hand out the same addresses from here on
        for (int i = 0; i < 6; i++) {
            assertThat(replayed.allocate("ns/next" + i, POOL_NAMES, OptionalLong.empty()))
                    .isEqualTo(lived.allocate("ns/next" + i, POOL_NAMES, OptionalLong.empty()));
        }
    }

    @Property(tries = 60)
    void fillingACidrPoolUsesExactlyItsUsableAddresses(@ForAll("cidrs") String cidr) {
        PoolEntry entry = PoolEntry.parse("bgp", cidr);
        Allocator allocator = new Allocator();
        allocator.upsertPool("p", "bgp", List.of(entry));
        Set<Long> got = new HashSet<>();
        AllocationResult r;
        int i = 0;
        while ((r = allocator.allocate("ns/s" + i++, List.of("p"), OptionalLong.empty()))
                instanceof AllocationResult.Allocated a) {
            assertThat(entry.isEdge(a.address())).as("edge %s", Ipv4.format(a.address())).isFalse();
            assertThat(entry.range().contains(a.address())).isTrue();
            assertThat(got.add(a.address())).isTrue();
        }
        assertThat(r).isEqualTo(new AllocationResult.Exhausted(List.of(new PoolUsage("p", got.size(), got.size()))));
        assertThat((long) got.size()).isEqualTo(entry.prefixLength() >= 31 ? entry.range().size()
                : entry.range().size() - 2);
    }

    @Provide
    Arbitrary<String> cidrs() {
        return Combinators.combine(Arbitraries.integers().between(0, 255), Arbitraries.integers().between(0, 255),
                Arbitraries.integers().between(22, 32)).as((a, b, p) -> "198.51." + a + "." + b + "/" + p);
    }

    private static Map<Long, String> holders(Allocator a) {
        Map<Long, String> m = new HashMap<>();
        for (AllocationRecord r : a.records()) {
            m.put(r.address(), r.owner());
        }
        return m;
    }

    // ---- generators

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<List<PoolDef>> pools = Arbitraries.integers().between(1, 3).flatMap(n -> {
            List<Arbitrary<PoolDef>> defs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                defs.add(poolDef(POOL_NAMES.get(i)));
            }
            return Combinators.combine(defs).as(List::copyOf);
        });
        return pools.flatMap(ps -> ops(ps).list().ofMaxSize(40).map(ops -> new Scenario(ps, ops)));
    }

    private static Arbitrary<PoolDef> poolDef(String name) {
        return Arbitraries.of("bgp", "arp").flatMap(mode -> entry(mode).list().ofMinSize(1).ofMaxSize(3)
                .map(es -> new PoolDef(name, mode, es)));
    }

    private static Arbitrary<String> entry(String mode) {
        if (mode.equals("bgp")) {
            return Combinators.combine(Arbitraries.integers().between(0, 255), Arbitraries.integers().between(27, 32))
                    .as((o, p) -> "10.0.0." + o + "/" + p);
        }
        return Combinators.combine(Arbitraries.integers().between(0, 255), Arbitraries.integers().between(0, 12))
                .as((s, len) -> "10.0.0." + s + " - 10.0.0." + Math.min(255, s + len));
    }

    private static Arbitrary<String> owners() {
        return Arbitraries.integers().between(0, 11).map(i -> "ns/o" + i);
    }

    private static Arbitrary<Op> ops(List<PoolDef> pools) {
        List<String> names = new ArrayList<>(pools.stream().map(PoolDef::name).toList());
        names.add("ghost");
        Arbitrary<List<String>> orders = Arbitraries.of(names).list().ofMinSize(1).ofMaxSize(4);
        Arbitrary<Integer> offsets = Arbitraries.integers().between(0, 255);
        Arbitrary<Op> allocate = Combinators.combine(owners(), orders,
                Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, Arbitraries.just((Integer) null)),
                        net.jqwik.api.Tuple.of(1, offsets)))
                .as(Allocate::new);
        Arbitrary<Op> release = owners().map(Release::new);
        Arbitrary<Op> exclude = offsets.set().ofMaxSize(6).map(Exclude::new);
        Arbitrary<AllocationRecord> record = Combinators.combine(owners(), Arbitraries.of(names), offsets)
                .as((o, p, a) -> new AllocationRecord(o, p, BASE + a));
        Arbitrary<Op> restore = record.list().ofMaxSize(4).map(Restore::new);
        Arbitrary<int[]> range = Combinators.combine(offsets, Arbitraries.integers().between(0, 40))
                .as((first, len) -> new int[] {first, Math.min(255, first + len)});
        Arbitrary<Op> reserve = range.list().ofMaxSize(3).map(Reserve::new);
        Arbitrary<Op> append = Arbitraries.of(pools).flatMap(p -> entry(p.mode()).map(e -> new Append(p.name(), e)));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, allocate),
                net.jqwik.api.Tuple.of(3, release),
                net.jqwik.api.Tuple.of(1, exclude),
                net.jqwik.api.Tuple.of(1, reserve),
                net.jqwik.api.Tuple.of(1, restore),
                net.jqwik.api.Tuple.of(1, append));
    }
}
