package me.loutres.juneau.allocation;

import static me.loutres.juneau.ip.Ipv4.parse;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDRBuilder;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.status.PoolConditions;
import me.loutres.juneau.view.LearntRange;
import me.loutres.juneau.view.RangeIndex;
import me.loutres.juneau.view.ViewKeys;
import org.junit.jupiter.api.Test;

/**
 * A stored pool overlapping a range the cluster says it uses, learnt later: each overlap named by its object, the
 * VIPs kept inside named too, and condition Overlap saying how many addresses are reserved.
 */
class ClusterRangeOverlapsTest {
    /** The learnt ranges of a ServiceCIDR {@code kubernetes} and a Node {@code worker-1}, as the controller reads them. */
    private static RangeIndex<LearntRange> learnt() {
        RangeIndex<LearntRange> index = new RangeIndex<>();
        index.replace("ServiceCIDR/kubernetes", ViewKeys.serviceCidrs(new ServiceCIDRBuilder().withNewMetadata()
                .withName("kubernetes").endMetadata().withNewSpec().withCidrs("10.96.0.0/12", "fd00:10:96::/112")
                .endSpec().build()));
        index.replace("Node/worker-1", ViewKeys.podCidrs(new NodeBuilder().withNewMetadata().withName("worker-1")
                .endMetadata().withNewSpec().withPodCIDRs("10.244.1.0/24").endSpec().build()));
        return index;
    }

    private static List<LearntRange> lookup(RangeIndex<LearntRange> index, AddressRange r) {
        return index.overlapping(r).stream().map(RangeIndex.Hit::value).toList();
    }

    @Test
    void eachOverlapNamesTheEntryTheObjectAndTheSharedAddresses() {
        RangeIndex<LearntRange> index = learnt();
        var pool = AllocatorFeedTest.pool("lan", "arp", "192.0.2.10-192.0.2.20", "not-an-address",
                "10.244.1.250-10.244.2.5", "10.111.255.250-10.112.0.3");
        List<ClusterRangeOverlaps.Overlap> overlaps = ClusterRangeOverlaps.of(pool, r -> lookup(index, r));
        assertThat(overlaps).extracting(o -> o.index() + " " + o.learnt().source() + " " + o.shared())
                .containsExactly("2 Node worker-1 podCIDR 10.244.1.0/24 10.244.1.250-10.244.1.255",
                        "3 ServiceCIDR kubernetes 10.96.0.0/12 10.111.255.250-10.111.255.255");
        assertThat(overlaps.get(0).sentence("lan")).isEqualTo("AddressPool lan spec.addresses[2] "
                + "\"10.244.1.250-10.244.2.5\" overlaps Node worker-1 podCIDR 10.244.1.0/24 (shared: "
                + "10.244.1.250-10.244.1.255), learnt after the pool was stored; the cluster network uses those "
                + "addresses, so they are reserved and never handed out (the rest of the pool is used as before)");
    }

    @Test
    void aPoolOutsideEveryLearntRangeHasNoOverlap() {
        RangeIndex<LearntRange> index = learnt();
        var pool = AllocatorFeedTest.pool("far", "bgp", "10.95.0.0/24", "10.112.0.0/24", "10.244.0.0/24");
        assertThat(ClusterRangeOverlaps.of(pool, r -> lookup(index, r))).isEmpty();
    }

    @Test
    void theConditionSaysHowManyAreReservedAndNamesEveryOverlapAndKeptVip() {
        RangeIndex<LearntRange> index = learnt();
        var pool = AllocatorFeedTest.pool("in-svc", "bgp", "10.96.0.0/29");
        Allocator a = new Allocator();
        AllocatorFeed.pool(pool).into(a);
        a.allocate("shop/web", List.of("in-svc"), java.util.OptionalLong.empty());
        List<ClusterRangeOverlaps.Overlap> overlaps = ClusterRangeOverlaps.of(pool, r -> lookup(index, r));
        a.setReservedRanges(ClusterRangeOverlaps.ranges(overlaps.stream().map(ClusterRangeOverlaps.Overlap::learnt)
                .toList()));
        List<ClusterRangeOverlaps.KeptVip> kept = ClusterRangeOverlaps.kept(a.heldInReserved("in-svc"), overlaps);
        assertThat(kept).singleElement().satisfies(k -> {
            assertThat(k.record().address()).isEqualTo(parse("10.96.0.1"));
            assertThat(k.sentence("in-svc")).startsWith("AddressPool in-svc: Service shop/web keeps VIP 10.96.0.1, "
                    + "inside ServiceCIDR kubernetes 10.96.0.0/12; it was allocated before that range was learnt");
        });
        assertThat(a.reservedCount("in-svc")).isEqualTo(5);
        assertThat(a.usage("in-svc")).isEqualTo(new PoolUsage("in-svc", 1, 1));

        Condition foreign = new Condition();
        foreign.setType(PoolConditions.CONDITION_CONFLICT);
        foreign.setStatus("False");
        List<Condition> first = PoolConditions.withOverlaps(List.of(foreign), "in-svc", overlaps,
                a.reservedCount("in-svc"), kept, "2026-01-01T00:00:00Z");
        assertThat(first).hasSize(2);
        Condition c = first.get(1);
        assertThat(c.getType()).isEqualTo(PoolConditions.CONDITION_OVERLAP);
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getReason()).isEqualTo(ClusterRangeOverlaps.REASON_OVERLAPS_CLUSTER_RANGE);
        assertThat(c.getMessage()).startsWith("5 addresses reserved (never handed out, not counted in total or free),"
                + " 1 kept by the Service that held it before; AddressPool in-svc spec.addresses[0] \"10.96.0.0/29\" "
                + "overlaps ServiceCIDR kubernetes 10.96.0.0/12 (shared: 10.96.0.1-10.96.0.6)")
                .contains("Service shop/web keeps VIP 10.96.0.1");

        // the same overlap later keeps its transition time; the range going away turns it False
        List<Condition> again = PoolConditions.withOverlaps(first, "in-svc", overlaps, 5, kept,
                "2026-01-01T00:05:00Z");
        assertThat(again.get(1).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(PoolConditions.same(first, again)).isTrue();
        List<Condition> cleared = PoolConditions.withOverlaps(again, "in-svc", List.of(), 0, List.of(),
                "2026-01-01T00:09:00Z");
        assertThat(cleared.get(1).getStatus()).isEqualTo("False");
        assertThat(cleared.get(1).getReason()).isEqualTo(PoolConditions.REASON_NO_OVERLAP);
        assertThat(cleared.get(1).getLastTransitionTime()).isEqualTo("2026-01-01T00:09:00Z");
        assertThat(new ArrayList<>(cleared).get(0)).isSameAs(foreign);
    }
}
