package me.loutres.juneau.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.util.List;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.status.AllocationState;
import org.junit.jupiter.api.Test;

/** docs/dual-stack.md: what the controller does with the families a Service asks for, while it hands out IPv4 only. */
class ServedFamiliesTest {
    private static final AllocationNeed ASK = new AllocationNeed.Allocate("public", List.of("pool-a"), OptionalLong.empty());

    private static Service svc(String policy, String... families) {
        return new ServiceBuilder().withNewMetadata().withName("web").withNamespace("shop").endMetadata()
                .withNewSpec().withIpFamilyPolicy(policy).withIpFamilies(families.length == 0 ? null : List.of(families))
                .endSpec().build();
    }

    @Test
    void ipv4FirstIsAskedAsBefore() {
        assertThat(ServicePlanner.servedFamilies(svc(null), ASK)).isSameAs(ASK);
        assertThat(ServicePlanner.servedFamilies(svc("SingleStack", "IPv4"), ASK)).isSameAs(ASK);
        assertThat(ServicePlanner.servedFamilies(svc("PreferDualStack", "IPv4", "IPv6"), ASK)).isSameAs(ASK);
    }

    @Test
    void ipv6FirstOrBothRequiredWaitsSayingWhy() {
        for (Service s : List.of(svc("SingleStack", "IPv6"), svc("PreferDualStack", "IPv6", "IPv4"),
                svc("RequireDualStack", "IPv4", "IPv6"), svc(null, "IPv4", "IPv6"))) {
            AllocationNeed need = ServicePlanner.servedFamilies(s, ASK);
            assertThat(need).isInstanceOf(AllocationNeed.Decided.class);
            AllocationState state = ((AllocationNeed.Decided) need).state();
            assertThat(state).isInstanceOf(AllocationState.Pending.class);
            AllocationState.Pending p = (AllocationState.Pending) state;
            assertThat(p.reason()).isEqualTo(JuneauConstants.REASON_FAMILY_NOT_SERVED);
            assertThat(p.message()).contains("asks for " + s.getSpec().getIpFamilies())
                    .contains("hands out IPv4 VIPs only so far");
        }
    }

    @Test
    void aDecisionAlreadyTakenStays() {
        AllocationNeed kept = new AllocationNeed.Decided(new AllocationState.Pending(JuneauConstants.REASON_POOL_EXHAUSTED, "x"));
        assertThat(ServicePlanner.servedFamilies(svc("SingleStack", "IPv6"), kept)).isSameAs(kept);
    }

    @Test
    void aRequestWithBothFamiliesAsksForItsIpv4Address() {
        ServiceLoadBalancer slb = new ServiceLoadBalancer();
        ServiceLoadBalancerSpec spec = new ServiceLoadBalancerSpec();
        spec.setRequestedIP("2001:db8::5, 192.0.2.7");
        slb.setSpec(spec);
        NetworkResolution usable = new NetworkResolution.Usable("public", "bgp", List.of());
        AllocationNeed need = ServicePlanner.need(slb, usable, null);
        assertThat(need).isInstanceOf(AllocationNeed.Allocate.class);
        assertThat(((AllocationNeed.Allocate) need).requested()).hasValue(Ipv4.parse("192.0.2.7"));
        spec.setRequestedIP("2001:db8::5");
        assertThat(((AllocationNeed.Allocate) ServicePlanner.need(slb, usable, null)).requested()).isEmpty();
    }
}
