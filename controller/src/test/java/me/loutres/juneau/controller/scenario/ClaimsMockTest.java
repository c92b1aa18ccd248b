package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Consumer;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.testing.ScenarioBase;
import org.junit.jupiter.api.Test;

/**
 * One address, one owner, whoever wrote the status (docs/allocation.md, "Two claims on one address"): a status
 * patched under the controller's identity (what a stale leader's write also looks like) is learnt by the running
 * leader and by the next one; an unparsable VIP keeps the address its Service still shows; two claims on one
 * address are settled the same way live and on restore — the older allocation keeps it, the other Service is told
 * ({@code AddressConflict} naming the holder, a Warning event, a metric) and gets another address.
 */
class ClaimsMockTest extends ScenarioBase {

    /** Bug A: after a takeover an unparsable status.vip must not free the address the Service still shows. */
    @Test
    void anUnparsableVipKeepsTheAddressItsServiceShowsAcrossARestart() {
        cluster.pool("cla-pool", "bgp", "10.198.0.0/29");   // usable .1 - .6
        cluster.network("cla-net", "bgp", "cla-pool");
        cluster.service("cla", "a-first", "cla-net");
        eventually(() -> assertThat(ingressIps("cla", "a-first")).containsExactly("10.198.0.1"));

        patchStatus("cla", "a-first", st -> st.setVip("not-an-address"));
        eventually(() -> assertThat(cluster.events("cla", "a-first", JuneauConstants.EVENT_MALFORMED_STATUS))
                .isNotEmpty());
        cluster.service("cla", "b-live", "cla-net");
        eventually(() -> assertThat(status("cla", "b-live").getVip()).isEqualTo("10.198.0.2"));

        restartController();
        cluster.service("cla", "c-after-restart", "cla-net");
        eventually(() -> assertThat(status("cla", "c-after-restart").getVip())
                .as("10.198.0.1 is still the Service's ingress: never handed out again").isEqualTo("10.198.0.3"));
        assertThat(ingressIps("cla", "a-first")).containsExactly("10.198.0.1");
    }

    /** Bug B: a well-formed VIP written by someone else is learnt; the address it replaced is free again. */
    @Test
    void aVipWrittenBySomeoneElseIsLearntByTheRunningLeader() {
        cluster.pool("clb-pool", "bgp", "10.198.1.0/29");   // usable .1 - .6
        cluster.network("clb-net", "bgp", "clb-pool");
        cluster.service("clb", "a-first", "clb-net");
        eventually(() -> assertThat(status("clb", "a-first").getVip()).isEqualTo("10.198.1.1"));
        cluster.service("clb", "b-moved", "clb-net");
        eventually(() -> assertThat(status("clb", "b-moved").getVip()).isEqualTo("10.198.1.2"));

        patchStatus("clb", "b-moved", st -> st.setVip("10.198.1.5"));
        eventually(() -> assertThat(ingressIps("clb", "b-moved")).containsExactly("10.198.1.5"));
        settle();
        List<String> names = List.of("c1", "c2", "c3", "c4");
        names.forEach(n -> cluster.service("clb", n, "clb-net"));
        eventually(() -> assertThat(names).allSatisfy(n -> assertThat(status("clb", n).getVip()).isNotNull()));
        settle();
        List<String> vips = vips("clb", List.of("a-first", "b-moved", "c1", "c2", "c3", "c4"));
        assertThat(vips).as("every address once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrder("10.198.1.1", "10.198.1.2", "10.198.1.3", "10.198.1.4", "10.198.1.5",
                        "10.198.1.6");
        assertThat(status("clb", "b-moved").getVip()).isEqualTo("10.198.1.5");
        assertThat(cluster.getPool("clb-pool").getStatus().getAllocated()).isEqualTo(6L);
    }

