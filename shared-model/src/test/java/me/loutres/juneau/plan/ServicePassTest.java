package me.loutres.juneau.plan;

import static me.loutres.juneau.plan.ServicePlannerTest.ALLOCATED;
import static me.loutres.juneau.plan.ServicePlannerTest.ARP_NET;
import static me.loutres.juneau.plan.ServicePlannerTest.NODES;
import static me.loutres.juneau.plan.ServicePlannerTest.NOW;
import static me.loutres.juneau.plan.ServicePlannerTest.VIP;
import static me.loutres.juneau.plan.ServicePlannerTest.arp;
import static me.loutres.juneau.plan.ServicePlannerTest.deadNodes;
import static me.loutres.juneau.plan.ServicePlannerTest.ours;
import static me.loutres.juneau.plan.ServicePlannerTest.service;
import static me.loutres.juneau.plan.ServicePlannerTest.slices;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.Allocator;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.allocation.AllocatorView;
import me.loutres.juneau.allocation.ClaimOutcome;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.policy.NetworkChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ServicePlanner#pass}: one snapshot in, the whole desired state out — writes, allocator work decided from the
 * snapshot's read-only view of the allocator, events, warnings said once, metrics, the waiting list (docs/design.md).
 * What only the API server answers (the written shell's generation, a refused advertisement) fills the returned
 * plan's placeholders, never a second plan.
 */
class ServicePassTest {

    /** A snapshot under construction: the defaults are a managed Service on arp network "net", nothing else yet. */
    static final class Snap {
        Service svc = service();
        ServiceLoadBalancer slb;
        String slbUnreadable;
        NetworkResolution net = ARP_NET;
        List<EndpointSlice> slices = slices("node-a");
        ARPAdvertisement arp;
        NodeLiveness liveness = deadNodes();
        Map<String, String> standing = Map.of();
        boolean firstLook;
        java.time.Instant since = NOW.minusSeconds(40);
        /** pool-a (10.0.0.1-10.0.0.9) and nothing held; a second claim is won by the claimant unless told. */
        Allocator allocator = allocatorWithPoolA();
        boolean claimantOlder = true;
        AllocatorView view;

        ServiceSnapshot build() {
            view = view == null ? AllocatorView.of(allocator, (claimant, holder) -> claimantOlder) : view;
            return new ServiceSnapshot("ns", "web", ManagedServices.CLASSED, svc, slb, slbUnreadable,
                    new NetworkChoice.Named("net", false), net, "arp", Map.of(), slices, arp, null, liveness, NODES,
                    AnnounceFacts.lenient(), NOW, standing, firstLook, since, view);
        }
    }

    static Allocator allocatorWithPoolA() {
        Allocator a = new Allocator();
        AllocatorFeed.pool(((NetworkResolution.Usable) ARP_NET).pools().get(0)).into(a);
        return a;
    }

    /** A view that fails the test when asked: the plan must not consult the allocator. */
    static final AllocatorView NOT_TO_BE_ASKED = new AllocatorView() {
        @Override
        public AllocationResult wouldAllocate(String owner, List<String> poolOrder, OptionalLong requested) {
            throw new AssertionError("the allocator was asked to allocate");
        }

        @Override
        public ClaimOutcome wouldClaim(AllocationRecord record) {
            throw new AssertionError("the allocator was asked to claim");
        }

        @Override
        public long version() {
            return 0;
        }
    };

    /** The shell of a pass as the API server returns it: generation 1, a uid. */
    static ServiceLoadBalancer written(DesiredService d) {
        ServiceLoadBalancer w = ((SlbWrite.Create) d.slb()).slb();
        ServiceLoadBalancer copy = new ServiceLoadBalancer();
        copy.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder(w.getMetadata()).withGeneration(1L)
                .withUid("slb-uid").build());
        copy.setSpec(w.getSpec());
        return copy;
    }

    /** A Service whose first pass was carried out: its status, advertisement and ingress as that pass wrote them. */
    static Snap steady() {
        Snap s = new Snap();
        DesiredService first = ServicePlanner.pass(s.build());
        AllocatorOp.Allocate a = (AllocatorOp.Allocate) first.allocator();
        s.allocator.allocate("ns/web", a.pools(), a.requested());
        ServiceLoadBalancer slb = written(first);
        slb.setStatus(first.statusOn(slb));
        s.slb = slb;
        s.arp = ((DesiredArp.Present) first.arp()).advertisement();
        s.svc = service(VIP);
        s.view = null;
        return s;
    }

    @Test
    void aNewServiceIsPlannedWholeInOneCallTheAddressDecidedFromTheView() {
        Snap s = new Snap();
        long before = s.allocator.version();
        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(d.lifecycle()).isEqualTo(Lifecycle.RECONCILE);
        assertThat(d.slb()).isInstanceOf(SlbWrite.Create.class);
        assertThat(((SlbWrite.Create) d.slb()).slb().getMetadata().getFinalizers())
                .containsExactly(JuneauConstants.FINALIZER);
        assertThat(d.allocator()).as("the lowest free address of pool-a, named in the plan")
                .isEqualTo(new AllocatorOp.Allocate("net", List.of("pool-a"), OptionalLong.empty(),
                        new AllocationResult.Allocated("pool-a", Ipv4.parse(VIP))));
        assertThat(s.allocator.records()).as("the plan changes nothing in the allocator").isEmpty();
        assertThat(s.allocator.version()).isEqualTo(before);
        assertThat(d.allocation()).isEqualTo(ALLOCATED);
        assertThat(d.generationFromWrite()).as("the generation is the shell write's answer").isTrue();
        ServiceLoadBalancerStatus status = d.statusOn(written(d));
        assertThat(status.getVip()).isEqualTo(VIP);
        assertThat(status.getObservedGeneration()).isEqualTo(1L);
        assertThat(status.getConditions()).allSatisfy(c -> assertThat(c.getObservedGeneration()).isEqualTo(1L));
        assertThat(status.getArpAnnouncingNode()).isEqualTo("node-a");
        assertThat(d.ingress()).extracting(LoadBalancerIngress::getIp).containsExactly(VIP);
        assertThat(d.arp()).isInstanceOf(DesiredArp.Present.class);
        assertThat(((DesiredArp.Present) d.arp()).node()).isEqualTo("node-a");
        assertThat(d.events()).extracting(PlannedEvent::reason).containsExactly(JuneauConstants.EVENT_IP_ALLOCATED);
        // the first node elected counts as a change of node (juneau_arp_node_changes), as it always did
        assertThat(d.tallies()).containsExactly(Tally.of(Tally.Kind.ALLOCATED), Tally.of(Tally.Kind.ARP_NODE_CHANGED));
        assertThat(d.lookedAt()).as("this term said it").isTrue();
        assertThat(d.pending()).isInstanceOf(PendingChange.Stop.class);
        assertThat(d.warnings()).isEmpty();
    }

    @Test
    void theAddressTheViewOffersIsTheLowestStillFree() {
        Snap s = new Snap();
        s.allocator.allocate("ns/other", List.of("pool-a"), OptionalLong.empty());

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(((AllocatorOp.Allocate) d.allocator()).result())
                .isEqualTo(new AllocationResult.Allocated("pool-a", Ipv4.parse("10.0.0.2")));
        assertThat(d.statusOn(written(d)).getVip()).isEqualTo("10.0.0.2");
    }

    @Test
    void aDecisionNamesItsAnswerSoABookThatMovedUnderItIsSeenStale() {
        Snap s = new Snap();
        ServiceSnapshot snapshot = s.build();
        DesiredService d = ServicePlanner.pass(snapshot);
        AllocatorOp.Allocate planned = (AllocatorOp.Allocate) d.allocator();

        // another pass takes the address between this plan and its commit
        s.allocator.allocate("ns/other", List.of("pool-a"), OptionalLong.empty());

        assertThat(s.allocator.version()).isNotEqualTo(snapshot.allocator().version());
        assertThat(s.allocator.wouldAllocate("ns/web", planned.pools(), planned.requested()))
                .as("the book now answers otherwise: the plan is stale").isNotEqualTo(planned.result());
        // a change elsewhere leaves the answer as planned
        Snap t = new Snap();
        ServiceSnapshot other = t.build();
        AllocatorOp.Allocate same = (AllocatorOp.Allocate) ServicePlanner.pass(other).allocator();
        t.allocator.setExcludedAddresses(java.util.Set.of(Ipv4.parse("10.0.0.9")));
        assertThat(t.allocator.version()).isNotEqualTo(other.allocator().version());
        assertThat(t.allocator.wouldAllocate("ns/web", same.pools(), same.requested())).isEqualTo(same.result());
    }

    @Test
    void anExhaustedPoolPutsTheServiceOnTheWaitingListAndCountsTheFailureByReason() {
        Snap s = new Snap();
        for (int i = 0; i < 9; i++) {
            s.allocator.allocate("ns/other-" + i, List.of("pool-a"), OptionalLong.empty());
        }
        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(((AllocatorOp.Allocate) d.allocator()).result()).isInstanceOf(AllocationResult.Exhausted.class);
        assertThat(d.pending()).isEqualTo(new PendingChange.Wait("", "net", OptionalLong.empty()));
        assertThat(d.statusOn(written(d)).getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
        assertThat(d.tallies()).containsExactly(new Tally(Tally.Kind.ALLOCATION_FAILED,
                JuneauConstants.REASON_POOL_EXHAUSTED));
        assertThat(d.events()).extracting(PlannedEvent::reason).containsExactly(JuneauConstants.EVENT_ALLOCATION_FAILED);
        assertThat(d.arp()).isInstanceOf(DesiredArp.Untouched.class);
        assertThat(d.ingress()).as("none there, none wanted").isNull();
    }

    @Test
    void aSteadyServiceIsOneCallThatClaimsItsAddressAndWritesNothing() {
        DesiredService d = ServicePlanner.pass(steady().build());

        assertThat(d.allocator()).isEqualTo(new AllocatorOp.Claim(
                new AllocationRecord("ns/web", "pool-a", Ipv4.parse(VIP)), VIP, new ClaimOutcome.Held()));
        assertThat(d.allocation()).isEqualTo(ALLOCATED);
        assertThat(d.slb()).isInstanceOf(SlbWrite.None.class);
        assertThat(d.generationFromWrite()).isFalse();
        assertThat(d.status()).as("unchanged").isNull();
        assertThat(d.ingress()).isNull();
        assertThat(d.arp()).isInstanceOf(DesiredArp.Untouched.class);
        assertThat(d.events()).isEmpty();
        assertThat(d.warnings()).isEmpty();
        assertThat(d.tallies()).isEmpty();
        assertThat(d.pending()).isInstanceOf(PendingChange.Stop.class);
    }

    @Test
    void aClaimAnOlderAllocationRefusesWithdrawsTheVipEverywhereInTheSamePlan() {
        Snap s = steady();
        s.allocator.release("ns/web");
        s.allocator.claim(new AllocationRecord("ns/older", "pool-a", Ipv4.parse(VIP)), (c, h) -> true);
        s.claimantOlder = false;

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(d.allocator()).isEqualTo(new AllocatorOp.Claim(new AllocationRecord("ns/web", "pool-a",
                Ipv4.parse(VIP)), VIP, new ClaimOutcome.Lost(new AllocationRecord("ns/older", "pool-a",
                        Ipv4.parse(VIP)))));
        assertThat(d.status().getVip()).isNull();
        assertThat(d.status().getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
        assertThat(d.status().getConditions()).anyMatch(c -> c.getMessage().contains("ns/older"));
        assertThat(d.ingress()).as("cleared").isEmpty();
        assertThat(d.arp()).isInstanceOf(DesiredArp.Absent.class);
    }

    @Test
    void theFirstPassWritesTheServiceUidOnTheAdvertisementAndASteadyPassLeavesItAlone() {
        Snap s = steady();
        assertThat(s.arp.getMetadata().getLabels())
                .containsEntry(JuneauConstants.LABEL_SERVICE_UID, s.svc.getMetadata().getUid());

        assertThat(ServicePlanner.pass(s.build()).arp()).isInstanceOf(DesiredArp.Untouched.class);
    }

    @Test
    void anAdvertisementWrittenBeforeTheUidLabelGetsItInPlaceOnItsNodeWithoutNewsOrTally() {
        Snap s = steady();
        String node = s.arp.getSpec().getNodeName();
        s.arp.getMetadata().getLabels().remove(JuneauConstants.LABEL_SERVICE_UID);

        DesiredService d = ServicePlanner.pass(s.build());

        ARPAdvertisement want = ((DesiredArp.Present) d.arp()).advertisement();
        assertThat(want.getSpec().getNodeName()).isEqualTo(node);
        assertThat(want.getMetadata().getLabels())
                .containsEntry(JuneauConstants.LABEL_SERVICE_UID, s.svc.getMetadata().getUid());
        assertThat(d.status()).as("the status names the same node: nothing to write").isNull();
        assertThat(d.events()).isEmpty();
        assertThat(d.tallies()).isEmpty();
    }

    @Test
    void theLeaseStatesOfTheSnapshotMoveTheAdvertisementOffADeadNode() {
        Snap s = steady();
        s.slices = slices("node-a", "node-b");
        s.liveness = deadNodes("node-a");

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(((DesiredArp.Present) d.arp()).node()).isEqualTo("node-b");
        assertThat(d.status().getArpAnnouncingNode()).isEqualTo("node-b");
        assertThat(d.tallies()).contains(Tally.of(Tally.Kind.ARP_NODE_CHANGED));
        assertThat(d.events()).extracting(PlannedEvent::reason)
                .contains(JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED);
    }

    @Test
    void aStandingWarningIsSaidOnceAndForgottenWhenItClears() {
        Snap s = steady();
        s.arp = arp("node-a", "ns", "other", VIP);

        DesiredService first = ServicePlanner.pass(s.build());
        assertThat(first.warnings()).extracting(PlannedEvent::reason)
                .containsExactly(JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT);
        assertThat(first.standing()).containsKey(JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT);

        s.standing = first.standing();
        DesiredService again = ServicePlanner.pass(s.build());
        assertThat(again.warnings()).as("still standing: not said again").isEmpty();
        assertThat(again.standing()).isEqualTo(first.standing());

        s.arp = ours("node-a");
        assertThat(ServicePlanner.pass(s.build()).standing()).isEmpty();
    }

    @Test
    void aRefusedWriteIsInTheStatusSaidOnceAndCounted() {
        Snap s = steady();
        WriteDenial denial = new WriteDenial("create ARPAdvertisement \"slb-ns-web\" for node node-a", "no");

        s.slices = slices("node-b");
        DesiredService plan = ServicePlanner.pass(s.build());
        assertThat(((DesiredArp.Present) plan.arp()).node()).as("the advertisement moves").isEqualTo("node-b");
        assertThat(plan.status().getArpAnnouncingNode()).isEqualTo("node-b");

        DesiredService d = plan.refused(denial);

        assertThat(d.status().getConditions()).anyMatch(c -> JuneauConstants.REASON_WRITE_DENIED.equals(c.getReason()));
        assertThat(d.status().getArpAnnouncingNode()).as("nobody answers what was refused").isNull();
        assertThat(d.warnings()).containsExactly(denial.warning());
        assertThat(d.tallies()).contains(Tally.of(Tally.Kind.WRITE_DENIED));
        assertThat(d.allocator()).as("nothing decided again").isEqualTo(plan.allocator());
        assertThat(((DesiredArp.Present) d.arp()).node()).isEqualTo("node-b");
        assertThat(plan.warnings()).as("the plan itself is unchanged").isEmpty();

        s.standing = d.standing();
        DesiredService again = ServicePlanner.pass(s.build()).refused(denial);
        assertThat(again.warnings()).isEmpty();
        assertThat(again.tallies()).doesNotContain(Tally.of(Tally.Kind.WRITE_DENIED));
    }

    @Test
    void aMalformedStatusIsLeftAloneItsAddressReservedAndSaidOnce() {
        Snap s = steady();
        ServiceLoadBalancerStatus bad = new ServiceLoadBalancerStatus();
        bad.setVip("not-an-ip");
        bad.setAddressPool("pool-a");
        s.slb.setStatus(bad);
        s.view = NOT_TO_BE_ASKED;

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(d.allocator()).as("reserved, never allocated: the allocator is not even asked")
                .isEqualTo(new AllocatorOp.ReserveRecorded(List.of(VIP)));
        assertThat(d.status()).isNull();
        assertThat(d.ingress()).isNull();
        assertThat(d.arp()).isInstanceOf(DesiredArp.Untouched.class);
        assertThat(d.warnings()).extracting(PlannedEvent::reason).containsExactly(JuneauConstants.EVENT_MALFORMED_STATUS);
        assertThat(d.tallies()).containsExactly(Tally.of(Tally.Kind.MALFORMED_STATUS));

        s.standing = d.standing();
        DesiredService again = ServicePlanner.pass(s.build());
        assertThat(again.warnings()).isEmpty();
        assertThat(again.tallies()).isEmpty();

        bad.setVip(VIP);
        bad.setAddressPool(null);
        assertThat(ServicePlanner.pass(s.build()).allocator()).as("a VIP without a pool: reserved too")
                .isInstanceOf(AllocatorOp.ReserveRecorded.class);
    }

    @Test
    void anUnreadableServiceLoadBalancerIsLeftAloneBeforeAnyWrite() {
        Snap s = steady();
        s.slbUnreadable = "status.conditions[0] is null";
        s.view = NOT_TO_BE_ASKED;

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(d.slb()).isInstanceOf(SlbWrite.None.class);
        assertThat(d.allocator()).isInstanceOf(AllocatorOp.ReserveRecorded.class);
        assertThat(d.warnings()).singleElement().satisfies(w -> assertThat(w.message()).contains("cannot be read"));
    }

    @ParameterizedTest(name = "first look {0}, allocated {1} s before the term's window ends: said again {2}")
    @CsvSource({"true, 10, true", "true, -10, false", "false, 10, false"})
    void theFirstLookInATermSaysARecentAllocationAgain(boolean firstLook, int secondsInside, boolean said) {
        Snap s = steady();
        s.firstLook = firstLook;
        s.since = NOW.minusSeconds(secondsInside);

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(d.lookedAt()).isTrue();
        assertThat(!d.reannounce().isEmpty()).isEqualTo(said);
        if (said) {
            assertThat(d.reannounce().get(0)).startsWith("allocated VIP " + VIP);
        }
    }

    @Test
    void aServiceGoneWithItsServiceLoadBalancerDeletesItAndForgetsTheKey() {
        Snap s = steady();
        s.svc = null;
        s.standing = Map.of(JuneauConstants.REASON_WRITE_DENIED, "x");

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(d.lifecycle()).isEqualTo(Lifecycle.FORGET);
        assertThat(d.slb()).isEqualTo(new SlbWrite.Delete(s.slb));
        assertThat(d.allocator()).isInstanceOf(AllocatorOp.None.class);
        assertThat(d.pending()).isInstanceOf(PendingChange.Stop.class);
        assertThat(d.standing()).isEmpty();

        s.slb = null;
        assertThat(ServicePlanner.pass(s.build()).allocator()).as("a reservation never recorded")
                .isInstanceOf(AllocatorOp.Release.class);
    }

    @Test
    void aServiceLoadBalancerBeingDeletedReleasesClearsAndDropsTheFinalizerLast() {
        Snap s = steady();
        s.slb.getMetadata().setDeletionTimestamp("2026-12-01T11:59:00Z");

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(d.lifecycle()).isEqualTo(Lifecycle.FINALIZE);
        assertThat(d.arp()).isInstanceOf(DesiredArp.Absent.class);
        assertThat(d.allocator()).isInstanceOf(AllocatorOp.Release.class);
        assertThat(d.ingress()).isEmpty();
        ServiceLoadBalancer update = ((SlbWrite.Update) d.slb()).slb();
        assertThat(update.getMetadata().getFinalizers()).doesNotContain(JuneauConstants.FINALIZER);
        assertThat(s.slb.getMetadata().getFinalizers()).as("the snapshot is not changed")
                .contains(JuneauConstants.FINALIZER);

        s.arp = arp("node-a", "ns", "other", VIP);
        assertThat(ServicePlanner.pass(s.build()).arp()).as("another Service's advertisement")
                .isInstanceOf(DesiredArp.Untouched.class);
    }

    @Test
    void aServiceLoadBalancerOfAnEarlierServiceOfThatNameIsDeleted() {
        Snap s = steady();
        s.svc.getMetadata().setUid("uid-2");

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(d.lifecycle()).isEqualTo(Lifecycle.REPLACE_STALE);
        assertThat(d.slb()).isEqualTo(new SlbWrite.Delete(s.slb));
        assertThat(d.pending()).isInstanceOf(PendingChange.Unchanged.class);
    }

    @ParameterizedTest(name = "standing {0}, raised {1}, judged {2} -> said {3}, standing after {4}")
    @CsvSource(nullValues = "null", delimiter = '|', value = {
            "                | A=1  | A | A=1  | A=1",
            "A=1             | A=1  | A | null | A=1",
            "A=1             | A=2  | A | A=2  | A=2",
            "A=1             | null | A | null | null",
            "A=1             | null | B | null | A=1",
            "A=1;B=1         | B=1  | A | null | B=1",
    })
    void aWarningIsSaidWhenNewOrChangedAndStandsUntilJudgedGone(String standing, String raised, String judged,
            String said, String after) {
        Warnings w = Warnings.settle(map(standing), events(raised), List.of(judged));
        assertThat(w.record()).isEqualTo(events(said));
        assertThat(w.standing()).isEqualTo(map(after));
    }

    private static Map<String, String> map(String s) {
        Map<String, String> m = new java.util.TreeMap<>();
        if (s != null && !s.isBlank()) {
            for (String kv : s.split(";")) {
                m.put(kv.split("=")[0], kv.split("=")[1]);
            }
        }
        return m;
    }

    private static List<PlannedEvent> events(String s) {
        return map(s).entrySet().stream().map(e -> PlannedEvent.warning(e.getKey(), e.getValue())).toList();
    }
}
