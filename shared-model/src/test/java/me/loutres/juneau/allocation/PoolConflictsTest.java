package me.loutres.juneau.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.ip.PoolEntry;
import me.loutres.juneau.status.PoolConditions;
import org.junit.jupiter.api.Test;

/** Conflicts admission refuses but a race can store: found from the objects, said on each, counted truly. */
class PoolConflictsTest {

    private static ExternalNetwork network(String name, String... pools) {
        ExternalNetwork n = new ExternalNetwork();
        n.getMetadata().setName(name);
        n.setSpec(new ExternalNetworkSpec("bgp", List.of(pools)));
        return n;
    }

    @Test
    void overlappingPoolsNameEachOtherAndTheFirstSharedRange() {
        var pools = List.of(AllocatorFeedTest.pool("a", "bgp", "10.0.0.0/29"),
                AllocatorFeedTest.pool("b", "arp", "10.0.0.4-10.0.0.20"),
                AllocatorFeedTest.pool("c", "bgp", "10.0.1.0/29"));
        Map<String, List<PoolConflicts.Conflict>> out = PoolConflicts.overlaps(pools);
        assertThat(out).containsOnlyKeys("a", "b");
        assertThat(out.get("a")).singleElement().satisfies(c -> {
            assertThat(c.reason()).isEqualTo(PoolConflicts.REASON_OVERLAPPING_POOL);
            assertThat(c.others()).containsExactly("b");
            assertThat(c.message()).startsWith("AddressPool a overlaps AddressPool b (10.0.0.4-10.0.0.6)");
        });
        assertThat(out.get("b")).singleElement().satisfies(c -> assertThat(c.others()).containsExactly("a"));
    }

    @Test
    void aPoolListedByTwoNetworksIsSaidOnThePoolAndOnEachNetwork() {
        Map<String, List<PoolConflicts.Conflict>> onNetworks = new HashMap<>();
        Map<String, List<PoolConflicts.Conflict>> onPools = PoolConflicts.sharedPools(List.of(network("x", "p", "q"),
                network("y", "p"), network("z", "q2")), onNetworks);
        assertThat(onPools).containsOnlyKeys("p");
        assertThat(onPools.get("p")).singleElement().satisfies(c -> assertThat(c.others()).containsExactly("x", "y"));
        assertThat(onNetworks).containsOnlyKeys("x", "y");
        assertThat(onNetworks.get("x").get(0).message()).contains("AddressPool p").contains("ExternalNetwork y");
        assertThat(onNetworks.get("y").get(0).others()).containsExactly("x");
    }

    @Test
    void theConflictConditionKeepsItsTransitionTimeAndOtherConditions() {
        Condition foreign = new Condition();
        foreign.setType("Other");
        foreign.setStatus("True");
        var conflict = new PoolConflicts.Conflict(PoolConflicts.REASON_OVERLAPPING_POOL, List.of("b"), "overlaps b");
        List<Condition> first = PoolConditions.next(List.of(foreign), List.of(conflict), "2024-01-01T00:00:00Z");
        assertThat(first).extracting(Condition::getType).containsExactly("Other", "Conflict");
        assertThat(first.get(1).getStatus()).isEqualTo("True");
        List<Condition> again = PoolConditions.next(first, List.of(conflict), "2024-01-01T00:05:00Z");
        assertThat(again.get(1).getLastTransitionTime()).isEqualTo("2024-01-01T00:00:00Z");
        assertThat(PoolConditions.same(first, again)).isTrue();
        List<Condition> resolved = PoolConditions.next(again, List.of(), "2024-01-01T00:09:00Z");
        assertThat(resolved.get(1).getStatus()).isEqualTo("False");
        assertThat(resolved.get(1).getReason()).isEqualTo(PoolConditions.REASON_NO_CONFLICT);
        assertThat(resolved.get(1).getLastTransitionTime()).isEqualTo("2024-01-01T00:09:00Z");
        assertThat(PoolConditions.same(again, resolved)).isFalse();
    }

    /** Two pools over one /29: six addresses handed out once, each counted by the pool it came from. */
    @Test
    void overlappingPoolsCountOnlyTheirOwnAllocations() {
        Allocator a = new Allocator();
        a.upsertPool("a", "bgp", List.of(PoolEntry.parse("bgp", "10.0.0.0/29")));
        a.upsertPool("b", "bgp", List.of(PoolEntry.parse("bgp", "10.0.0.0/29")));
        a.upsertPool("c", "bgp", List.of(PoolEntry.parse("bgp", "10.0.1.0/29")));
        java.util.Set<Long> handed = new java.util.HashSet<>();
        for (int i = 0; i < 4; i++) {
            for (String pool : List.of("a", "b")) {
                AllocationResult r = a.allocate(pool + i, List.of(pool), OptionalLong.empty());
                if (r instanceof AllocationResult.Allocated ok) {
                    assertThat(handed.add(ok.address())).as("handed out once").isTrue();
                }
            }
        }
        assertThat(handed).hasSize(6);
        PoolUsage ua = a.usage("a");
        PoolUsage ub = a.usage("b");
        assertThat(ua.allocated() + ub.allocated()).isEqualTo(6);
        assertThat(ua.allocated()).isEqualTo(3);
        assertThat(ua.heldByOtherPools()).isEqualTo(3);
        assertThat(ua.free()).isZero();
        assertThat(ub.free()).isZero();
        assertThat(ua.used()).isEqualTo(6);
        assertThat(a.usage("c")).isEqualTo(new PoolUsage("c", 6, 0, 0));
        a.release("a0");
        assertThat(a.usage("a").free()).isEqualTo(1);
        assertThat(a.usage("b").free()).isEqualTo(1);
    }
}
