package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDRBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.allocation.ClusterRangeOverlaps;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.controller.testing.TestDispatcher;
import me.loutres.juneau.testing.Eventually;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.status.PoolConditions;
import org.junit.jupiter.api.Test;

/**
 * Pools stored before a range the cluster uses was learnt (docs/allocation.md, "Pools overlapping the cluster's
 * ranges"): a ServiceCIDR or a Node's podCIDR that appears later makes the controller say so on the pool (condition
 * {@code Overlap} naming the object, a Warning event), leave those addresses out of the counts, never hand them out
 * (filling the pool), keep a VIP allocated there before and name it; the range going away clears it all. Pools lie
 * outside the local API server's {@code kubernetes} ServiceCIDR 10.96.0.0/12 except where a test overlaps it on
 * purpose.
 */
class PoolOverlapMockTest extends ScenarioBase {

    @Test
    void aServiceCidrLearntLaterReservesItsAddressesKeepsTheLiveVipAndGoesAwayCleanly() {
        cluster.pool("svc-later", "bgp", "10.213.0.0/29");
        cluster.network("svc-later-net", "bgp", "svc-later");
        cluster.service("svc-later", "live", "svc-later-net");
        eventually(() -> assertThat(status("svc-later", "live").getVip()).isEqualTo("10.213.0.1"));
        eventually(() -> assertThat(overlap("svc-later").getStatus()).isEqualTo("False"));

        // a second Service range added to the cluster, over the pool's lower half
        ServiceCIDR extra = cluster.client().resource(new ServiceCIDRBuilder().withNewMetadata().withName("extra")
                .endMetadata().withNewSpec().withCidrs("10.213.0.0/30").endSpec().build()).create();
        eventually(() -> {
            Condition c = overlap("svc-later");
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo(ClusterRangeOverlaps.REASON_OVERLAPS_CLUSTER_RANGE);
            assertThat(c.getMessage()).startsWith("2 addresses reserved (never handed out, not counted in total or "
                    + "free), 1 kept by the Service that held it before")
                    .contains("spec.addresses[0] \"10.213.0.0/29\" overlaps ServiceCIDR extra 10.213.0.0/30 "
                            + "(shared: 10.213.0.1-10.213.0.3)")
                    .contains("Service svc-later/live keeps VIP 10.213.0.1, inside ServiceCIDR extra 10.213.0.0/30");
            // 6 usable, 2 reserved and free of any holder: 4 a Service can hold, 1 of them held
            assertCounts("svc-later", 4, 1, 3);
        });
        eventually(() -> assertThat(cluster.events("default", "svc-later",
                ClusterRangeOverlaps.REASON_OVERLAPS_CLUSTER_RANGE)).extracting(e -> e.getType() + " " + e.getMessage())
                .anyMatch(m -> m.startsWith("Warning ") && m.contains("overlaps ServiceCIDR extra 10.213.0.0/30"))
                .anyMatch(m -> m.startsWith("Warning ") && m.contains("keeps VIP 10.213.0.1")));
        // the live VIP is not taken back
        assertThat(status("svc-later", "live").getVip()).isEqualTo("10.213.0.1");

        // filling the pool skips the reserved .2 and .3
        List<String> vips = fill("svc-later", "svc-later-net", 4);
        assertThat(vips).containsExactlyInAnyOrder("10.213.0.4", "10.213.0.5", "10.213.0.6");
        eventually(() -> assertCounts("svc-later", 4, 4, 0));

        // the range goes: the condition clears, its addresses count again and the waiting Service gets one
        String waiting = waiting("svc-later", 4);
        cluster.client().resource(extra).delete();
        eventually(() -> {
            assertThat(overlap("svc-later").getStatus()).isEqualTo("False");
            assertThat(overlap("svc-later").getReason()).isEqualTo(PoolConditions.REASON_NO_OVERLAP);
            assertThat(status("svc-later", waiting).getVip()).isEqualTo("10.213.0.2");
            assertCounts("svc-later", 6, 5, 1);
        });
    }

