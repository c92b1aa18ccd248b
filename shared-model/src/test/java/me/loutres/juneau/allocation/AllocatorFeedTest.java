package me.loutres.juneau.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.util.List;
import java.util.OptionalLong;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.view.NodeInternalIps;
import org.junit.jupiter.api.Test;

/** The one feed of the allocator: one policy for a bad pool entry, node addresses, records oldest first. */
class AllocatorFeedTest {

    static AddressPool pool(String name, String mode, String... entries) {
        AddressPool p = new AddressPool();
        p.getMetadata().setName(name);
        AddressPoolSpec spec = new AddressPoolSpec();
        spec.setAdvertiseMode(mode);
        spec.setAddresses(List.of(entries));
        p.setSpec(spec);
        return p;
    }

    static ServiceLoadBalancer slb(String ns, String name, String created, String vip, String pool) {
        ServiceLoadBalancer s = new ServiceLoadBalancer();
        s.getMetadata().setNamespace(ns);
        s.getMetadata().setName(name);
        s.getMetadata().setCreationTimestamp(created);
        ServiceLoadBalancerStatus st = new ServiceLoadBalancerStatus();
        st.setVip(vip);
        st.setAddressPool(pool);
        s.setStatus(st);
        return s;
    }

    static Node node(String name, String... internalIps) {
        NodeBuilder b = new NodeBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().endStatus();
        for (String ip : internalIps) {
            b.editStatus().addNewAddress().withType("InternalIP").withAddress(ip).endAddress().endStatus();
        }
        b.editStatus().addNewAddress().withType("Hostname").withAddress(name).endAddress().endStatus();
        return b.build();
    }

    @Test
    void aBadEntryOffersNoAddressButThePoolsOtherEntriesStayInUse() {
        AllocatorFeed.PoolFeed feed = AllocatorFeed.pool(pool("p", "bgp", "10.0.0.0/30", "10.0.1.0/40", "10.0.2.0/31"));
        assertThat(feed.entries()).extracting(e -> e.range().toString())
                .containsExactly("10.0.0.0-10.0.0.3", "10.0.2.0-10.0.2.1");
        assertThat(feed.problems()).singleElement().asString()
                .startsWith("AddressPool p spec.addresses[1]: \"10.0.1.0/40\"").endsWith("; this entry offers no address");
        Allocator a = new Allocator();
        feed.into(a);
        assertThat(a.usage("p").total()).isEqualTo(4); // 2 usable in the /30, both of the /31
    }

    @Test
    void nodeAddressesAreTrimmedIpv4InternalIpsFirstNodeWinning() {
        List<Node> nodes = List.of(node("a", " 10.0.0.11 ", "fd00::1"), node("b", "10.0.0.12", "10.0.0.11"),
                new NodeBuilder().withNewMetadata().withName("bare").endMetadata().build());
        assertThat(NodeInternalIps.byAddress(nodes)).containsExactly(
                java.util.Map.entry(Ipv4.parse("10.0.0.11"), "a"), java.util.Map.entry(Ipv4.parse("10.0.0.12"), "b"));
        assertThat(AllocatorFeed.nodeAddresses(nodes)).containsExactlyInAnyOrder(Ipv4.parse("10.0.0.11"), Ipv4.parse("10.0.0.12"));
    }

    @Test
    void recordsOldestFirstWithNamespaceNameBreakingTiesAndNoTimestampLast() {
        List<ServiceLoadBalancer> slbs = List.of(
                slb("b", "x", "2026-11-02T00:00:00Z", "10.0.0.1", "p"),
                slb("z", "none", null, "10.0.0.9", "p"),
                slb("a", "y", "2026-11-02T00:00:00Z", "10.0.0.2", "p"),
                slb("c", "old", "2026-11-01T00:00:00Z", "10.0.0.3", "p"),
                slb("c", "no-vip", "2026-10-01T00:00:00Z", null, null));
        assertThat(AllocatorFeed.records(slbs, List.of()).records()).extracting(AllocationRecord::owner)
                .containsExactly("c/old", "a/y", "b/x", "z/none");
    }

    @Test
    void theOlderRecordKeepsAnAddressTwoClaim() {
        List<ServiceLoadBalancer> slbs = List.of(
                slb("b", "newer", "2026-11-02T00:00:00Z", "10.0.0.1", "p"),
                slb("a", "older", "2026-11-01T00:00:00Z", "10.0.0.1", "p"));
        Allocator a = AllocatorFeed.allocator(List.of(pool("p", "bgp", "10.0.0.0/24")), List.of(), slbs);
        assertThat(a.holderOf(Ipv4.parse("10.0.0.1"))).contains("a/older");
    }

