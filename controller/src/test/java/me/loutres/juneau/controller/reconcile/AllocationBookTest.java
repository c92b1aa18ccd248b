package me.loutres.juneau.controller.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalLong;
import java.util.function.BiPredicate;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.AllocatorView;
import me.loutres.juneau.allocation.ClaimOutcome;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.plan.AllocatorOp;
import org.junit.jupiter.api.Test;

/**
 * The book commits what a plan decided from its view only while the decision holds (docs/design.md, "The path of
 * one Service"): a stale decision changes nothing and says so.
 */
class AllocationBookTest {
    private static final BiPredicate<String, String> CLAIMANT_OLDER = (claimant, holder) -> true;
    private static final BiPredicate<String, String> HOLDER_OLDER = (claimant, holder) -> false;

    private static AllocationBook book() {
        AllocationBook b = new AllocationBook();
        AddressPool p = new AddressPool();
        p.getMetadata().setName("pool-a");
        p.setSpec(new AddressPoolSpec("arp", List.of("10.1.0.1-10.1.0.3")));
        b.syncPool(p);
        return b;
    }

    private static AllocatorOp.Allocate planned(AllocatorView view, String owner) {
        AllocationResult r = view.wouldAllocate(owner, List.of("pool-a"), OptionalLong.empty());
        return new AllocatorOp.Allocate("net", List.of("pool-a"), OptionalLong.empty(), r);
    }

    @Test
    void anUnchangedBookCommitsThePlannedAddress() {
        AllocationBook b = book();
        AllocatorView view = b.view(CLAIMANT_OLDER);
        AllocatorOp.Allocate a = planned(view, "ns/web");

        assertThat(b.allocationOf("ns/web")).as("the view changes nothing").isEmpty();
        assertThat(b.commit("ns/web", a, view.version())).isTrue();
        assertThat(b.allocationOf("ns/web")).contains(new AllocationRecord("ns/web", "pool-a", Ipv4.parse("10.1.0.1")));
    }

    @Test
    void aBookThatNowAnswersOtherwiseRefusesTheCommitAndChangesNothing() {
        AllocationBook b = book();
        AllocatorView view = b.view(CLAIMANT_OLDER);
        AllocatorOp.Allocate a = planned(view, "ns/web");
        b.allocate("ns/other", List.of("pool-a"), OptionalLong.empty());
        List<AllocationRecord> before = b.records();

        assertThat(b.commit("ns/web", a, view.version())).isFalse();
        assertThat(b.records()).isEqualTo(before);
    }

    @Test
    void aBookThatMovedElsewhereStillCommitsTheSameAnswer() {
        AllocationBook b = book();
        AllocatorView view = b.view(CLAIMANT_OLDER);
        AllocatorOp.Allocate a = planned(view, "ns/web");
        b.claim(new AllocationRecord("ns/far", "pool-z", Ipv4.parse("192.0.2.1")), CLAIMANT_OLDER);

        assertThat(b.view(CLAIMANT_OLDER).version()).isNotEqualTo(view.version());
        assertThat(b.commit("ns/web", a, view.version())).isTrue();
        assertThat(b.holds("ns/web", Ipv4.parse("10.1.0.1"))).isTrue();
    }

    @Test
    void anExhaustedAnswerIsStaleOnceAnAddressIsFreed() {
        AllocationBook b = book();
        for (String o : List.of("ns/a", "ns/b", "ns/c")) {
            b.allocate(o, List.of("pool-a"), OptionalLong.empty());
        }
        AllocatorView view = b.view(CLAIMANT_OLDER);
        AllocatorOp.Allocate a = planned(view, "ns/web");
        assertThat(a.result()).isInstanceOf(AllocationResult.Exhausted.class);
        b.release("ns/b");

        assertThat(b.commit("ns/web", a, view.version())).as("Pending would be written on stale grounds").isFalse();
    }

    @Test
    void aClaimIsCommittedOnlyAsThePlanSawItSettled() {
        AllocationBook b = book();
        AllocationRecord mine = new AllocationRecord("ns/web", "pool-a", Ipv4.parse("10.1.0.2"));
        AllocatorOp.Claim learnt = new AllocatorOp.Claim(mine, "10.1.0.2",
                b.view(HOLDER_OLDER).wouldClaim(mine));
        assertThat(learnt.outcome()).isEqualTo(new ClaimOutcome.Learnt(java.util.Optional.empty()));
        // an older allocation takes the address before the commit: the plan that saw it free is stale
        b.claim(new AllocationRecord("ns/older", "pool-a", Ipv4.parse("10.1.0.2")), CLAIMANT_OLDER);

        assertThat(b.commit(learnt, HOLDER_OLDER)).isEmpty();
        assertThat(b.allocationOf("ns/web")).isEmpty();

        AllocatorOp.Claim lost = new AllocatorOp.Claim(mine, "10.1.0.2", b.view(HOLDER_OLDER).wouldClaim(mine));
        assertThat(b.commit(lost, HOLDER_OLDER)).contains(lost.outcome());
        assertThat(b.holds("ns/older", Ipv4.parse("10.1.0.2"))).as("the older keeps it").isTrue();
    }
}
