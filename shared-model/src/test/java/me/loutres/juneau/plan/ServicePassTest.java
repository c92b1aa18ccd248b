package me.loutres.juneau.plan;

import static me.loutres.juneau.plan.ServicePlannerTest.ALLOCATED;
import static me.loutres.juneau.plan.ServicePlannerTest.ARP_NET;
import static me.loutres.juneau.plan.ServicePlannerTest.EXHAUSTED;
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
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.policy.NetworkChoice;
import me.loutres.juneau.status.AllocationState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ServicePlanner#pass}: one snapshot in, the whole desired state out — writes, allocator work, events,
 * warnings said once, metrics, the waiting list (docs/design.md).
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

        ServiceSnapshot build() {
            return new ServiceSnapshot("ns", "web", ManagedServices.CLASSED, svc, slb, slbUnreadable,
                    new NetworkChoice.Named("net", false), net, "arp", Map.of(), slices, arp, null, liveness, NODES,
                    AnnounceFacts.lenient(), NOW, standing, firstLook, since, null, null);
        }
    }

    /** The first pass of a new Service, carried out as the API server and the allocator answer it. */
    static ServiceSnapshot created(Snap s, AllocationState answer) {
        DesiredService first = ServicePlanner.pass(s.build());
        ServiceLoadBalancer written = ((SlbWrite.Create) first.slb()).slb();
        written.getMetadata().setGeneration(1L);
        written.getMetadata().setUid("slb-uid");
        return s.build().answered(written, answer);
    }

    /** A Service whose first pass was carried out: its status, advertisement and ingress as that pass wrote them. */
    static Snap steady() {
        Snap s = new Snap();
        ServiceSnapshot done = created(s, ALLOCATED);
        DesiredService plan = ServicePlanner.pass(done);
        ServiceLoadBalancer slb = done.slb();
        slb.setStatus(plan.status());
        s.slb = slb;
        s.arp = ((DesiredArp.Present) plan.arp()).advertisement();
        s.svc = service(VIP);
        return s;
    }

    @Test
    void aNewServiceIsPlannedShellAndAddressFirstThenTheRestWithTheAnswers() {
        Snap s = new Snap();
        DesiredService first = ServicePlanner.pass(s.build());

        assertThat(first.lifecycle()).isEqualTo(Lifecycle.RECONCILE);
        assertThat(first.complete()).as("the status needs the generation and the address").isFalse();
        assertThat(first.slb()).isInstanceOf(SlbWrite.Create.class);
        assertThat(((SlbWrite.Create) first.slb()).slb().getMetadata().getFinalizers())
                .containsExactly(JuneauConstants.FINALIZER);
        assertThat(first.allocator()).isEqualTo(new AllocatorOp.Allocate("net", List.of("pool-a"), OptionalLong.empty()));
        assertThat(first.status()).isNull();
        assertThat(first.arp()).isInstanceOf(DesiredArp.Untouched.class);

        DesiredService last = ServicePlanner.pass(created(s, ALLOCATED));

        assertThat(last.complete()).isTrue();
        assertThat(last.slb()).isInstanceOf(SlbWrite.None.class);
        assertThat(last.allocator()).as("answered already").isInstanceOf(AllocatorOp.None.class);
        assertThat(last.status().getVip()).isEqualTo(VIP);
        assertThat(last.status().getObservedGeneration()).isEqualTo(1L);
        assertThat(last.status().getArpAnnouncingNode()).isEqualTo("node-a");
        assertThat(last.ingress()).extracting(LoadBalancerIngress::getIp).containsExactly(VIP);
        assertThat(last.arp()).isInstanceOf(DesiredArp.Present.class);
        assertThat(((DesiredArp.Present) last.arp()).node()).isEqualTo("node-a");
        assertThat(last.events()).extracting(PlannedEvent::reason).containsExactly(JuneauConstants.EVENT_IP_ALLOCATED);
        // the first node elected counts as a change of node (juneau_arp_node_changes), as it always did
        assertThat(last.tallies()).containsExactly(Tally.of(Tally.Kind.ALLOCATED), Tally.of(Tally.Kind.ARP_NODE_CHANGED));
        assertThat(last.lookedAt()).as("this term said it").isTrue();
        assertThat(last.pending()).isInstanceOf(PendingChange.Stop.class);
        assertThat(last.warnings()).isEmpty();
    }

    @Test
    void anExhaustedPoolPutsTheServiceOnTheWaitingListAndCountsTheFailureByReason() {
        DesiredService d = ServicePlanner.pass(created(new Snap(), EXHAUSTED));

        assertThat(d.pending()).isEqualTo(new PendingChange.Wait("", "net", OptionalLong.empty()));
        assertThat(d.status().getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
        assertThat(d.tallies()).containsExactly(new Tally(Tally.Kind.ALLOCATION_FAILED,
                JuneauConstants.REASON_POOL_EXHAUSTED));
        assertThat(d.events()).extracting(PlannedEvent::reason).containsExactly(JuneauConstants.EVENT_ALLOCATION_FAILED);
        assertThat(d.arp()).isInstanceOf(DesiredArp.Untouched.class);
        assertThat(d.ingress()).as("none there, none wanted").isNull();
    }

    @Test
    void aSteadyServiceIsOneCallThatClaimsItsAddressAndWritesNothing() {
        DesiredService d = ServicePlanner.pass(steady().build());

        assertThat(d.complete()).isTrue();
        assertThat(d.allocator()).isEqualTo(new AllocatorOp.Claim(
                new AllocationRecord("ns/web", "pool-a", Ipv4.parse(VIP)), VIP));
        assertThat(d.assumed()).isEqualTo(ALLOCATED);
        assertThat(d.slb()).isInstanceOf(SlbWrite.None.class);
        assertThat(d.status()).as("unchanged").isNull();
        assertThat(d.ingress()).isNull();
        assertThat(d.arp()).isInstanceOf(DesiredArp.Untouched.class);
        assertThat(d.events()).isEmpty();
        assertThat(d.warnings()).isEmpty();
        assertThat(d.tallies()).isEmpty();
        assertThat(d.pending()).isInstanceOf(PendingChange.Stop.class);
    }

    @Test
    void aClaimAnOlderAllocationRefusesWithdrawsTheVipEverywhere() {
        Snap s = steady();
        AllocationState conflict = AllocationState.conflict(VIP, "ns/older");
        DesiredService d = ServicePlanner.pass(s.build().answered(s.slb, conflict));

        assertThat(d.allocator()).isInstanceOf(AllocatorOp.None.class);
        assertThat(d.status().getVip()).isNull();
        assertThat(d.status().getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
        assertThat(d.ingress()).as("cleared").isEmpty();
        assertThat(d.arp()).isInstanceOf(DesiredArp.Absent.class);
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

        DesiredService d = ServicePlanner.pass(s.build().denied(denial));

        assertThat(d.status().getConditions()).anyMatch(c -> JuneauConstants.REASON_WRITE_DENIED.equals(c.getReason()));
        assertThat(d.warnings()).containsExactly(denial.warning());
        assertThat(d.tallies()).contains(Tally.of(Tally.Kind.WRITE_DENIED));

        s.standing = d.standing();
        DesiredService again = ServicePlanner.pass(s.build().denied(denial));
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

        DesiredService d = ServicePlanner.pass(s.build());

        assertThat(d.complete()).isTrue();
        assertThat(d.allocator()).isEqualTo(new AllocatorOp.ReserveRecorded(List.of(VIP)));
        assertThat(d.status()).isNull();
        assertThat(d.ingress()).isNull();
        assertThat(d.arp()).isInstanceOf(DesiredArp.Untouched.class);
        assertThat(d.warnings()).extracting(PlannedEvent::reason).containsExactly(JuneauConstants.EVENT_MALFORMED_STATUS);
        assertThat(d.tallies()).containsExactly(Tally.of(Tally.Kind.MALFORMED_STATUS));

        s.standing = d.standing();
        DesiredService again = ServicePlanner.pass(s.build());
        assertThat(again.warnings()).isEmpty();
        assertThat(again.tallies()).isEmpty();
    }

    @Test
    void anUnreadableServiceLoadBalancerIsLeftAloneBeforeAnyWrite() {
        Snap s = steady();
        s.slbUnreadable = "status.conditions[0] is null";

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