    @Test
    void aVipWithoutPoolStaysReservedInThePoolThatContainsItAndABadVipIsReported() {
        List<AddressPool> pools = List.of(pool("p", "bgp", "10.0.0.0/24"), pool("q", "arp", "10.0.1.10-10.0.1.20"));
        AllocatorFeed.Records r = AllocatorFeed.records(List.of(
                slb("a", "nopool", "2026-11-01T00:00:00Z", "10.0.1.12", null),
                slb("a", "nowhere", "2026-11-01T00:00:00Z", "172.16.0.1", ""),
                slb("a", "bad", "2026-11-01T00:00:00Z", "10.0.0.300", "p")), pools);
        assertThat(r.records()).extracting(AllocationRecord::toString)
                .containsExactly("a/nopool=10.0.1.12@q", "a/nowhere=172.16.0.1@");
        assertThat(r.problems()).containsExactly(
                "ServiceLoadBalancer a/bad status.vip: \"10.0.0.300\" is not an IPv4 address: octet 300 is above 255; expected a dotted quad such as 192.0.2.10; not restored",
                "ServiceLoadBalancer a/nopool has status.vip 10.0.1.12 but no status.addressPool; the address stays reserved in AddressPool q",
                "ServiceLoadBalancer a/nowhere has status.vip 172.16.0.1 but no status.addressPool; the address stays reserved (no AddressPool contains it)");
        Allocator a = AllocatorFeed.allocator(pools, List.of(), List.of(slb("a", "nopool", "2026-11-01T00:00:00Z", "10.0.1.10", null)));
        AllocationResult next = a.allocate("a/new", List.of("q"), OptionalLong.empty());
        assertThat(next).isInstanceOfSatisfying(AllocationResult.Allocated.class,
                x -> assertThat(Ipv4.format(x.address())).isEqualTo("10.0.1.11"));
    }

    /** Found by the 100,000-case object-read fuzz: a pool without metadata or name made the lookup throw. */
    @Test
    void aPoolWithoutANameIsNotWhereAVipWithoutPoolIsReserved() {
        AddressPool noName = pool(null, "arp", "198.51.100.10-198.51.100.20");
        AddressPool noMetadata = pool("x", "arp", "198.51.100.10-198.51.100.20");
        noMetadata.setMetadata(null);
        AllocatorFeed.Records r = AllocatorFeed.records(
                List.of(slb("a", "nopool", "2026-11-01T00:00:00Z", "198.51.100.12", null)), List.of(noName, noMetadata));
        assertThat(r.records()).extracting(AllocationRecord::toString).containsExactly("a/nopool=198.51.100.12@");
        assertThat(r.problems()).containsExactly("ServiceLoadBalancer a/nopool has status.vip 198.51.100.12 but no"
                + " status.addressPool; the address stays reserved (no AddressPool contains it)");
    }

    @Test
    void theForecastReservesServiceCidrsAndPodCidrsAsTheControllerDoes() {
        Node worker = node("worker-1", "172.30.0.1");
        worker.setSpec(new io.fabric8.kubernetes.api.model.NodeSpecBuilder().withPodCIDRs("10.244.1.0/24",
                "fd00:244:1::/64").build());
        var kubernetes = new io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDRBuilder().withNewMetadata()
                .withName("kubernetes").endMetadata().withNewSpec().withCidrs("10.96.0.0/12").endSpec().build();
        assertThat(AllocatorFeed.learntRanges(List.of(worker), List.of(kubernetes))).extracting(Object::toString)
                .containsExactly("10.244.1.0-10.244.1.255", "10.96.0.0-10.111.255.255");
        Allocator a = AllocatorFeed.allocator(List.of(pool("p", "bgp", "10.244.1.248/29", "10.96.0.0/30",
                "10.250.0.0/30")), List.of(worker), List.of(kubernetes), List.of());
        assertThat(a.usage("p")).isEqualTo(new PoolUsage("p", 2, 0));
        assertThat(a.reservedCount("p")).isEqualTo(8);
        assertThat(a.allocate("x/y", List.of("p"), OptionalLong.empty()))
                .isInstanceOfSatisfying(AllocationResult.Allocated.class,
                        x -> assertThat(Ipv4.format(x.address())).isEqualTo("10.250.0.1"));
    }

    @Test
    void nodeAddressesAreNeverHandedOutFromArpPools() {
        Allocator a = AllocatorFeed.allocator(List.of(pool("q", "arp", "10.0.1.10-10.0.1.11")),
                List.of(node("n", "10.0.1.10")), List.of());
        assertThat(a.allocate("x/y", List.of("q"), OptionalLong.empty()))
                .isInstanceOfSatisfying(AllocationResult.Allocated.class,
                        x -> assertThat(Ipv4.format(x.address())).isEqualTo("10.0.1.11"));
    }
}
