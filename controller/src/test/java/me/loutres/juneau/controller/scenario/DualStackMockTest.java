package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.FamilyCountsStatus;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import org.junit.jupiter.api.Test;

/**
 * docs/dual-stack.md through the local API server and its webhook: pools of both families are admitted and their
 * IPv4 part serves as before; a Service whose first family is IPv6, or that requires both, waits Pending with
 * {@code FamilyNotServed} instead of getting an IPv4 VIP; a PreferDualStack Service with IPv4 first, and the IPv4
 * address of a "v4,v6" request, get their IPv4 VIP.
 */
class DualStackMockTest extends ScenarioBase {

    @Test
    void aDualStackPoolServesIpv4AndIpv6ServicesWaitSayingWhy() {
        AddressPool pool = cluster.pool("ds-pool", "bgp", "10.95.0.0/29", "2001:db8:95::/64");
        assertThat(pool.getSpec().getAddresses()).containsExactly("10.95.0.0/29", "2001:db8:95::/64");
        cluster.network("ds-net", "bgp", "ds-pool");

        cluster.create(MockCluster.managedService("ds", "v4-first", "ds-net").editSpec()
                .withIpFamilyPolicy("PreferDualStack").withIpFamilies(List.of("IPv4", "IPv6")).endSpec().build());
        cluster.create(MockCluster.managedService("ds", "v6", "ds-net").editSpec()
                .withIpFamilyPolicy("SingleStack").withIpFamilies(List.of("IPv6")).endSpec().build());
        cluster.create(MockCluster.managedService("ds", "both", "ds-net").editSpec()
                .withIpFamilyPolicy("RequireDualStack").withIpFamilies(List.of("IPv4", "IPv6")).endSpec().build());
        cluster.create(MockCluster.managedService("ds", "asks-both", "ds-net").editMetadata()
                .addToAnnotations(JuneauConstants.ANNOTATION_REQUESTED_IP, "2001:db8:95::9, 10.95.0.5").endMetadata()
                .editSpec().withIpFamilyPolicy("PreferDualStack").withIpFamilies(List.of("IPv4", "IPv6")).endSpec().build());

        eventually(() -> {
            assertThat(status("ds", "v4-first").getVip()).isEqualTo("10.95.0.1");
            assertThat(status("ds", "asks-both").getVip()).isEqualTo("10.95.0.5");
            for (String name : List.of("v6", "both")) {
                ServiceLoadBalancerStatus s = status("ds", name);
                assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
                assertThat(s.getVip()).isNull();
                Condition c = condition(s, JuneauConstants.CONDITION_ALLOCATED);
                assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_FAMILY_NOT_SERVED);
                assertThat(c.getMessage()).contains("hands out IPv4 VIPs only so far");
            }
            assertThat(ingress("ds", "v6")).isEmpty();
            // the pool's counts are its IPv4 ones: a /29 gives 6, two of them held
            assertThat(cluster.getPool("ds-pool").getStatus().getTotal()).isEqualTo(6L);
            assertThat(cluster.getPool("ds-pool").getStatus().getAllocated()).isEqualTo(2L);
            // per family: ipv4 as the top level, ipv6 a /64 saturating at int64's largest value
            assertThat(cluster.getPool("ds-pool").getStatus().getIpv4())
                    .isEqualTo(new FamilyCountsStatus(6L, 2L, 4L));
            assertThat(cluster.getPool("ds-pool").getStatus().getIpv6())
                    .isEqualTo(new FamilyCountsStatus(Long.MAX_VALUE, 0L, Long.MAX_VALUE));
            assertThat(cluster.events("ds", "v6", JuneauConstants.EVENT_ALLOCATION_FAILED)).isNotEmpty()
                    .allSatisfy(e -> assertThat(e.getMessage()).startsWith(JuneauConstants.REASON_FAMILY_NOT_SERVED + ": "));
        });
    }

    @Test
    void poolStatusCountsEachFamilyAndAnIpv4OnlyPoolStaysAsItWas() {
        cluster.pool("v4only-pool", "arp", "10.95.1.10-10.95.1.19");
        cluster.pool("v6only-pool", "arp", "fd00:95::10-fd00:95::1f");
        cluster.pool("wide-pool", "bgp", "2001:db8:96::/64", "2001:db8:97::/64", "10.95.2.0/30");
        eventually(() -> {
            AddressPool v4 = cluster.getPool("v4only-pool");
            assertThat(v4.getStatus().getTotal()).isEqualTo(10L);
            assertThat(v4.getStatus().getIpv4()).isNull();
            assertThat(v4.getStatus().getIpv6()).isNull();
            AddressPool v6 = cluster.getPool("v6only-pool");
            assertThat(v6.getStatus().getIpv4()).isNull();
            assertThat(v6.getStatus().getIpv6()).isEqualTo(new FamilyCountsStatus(16L, 0L, 16L));
            assertThat(v6.getStatus().getTotal()).isZero(); // the top-level counts are the IPv4 ones
            AddressPool wide = cluster.getPool("wide-pool");
            // two /64s: 2^65 - 2 usable, saturated, never negative
            assertThat(wide.getStatus().getIpv6()).isEqualTo(new FamilyCountsStatus(Long.MAX_VALUE, 0L, Long.MAX_VALUE));
            assertThat(wide.getStatus().getIpv4()).isEqualTo(new FamilyCountsStatus(2L, 0L, 2L));
        });
    }

    @Test
    void theWebhookRefusesWhatTheNetworkCanNeverServe() {
        cluster.pool("v4o-pool", "bgp", "10.93.40.0/29");
        cluster.network("v4o-net", "bgp", "v4o-pool");
        assertThatThrownBy(() -> cluster.create(MockCluster.managedService("ds-refused", "v6", "v4o-net").editSpec()
                .withIpFamilyPolicy("SingleStack").withIpFamilies(List.of("IPv6")).endSpec().build()))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getMessage()).isEqualTo("admission webhook \"services.validate.juneau.loutres.me\""
                            + " denied the request: spec.ipFamilies: the Service asks for [IPv6] (SingleStack), but no "
                            + "AddressPool of ExternalNetwork \"v4o-net\" holds IPv6 addresses; its pools: v4o-pool (IPv4); "
                            + "accepted: a family its pools hold (IPv4), or add IPv6 entries to one of its pools");
                });
        assertThatThrownBy(() -> cluster.pool("ll-pool", "bgp", "fe80::/64"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e ->
                        assertThat(e.getStatus().getMessage()).contains("overlaps fe80::/10 (link-local"));
    }
}
