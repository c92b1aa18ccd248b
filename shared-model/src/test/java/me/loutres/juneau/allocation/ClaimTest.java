package me.loutres.juneau.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiPredicate;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;
import org.junit.jupiter.api.Test;

/**
 * Every status is a claim the allocator learns, whoever wrote it; two claims on one address are settled by age,
 * the same live and on restore (docs/allocation.md, "Two claims on one address").
 */
class ClaimTest {
    private static final long A1 = Ipv4.parse("10.0.0.1");
    private static final long A2 = Ipv4.parse("10.0.0.2");
    private static final long A5 = Ipv4.parse("10.0.0.5");
    /** Owners by age: "ns/old" is older than "ns/young". */
    private static final BiPredicate<String, String> BY_NAME = (claimant, holder) -> claimant.compareTo(holder) < 0;

    private static Allocator allocator() {
        Allocator a = new Allocator();
        a.upsertPool("p", "bgp", List.of(PoolEntry.parse("bgp", "10.0.0.0/29")));
        return a;
    }

    @Test
    void aClaimOnAFreeAddressIsHeldAndAllocationSkipsIt() {
        Allocator a = allocator();
        assertThat(a.claim(new AllocationRecord("ns/x", "p", A1), BY_NAME))
                .isEqualTo(new ClaimOutcome.Learnt(Optional.empty()));
        assertThat(a.allocate("ns/y", List.of("p"), OptionalLong.empty()))
                .isEqualTo(new AllocationResult.Allocated("p", A2));
        assertThat(a.usage("p").allocated()).isEqualTo(2);
    }

    @Test
    void anOwnerRecordingANewAddressGivesUpTheOldOne() {
        Allocator a = allocator();
        a.allocate("ns/b", List.of("p"), OptionalLong.empty());   // .1
        ClaimOutcome out = a.claim(new AllocationRecord("ns/b", "p", A5), BY_NAME);
        assertThat(out).isEqualTo(new ClaimOutcome.Learnt(Optional.of(new AllocationRecord("ns/b", "p", A1))));
        assertThat(a.holderOf(A5)).contains("ns/b");
        assertThat(a.holderOf(A1)).isEmpty();
        assertThat(a.usage("p").allocated()).isEqualTo(1);
        // the next allocations hand out .1 .2 .3 .4 .6, never .5 again
        for (String o : List.of("ns/c1", "ns/c2", "ns/c3", "ns/c4", "ns/c5")) {
            AllocationResult r = a.allocate(o, List.of("p"), OptionalLong.empty());
            assertThat(((AllocationResult.Allocated) r).address()).isNotEqualTo(A5);
        }
        assertThat(a.allocate("ns/c6", List.of("p"), OptionalLong.empty()))
                .isInstanceOf(AllocationResult.Exhausted.class);
    }

    @Test
    void theSameClaimAgainChangesNothing() {
        Allocator a = allocator();
        a.allocate("ns/b", List.of("p"), OptionalLong.empty());
        assertThat(a.claim(new AllocationRecord("ns/b", "p", A1), BY_NAME)).isEqualTo(new ClaimOutcome.Held());
        assertThat(a.records()).containsExactly(new AllocationRecord("ns/b", "p", A1));
    }

    @Test
    void aYoungerClaimOnAHeldAddressLosesAndTheOwnerKeepsWhatItHad() {
        Allocator a = allocator();
        a.allocate("ns/old", List.of("p"), OptionalLong.empty());     // .1
        a.allocate("ns/young", List.of("p"), OptionalLong.empty());   // .2
        ClaimOutcome out = a.claim(new AllocationRecord("ns/young", "p", A1), BY_NAME);
        assertThat(out).isEqualTo(new ClaimOutcome.Lost(new AllocationRecord("ns/old", "p", A1)));
        assertThat(a.records()).containsExactly(new AllocationRecord("ns/old", "p", A1),
                new AllocationRecord("ns/young", "p", A2));
    }

    @Test
    void anOlderClaimOnAHeldAddressTakesItAndNamesTheLoser() {
        Allocator a = allocator();
        a.allocate("ns/young", List.of("p"), OptionalLong.empty());   // .1, allocated first but younger
        ClaimOutcome out = a.claim(new AllocationRecord("ns/old", "p", A1), BY_NAME);
        assertThat(out).isEqualTo(new ClaimOutcome.Won(new AllocationRecord("ns/young", "p", A1), Optional.empty()));
        assertThat(a.holderOf(A1)).contains("ns/old");
        assertThat(a.allocationOf("ns/young")).isEmpty();
        assertThat(a.usage("p").allocated()).isEqualTo(1);
        // the loser's next allocation is another address
        assertThat(a.allocate("ns/young", List.of("p"), OptionalLong.empty()))
                .isEqualTo(new AllocationResult.Allocated("p", A2));
    }

    /** Whatever order the two claims arrive in, the same owner ends with the address. */
    @Test
    void theOutcomeDoesNotDependOnWhichClaimCameFirst() {
        for (List<String> order : List.of(List.of("ns/old", "ns/young"), List.of("ns/young", "ns/old"))) {
            Allocator a = allocator();
            for (String o : order) {
                a.claim(new AllocationRecord(o, "p", A5), BY_NAME);
            }
            assertThat(a.holderOf(A5)).as("order %s", order).contains("ns/old");
            assertThat(a.records()).hasSize(1);
        }
    }

    /** Bug A: an unparsable VIP keeps the address the Service's ingress shows reserved (restore feed). */
    @Test
    void anUnparsableVipFallsBackToTheServiceIngress() {
        var pools = List.of(AllocatorFeedTest.pool("p", "bgp", "10.0.0.0/29"));
        var slbs = List.of(AllocatorFeedTest.slb("ns", "bad", "2024-01-01T00:00:00Z", "not-an-ip", "p"),
                AllocatorFeedTest.slb("ns", "gone", "2024-01-01T00:00:01Z", "also bad", "p"));
        Map<String, List<String>> ingress = Map.of("ns/bad", List.of("junk", "10.0.0.1"));
        AllocatorFeed.Records r = AllocatorFeed.records(slbs, pools, o -> ingress.getOrDefault(o, List.of()));
        assertThat(r.records()).containsExactly(new AllocationRecord("ns/bad", "p", A1));
        assertThat(r.problems()).hasSize(2);
        assertThat(r.problems().get(0)).contains("ns/bad").contains("10.0.0.1 of its Service's")
                .contains("stays reserved in AddressPool p");
        assertThat(r.problems().get(1)).contains("ns/gone").contains("not restored");
    }

    @Test
    void olderIsTheRestoreOrder() {
        var early = AllocatorFeedTest.slb("ns", "z", "2024-01-01T00:00:00Z", "10.0.0.1", "p");
        var late = AllocatorFeedTest.slb("ns", "a", "2024-01-01T00:00:05Z", "10.0.0.1", "p");
        var sameTimeB = AllocatorFeedTest.slb("ns", "b", "2024-01-01T00:00:05Z", "10.0.0.1", "p");
        assertThat(AllocatorFeed.older(early, late)).isTrue();
        assertThat(AllocatorFeed.older(late, early)).isFalse();
        assertThat(AllocatorFeed.older(late, sameTimeB)).as("then by namespace/name").isTrue();
        assertThat(AllocatorFeed.older(late, null)).as("an unknown holder keeps it").isFalse();
    }
}