    @Test
    void aNodeJoiningWithAnOverlappingPodCidrReservesItsAddressesInAnArpPool() {
        cluster.pool("pods-later", "arp", "10.214.1.250-10.214.2.3");
        cluster.network("pods-later-net", "arp", "pods-later");
        eventually(() -> assertCounts("pods-later", 10, 0, 10));
        cluster.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("worker-1").endMetadata()
                .withNewSpec().withPodCIDRs("10.214.1.0/24").endSpec().withNewStatus().addNewAddress()
                .withType("InternalIP").withAddress("172.30.9.1").endAddress().endStatus().build()).create();
        eventually(() -> {
            Condition c = overlap("pods-later");
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getMessage()).startsWith("6 addresses reserved")
                    .contains("overlaps Node worker-1 podCIDR 10.214.1.0/24 (shared: 10.214.1.250-10.214.1.255)")
                    .doesNotContain("keeps VIP");
            assertCounts("pods-later", 4, 0, 4);
        });
        eventually(() -> assertThat(cluster.events("default", "pods-later",
                ClusterRangeOverlaps.REASON_OVERLAPS_CLUSTER_RANGE)).anySatisfy(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains("Node worker-1 podCIDR 10.214.1.0/24");
                }));

        List<String> vips = fill("pods-later", "pods-later-net", 5);
        assertThat(vips).containsExactlyInAnyOrder("10.214.2.0", "10.214.2.1", "10.214.2.2", "10.214.2.3");
        eventually(() -> assertCounts("pods-later", 4, 4, 0));

        String waiting = waiting("pods-later", 5);
        cluster.client().nodes().withName("worker-1").delete();
        eventually(() -> {
            assertThat(overlap("pods-later").getStatus()).isEqualTo("False");
            assertThat(status("pods-later", waiting).getVip()).isEqualTo("10.214.1.250");
            assertCounts("pods-later", 10, 5, 5);
        });
    }

    @Test
    void aPoolStoredInsideTheKubernetesServiceCidrBeforeTheWebhookHandsOutNothing() {
        // deliberately inside the local API server's ServiceCIDR kubernetes 10.96.0.0/12, which admission refuses
        cluster.beforeTheWebhook(() -> cluster.pool("in-kubernetes", "bgp", "10.100.9.0/30"));
        cluster.network("in-kubernetes-net", "bgp", "in-kubernetes");
        cluster.service("in-kubernetes", "waits", "in-kubernetes-net");
        eventually(() -> {
            assertThat(overlap("in-kubernetes").getMessage()).startsWith("2 addresses reserved")
                    .contains("overlaps ServiceCIDR kubernetes 10.96.0.0/12 (shared: 10.100.9.1-10.100.9.2)");
            assertCounts("in-kubernetes", 0, 0, 0);
            assertThat(status("in-kubernetes", "waits").getPhase()).isEqualTo("Pending");
            assertThat(status("in-kubernetes", "waits").getVip()).isNull();
        });
    }

    @Test
    void anApiServerWithoutServiceCidrsLeavesTheControllerReadyAndThePodCidrsStillReserved() {
        // Kubernetes before 1.33: no ServiceCIDR kind; the controller says so once and is not stuck unready
        TestDispatcher old = new TestDispatcher();
        old.notServed("/servicecidrs");
        try (MockCluster c = new MockCluster(old)) {
            c.pool("old-pool", "bgp", "10.215.0.0/29");
            c.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("old-1").endMetadata()
                    .withNewSpec().withPodCIDRs("10.215.0.0/30").endSpec().build()).create();
            c.network("old-net", "bgp", "old-pool");
            JuneauController ctl = c.startController("controller-without-servicecidrs");
            Eventually.until("leads without ServiceCIDRs", ctl::isLeader);
            c.service("old", "web", "old-net");
            eventually(() -> {
                assertThat(ctl.isReady()).isTrue();
                assertThat(ctl.isHealthy()).isTrue();
                assertThat(c.slb("old", "web").getStatus().getVip()).isEqualTo("10.215.0.4");
                assertThat(c.getPool("old-pool").getStatus().getConditions())
                        .anySatisfy(cond -> assertThat(cond.getMessage()).contains("Node old-1 podCIDR 10.215.0.0/30"));
            });
            assertThat(old.requests()).anyMatch(r -> r.path().contains("/servicecidrs")
                    && MockCluster.CONTROLLER_AGENT.equals(r.userAgent()));
        }
    }

    /**
     * A node's gateway and interface address, as its agent reports them on its NodeNetwork (docs/api-reference.md,
     * NodeNetwork), are learnt like a podCIDR: the pool that holds them says so, never hands them out, and follows
     * the node renumbering and its NodeNetwork going.
     */
    @Test
    void aNodesGatewayAndInterfaceAddressReportedLaterAreNeverHandedOut() {
        cluster.pool("lan-later", "arp", "10.216.0.1-10.216.0.6");
        cluster.network("lan-later-net", "arp", "lan-later");
        eventually(() -> assertCounts("lan-later", 6, 0, 6));
        cluster.ensureNode("worker-7");
        try (var agent = cluster.newAgentClient("worker-7")) {
            var nn = new me.loutres.juneau.api.v1alpha1.NodeNetwork();
            nn.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("worker-7").build());
            nn.setSpec(me.loutres.juneau.api.v1alpha1.NodeNetworkSpec.of("worker-7"));
            nn = agent.resource(nn).create();
            nn.setStatus(reported("10.216.0.1", "10.216.0.2/24"));
            agent.resource(nn).updateStatus();
            eventually(() -> {
                Condition c = overlap("lan-later");
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getReason()).isEqualTo(ClusterRangeOverlaps.REASON_OVERLAPS_CLUSTER_RANGE);
                assertThat(c.getMessage()).startsWith("2 addresses reserved")
                        .contains("spec.addresses[0] \"10.216.0.1-10.216.0.6\" overlaps the default gateway 10.216.0.1"
                                + " of node worker-7 (interface eth0, NodeNetwork worker-7) (shared: 10.216.0.1)")
                        .contains("overlaps the address 10.216.0.2 of node worker-7 interface eth0 (NodeNetwork"
                                + " worker-7) (shared: 10.216.0.2)");
                assertCounts("lan-later", 4, 0, 4);
            });
            eventually(() -> assertThat(cluster.events("default", "lan-later",
                    ClusterRangeOverlaps.REASON_OVERLAPS_CLUSTER_RANGE)).anySatisfy(e -> {
                        assertThat(e.getType()).isEqualTo("Warning");
                        assertThat(e.getMessage()).contains("the default gateway 10.216.0.1 of node worker-7");
                    }));
            List<String> vips = fill("lan-later", "lan-later-net", 5);
            assertThat(vips).containsExactlyInAnyOrder("10.216.0.3", "10.216.0.4", "10.216.0.5", "10.216.0.6");

            // the node renumbers: its interface moves off the pool, the gateway stays; the address is free again
            String waiting = waiting("lan-later", 5);
            var stored = agent.resources(me.loutres.juneau.api.v1alpha1.NodeNetwork.class).withName("worker-7").get();
            stored.setStatus(reported("10.216.0.1", "10.217.0.2/24"));
            agent.resource(stored).updateStatus();
            eventually(() -> {
                assertThat(overlap("lan-later").getMessage()).startsWith("1 address")
                        .doesNotContain("10.216.0.2 of node");
                assertThat(status("lan-later", waiting).getVip()).isEqualTo("10.216.0.2");
                assertCounts("lan-later", 5, 5, 0);
            });
        }
        // the node leaves (an admin deletes what is left of it; the agent has no delete grant)
        cluster.beforeTheWebhook(() -> cluster.client().resources(me.loutres.juneau.api.v1alpha1.NodeNetwork.class)
                .withName("worker-7").delete());
        eventually(() -> {
            assertThat(overlap("lan-later").getStatus()).isEqualTo("False");
            assertCounts("lan-later", 6, 5, 1);
        });
    }

    private static me.loutres.juneau.api.v1alpha1.NodeNetworkStatus reported(String gateway, String address) {
        return new me.loutres.juneau.api.v1alpha1.NodeNetworkStatus(
                List.of(new me.loutres.juneau.api.v1alpha1.NodeInterface("eth0", "52:54:00:00:00:07", true,
                        List.of(address))),
                List.of(new me.loutres.juneau.api.v1alpha1.NodeGateway(gateway, "eth0")));
    }

    /** Creates {@code n} Services on the network and returns the VIPs they got once all who can have one. */
    private List<String> fill(String ns, String network, int n) {
        for (int i = 0; i < n; i++) {
            cluster.service(ns, "fill-" + i, network);
        }
        List<String> vips = new ArrayList<>();
        eventually(Duration.ofSeconds(30), () -> {
            vips.clear();
            int pending = 0;
            for (int i = 0; i < n; i++) {
                var slb = cluster.slb(ns, "fill-" + i);
                assertThat(slb).isNotNull();
                assertThat(slb.getStatus()).isNotNull();
                if (slb.getStatus().getVip() != null) {
                    vips.add(slb.getStatus().getVip());
                } else {
                    assertThat(slb.getStatus().getPhase()).isEqualTo("Pending");
                    pending++;
                }
            }
            assertThat(pending).as("Services left waiting").isEqualTo(1);
        });
        vips.forEach(v -> assertThat(Ipv4.parse(v)).isPositive());
        return vips;
    }

    /** The one fill Service left without an address (whichever lost the race for the last one). */
    private String waiting(String ns, int n) {
        List<String> left = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (cluster.slb(ns, "fill-" + i).getStatus().getVip() == null) {
                left.add("fill-" + i);
            }
        }
        assertThat(left).as("Services left waiting").hasSize(1);
        return left.get(0);
    }

    private Condition overlap(String pool) {
        AddressPoolStatus s = cluster.getPool(pool).getStatus();
        assertThat(s).as("status of %s", pool).isNotNull();
        assertThat(s.getConditions()).as("conditions of %s", pool).isNotNull();
        return s.getConditions().stream().filter(c -> PoolConditions.CONDITION_OVERLAP.equals(c.getType()))
                .findFirst().orElseThrow(() -> new AssertionError("no Overlap condition on " + pool));
    }

    private void assertCounts(String pool, long total, long allocated, long free) {
        AddressPoolStatus s = cluster.getPool(pool).getStatus();
        assertThat(s).as("status of %s", pool).isNotNull();
        assertThat(List.of(s.getTotal(), s.getAllocated(), s.getFree())).as("total, allocated, free of %s", pool)
                .containsExactly(total, allocated, free);
    }
}
