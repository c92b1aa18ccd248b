package me.loutres.juneau.controller.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import org.junit.jupiter.api.Test;

/** The bodies of the status writes: what the deep copy sent, without copying, and the object read untouched. */
class WriteBodiesTest {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    @Test
    void aServiceLoadBalancerStatusBodyIsTheObjectReadWithTheNewStatus() {
        ServiceLoadBalancer read = new ServiceLoadBalancer();
        read.getMetadata().setName("web");
        read.getMetadata().setNamespace("shop");
        read.getMetadata().setResourceVersion("12");
        read.setSpec(new ServiceLoadBalancerSpec());
        read.getSpec().setExternalNetwork("lan");
        ServiceLoadBalancerStatus before = new ServiceLoadBalancerStatus();
        before.setPhase("Pending");
        read.setStatus(before);
        String readJson = JSON.asJson(read);
        ServiceLoadBalancerStatus next = new ServiceLoadBalancerStatus();
        next.setPhase("Ready");
        next.setVip("10.0.0.1");

        ServiceLoadBalancer body = WriteBodies.withStatus(read, next);

        ServiceLoadBalancer expected = WriteBodies.copy(read, ServiceLoadBalancer.class);
        expected.setStatus(next);
        assertThat(JSON.asJson(body)).isEqualTo(JSON.asJson(expected));
        assertThat(JSON.asJson(read)).as("the object read is not changed").isEqualTo(readJson);
    }

    @Test
    void aServiceIngressBodyKeepsTheRestOfTheStatusAndLeavesTheServiceReadAlone() {
        Service read = new ServiceBuilder().withNewMetadata().withName("web").withNamespace("shop")
                .withResourceVersion("40").addToAnnotations("a", "b").endMetadata()
                .withNewSpec().withType("LoadBalancer").endSpec()
                .withNewStatus().addNewCondition().withType("Example").withStatus("True").endCondition()
                .withNewLoadBalancer().addNewIngress().withIp("10.0.0.9").endIngress().endLoadBalancer()
                .endStatus().build();
        read.getStatus().getLoadBalancer().setAdditionalProperty("extra", "kept");
        String readJson = JSON.asJson(read);
        List<LoadBalancerIngress> ingress = List.of(new LoadBalancerIngressBuilder().withIp("10.0.0.1").build());

        for (List<LoadBalancerIngress> set : java.util.Arrays.asList(ingress, null)) {
            Service body = WriteBodies.withIngress(read, set);

            Service expected = WriteBodies.copy(read, Service.class);
            expected.getStatus().getLoadBalancer().setIngress(set);
            assertThat(JSON.asJson(body)).isEqualTo(JSON.asJson(expected));
            assertThat(JSON.asJson(read)).as("the Service read is not changed").isEqualTo(readJson);
        }
    }

    @Test
    void aServiceWithoutStatusGetsOneWithTheIngress() {
        Service read = new ServiceBuilder().withNewMetadata().withName("web").withNamespace("shop")
                .withResourceVersion("3").endMetadata().build();
        List<LoadBalancerIngress> ingress = List.of(new LoadBalancerIngressBuilder().withIp("10.0.0.2").build());

        Service body = WriteBodies.withIngress(read, ingress);

        assertThat(body.getStatus().getLoadBalancer().getIngress()).isEqualTo(ingress);
        assertThat(body.getMetadata().getResourceVersion()).isEqualTo("3");
        assertThat(read.getStatus()).isNull();
    }
}
