package me.loutres.juneau.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.view.KubeObjects;
import org.junit.jupiter.api.Test;

/** What the agent keeps of a watched object: what its plan reads, not the conditions and bookkeeping around it. */
class LeanStoreTest {
    static final String SLB = "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"ServiceLoadBalancer\","
            + "\"metadata\":{\"name\":\"web\",\"namespace\":\"shop\",\"resourceVersion\":\"7\","
            + "\"annotations\":{\"a\":\"b\"},\"managedFields\":[{\"manager\":\"x\"}],"
            + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"name\":\"web\",\"uid\":\"u\"}]},"
            + "\"spec\":{\"serviceRef\":{\"name\":\"web\"},\"externalNetwork\":\"public\"},"
            + "\"status\":{\"vip\":\"198.18.100.1\",\"advertisingNodes\":[\"node-a\"],"
            + "\"conditions\":[{\"type\":\"Available\",\"status\":{\"damaged\":true}}]}}";

    @Test
    void keepsWhatThePlanReadsAndDropsTheRest() {
        LeanStore store = new LeanStore();
        store.put("shop/web", Serialization.unmarshal(SLB, GenericKubernetesResource.class));

        GenericKubernetesResource kept = store.get("shop/web");
        assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(kept.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(kept.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(kept.getMetadata().getOwnerReferences()).isNullOrEmpty();
        ServiceLoadBalancer slb = KubeObjects.read(KubeObjects.tree(kept), ServiceLoadBalancer.class,
                "ServiceLoadBalancer");
        assertThat(slb.getSpec().getExternalNetwork()).isEqualTo("public");
        assertThat(slb.getStatus().getVip()).isEqualTo("198.18.100.1");
        assertThat(slb.getStatus().getAdvertisingNodes()).containsExactly("node-a");
        assertThat(slb.getStatus().getConditions()).as("a damaged condition, never read, is not kept").isNullOrEmpty();
    }

    @Test
    void aStatusThatIsNoObjectIsLeftForTheReaderToRefuse() {
        GenericKubernetesResource g = Serialization.unmarshal(SLB.replaceFirst("\"status\":\\{.*\\}\\}$",
                "\"status\":\"broken\"}"), GenericKubernetesResource.class);

        LeanStore.lean(g);

        assertThat(g.getAdditionalProperties().get("status")).isEqualTo("broken");
    }

    @Test
    void anAdvertisementKeepsItsStatusAndLosesOnlyTheManagedFields() {
        String arp = "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"ARPAdvertisement\","
                + "\"metadata\":{\"name\":\"slb-shop-web\",\"resourceVersion\":\"3\",\"labels\":{\"l\":\"v\"},"
                + "\"annotations\":{\"a\":\"b\"},\"managedFields\":[{\"manager\":\"x\"}]},"
                + "\"spec\":{\"externalNetwork\":\"l2\",\"address\":\"198.18.0.5\",\"nodeName\":\"node-a\"},"
                + "\"status\":{\"node\":\"node-a\",\"conditions\":[{\"type\":\"Announced\",\"status\":\"True\"}]}}";
        LeanStore store = LeanStore.keepingStatus();
        store.put("slb-shop-web", Serialization.unmarshal(arp, GenericKubernetesResource.class));

        GenericKubernetesResource kept = store.get("slb-shop-web");
        assertThat(kept.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(kept.getMetadata().getLabels()).containsEntry("l", "v");
        assertThat(kept.getMetadata().getAnnotations()).containsEntry("a", "b");
        assertThat(kept.getAdditionalProperties().get("status")).asString().contains("Announced");
    }
}
