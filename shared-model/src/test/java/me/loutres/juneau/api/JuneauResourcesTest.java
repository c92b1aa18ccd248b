package me.loutres.juneau.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import me.loutres.juneau.api.v1alpha1.JuneauResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A watch event of a Juneau kind is read into its class once the kinds are registered, and only then. */
class JuneauResourcesTest {
    private static String event(String kind) {
        return "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"" + JuneauConstants.API_VERSION + "\",\"kind\":\""
                + kind + "\",\"metadata\":{\"name\":\"web\",\"resourceVersion\":\"7\"},\"spec\":{}}}";
    }

    @ParameterizedTest
    @ValueSource(strings = {"AddressPool", "ExternalNetwork", "ServiceLoadBalancer", "ARPAdvertisement", "BGPPeer",
        "BFDProfile", "BGPSession"})
    void aRegisteredKindIsReadIntoItsClassAndAnUnregisteredOneIsNot(String kind) {
        KubernetesSerialization plain = new KubernetesSerialization();
        Object untyped = plain.unmarshal(event(kind), WatchEvent.class).getObject();
        assertThat(untyped).isInstanceOf(GenericKubernetesResource.class);

        KubernetesSerialization registered = new KubernetesSerialization();
        JuneauResources.KINDS.forEach(registered::registerKubernetesResource);
        JuneauResources.KINDS.forEach(registered::registerKubernetesResource); // twice is harmless
        Object typed = registered.unmarshal(event(kind), WatchEvent.class).getObject();
        assertThat(typed.getClass().getSimpleName()).isEqualTo(kind);
        assertThat(((HasMetadata) typed).getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(JuneauResources.KINDS).anyMatch(c -> c.isInstance(typed));
    }

    @Test
    void otherKindsAreLeftAsTheyWere() {
        KubernetesSerialization registered = new KubernetesSerialization();
        JuneauResources.KINDS.forEach(registered::registerKubernetesResource);
        Object svc = registered.unmarshal("{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Service\","
                + "\"metadata\":{\"name\":\"web\"}}}", WatchEvent.class).getObject();
        assertThat(svc).isInstanceOf(io.fabric8.kubernetes.api.model.Service.class);
        Object other = registered.unmarshal("{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"example.com/v1\","
                + "\"kind\":\"ServiceLoadBalancer\",\"metadata\":{\"name\":\"web\"}}}", WatchEvent.class).getObject();
        assertThat(other).isInstanceOf(GenericKubernetesResource.class);
    }
}