    /** Two claims on one address, live: the older allocation keeps it, the younger is told and moves. */
    @Test
    void aSecondClaimOnAnAddressLosesToTheOlderAllocationAndGetsAnother() {
        cluster.pool("clc-pool", "bgp", "10.198.2.0/29");
        cluster.network("clc-net", "bgp", "clc-pool");
        cluster.service("clc", "a-holder", "clc-net");
        eventually(() -> assertThat(status("clc", "a-holder").getVip()).isEqualTo("10.198.2.1"));
        cluster.service("clc", "z-claimant", "clc-net");
        eventually(() -> assertThat(status("clc", "z-claimant").getVip()).isEqualTo("10.198.2.2"));

        patchStatus("clc", "z-claimant", st -> st.setVip("10.198.2.1"));
        eventually(() -> assertThat(cluster.events("clc", "z-claimant", JuneauConstants.EVENT_ALLOCATION_FAILED))
                .anySatisfy(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains(JuneauConstants.REASON_ADDRESS_CONFLICT)
                            .contains("10.198.2.1").contains("clc/a-holder");
                }));
        eventually(() -> {
            assertThat(status("clc", "z-claimant").getVip()).isNotNull().isNotEqualTo("10.198.2.1");
            assertThat(ingressIps("clc", "z-claimant")).doesNotContain("10.198.2.1");
        });
        assertThat(status("clc", "a-holder").getVip()).isEqualTo("10.198.2.1");
        assertThat(ingressIps("clc", "a-holder")).containsExactly("10.198.2.1");
        assertThat(controller.scrapeMetrics())
                .containsPattern("juneau_allocation_failures_total\\{reason=\"AddressConflict\"\\} [1-9]");
        settle();
        assertThat(cluster.getPool("clc-pool").getStatus().getAllocated()).isEqualTo(2L);
    }

    /**
     * The same on restore: two statuses recording one address (a stale leader's write landed) are not both accepted;
     * the next leader keeps it for the older allocation and moves the other.
     */
    @Test
    void twoClaimsFoundOnRestoreAreSettledTheSameWay() {
        cluster.pool("cld-pool", "bgp", "10.198.3.0/29");
        cluster.network("cld-net", "bgp", "cld-pool");
        cluster.service("cld", "a-holder", "cld-net");
        eventually(() -> assertThat(status("cld", "a-holder").getVip()).isEqualTo("10.198.3.1"));
        cluster.service("cld", "z-claimant", "cld-net");
        eventually(() -> assertThat(status("cld", "z-claimant").getVip()).isEqualTo("10.198.3.2"));
        settle();

        controller.close();
        patchStatus("cld", "z-claimant", st -> st.setVip("10.198.3.1"));
        restartController();
        eventually(() -> {
            ServiceLoadBalancerStatus z = status("cld", "z-claimant");
            assertThat(z.getVip()).isNotNull().isNotEqualTo("10.198.3.1");
            assertThat(ingressIps("cld", "z-claimant")).containsExactly(z.getVip());
        });
        assertThat(cluster.events("cld", "z-claimant", JuneauConstants.EVENT_ALLOCATION_FAILED))
                .anySatisfy(e -> assertThat(e.getMessage()).contains(JuneauConstants.REASON_ADDRESS_CONFLICT)
                        .contains("cld/a-holder"));
        assertThat(status("cld", "a-holder").getVip()).isEqualTo("10.198.3.1");
        cluster.service("cld", "new", "cld-net");
        eventually(() -> assertThat(status("cld", "new").getVip()).isNotNull());
        settle();
        assertThat(vips("cld", List.of("a-holder", "z-claimant", "new"))).doesNotHaveDuplicates()
                .doesNotContainNull();
        assertThat(cluster.getPool("cld-pool").getStatus().getAllocated()).isEqualTo(3L);
    }

    /** Writes the status as the controller's identity would (what a stale leader's late write looks like). */
    private void patchStatus(String ns, String name, Consumer<ServiceLoadBalancerStatus> change) {
        KubernetesClient asController = cluster.newControllerClient();
        eventually(() -> {
            // read as the admin: the controller's RBAC lists and watches, it has no get
            ServiceLoadBalancer slb = cluster.client().resources(ServiceLoadBalancer.class).inNamespace(ns)
                    .withName(name).get();
            change.accept(slb.getStatus());
            asController.resources(ServiceLoadBalancer.class).inNamespace(ns).resource(slb).updateStatus();
        });
    }

    private List<String> ingressIps(String ns, String name) {
        return ingress(ns, name).stream().map(LoadBalancerIngress::getIp).toList();
    }

    private List<String> vips(String ns, List<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            out.add(status(ns, n).getVip());
        }
        assertThat(new HashSet<>(out)).hasSameSizeAs(out);
        return out;
    }
}
