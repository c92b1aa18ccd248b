package me.loutres.juneau.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import org.junit.jupiter.api.Test;

/**
 * What the agent keeps of a ServiceLoadBalancer (issue 38): a small record of what its plan reads, and only of those
 * whose status names its node; what the informer sees of a kept one is enough to compare versions.
 */
class LoadBalancerStoreTest {
    static String slb(String name, String version, String uid, String nodes, String rest) {
        return "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"ServiceLoadBalancer\","
                + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"shop\",\"uid\":\"" + uid + "\","
                + "\"resourceVersion\":\"" + version + "\",\"annotations\":{\"a\":\"b\"},"
                + "\"managedFields\":[{\"manager\":\"x\"}]},"
                + "\"spec\":{\"serviceRef\":{\"name\":\"" + name + "\"},\"externalNetwork\":\"public\"},"
                + "\"status\":{\"vip\":\"198.18.100.1\",\"advertisingNodes\":[" + nodes + "]" + rest
                + ",\"conditions\":[{\"type\":\"Available\",\"status\":{\"damaged\":true}}]}}";
    }

    static GenericKubernetesResource g(String json) {
        return Serialization.unmarshal(json, GenericKubernetesResource.class);
    }

    final LoadBalancerStore store = new LoadBalancerStore("node-a");

    @Test
    void keepsTheNetworkAndVipOfWhatTheNodeAnnounces() {
        assertThat(store.put("shop/web", g(slb("web", "7", "u1", "\"node-a\",\"node-b\"", "")))).isNull();

        LoadBalancerStore.Entry e = store.entries().get("shop/web");
        assertThat(e.used()).isEqualTo(new LoadBalancerStore.Lean("shop/web", "u1", "7", "public", "198.18.100.1"));
        assertThat(e.problem()).isNull();
        ServiceLoadBalancer typed = store.usable().get(0);
        assertThat(typed.getMetadata().getNamespace()).isEqualTo("shop");
        assertThat(typed.getMetadata().getName()).isEqualTo("web");
        assertThat(typed.getSpec().getExternalNetwork()).isEqualTo("public");
        assertThat(typed.getStatus().getVip()).isEqualTo("198.18.100.1");
        assertThat(typed.getStatus().getAdvertisingNodes()).containsExactly("node-a");
        GenericKubernetesResource seen = store.get("shop/web");
        assertThat(seen.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(seen.getMetadata().getUid()).isEqualTo("u1");
        assertThat(seen.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(seen.getAdditionalProperties()).as("nothing of spec or status is held as a map").isEmpty();
    }

    @Test
    void keepsNothingOfOtherNodesServiceLoadBalancers() {
        assertThat(store.put("shop/web", g(slb("web", "7", "u1", "\"node-b\"", "")))).isNull();
        store.put("shop/db", g(slb("db", "8", "u2", "", "")));

        assertThat(store.size()).isZero();
        assertThat(store.get("shop/web")).isNull();
        assertThat(store.keySet()).isEmpty();
        assertThat(store.usable()).isEmpty();
    }

    @Test
    void forgetsOneThatLeavesTheNodeAndHandsTheInformerTheOldVersion() {
        store.put("shop/web", g(slb("web", "7", "u1", "\"node-a\"", "")));

        GenericKubernetesResource old = store.put("shop/web", g(slb("web", "9", "u1", "\"node-b\"", "")));

        assertThat(old.getMetadata().getResourceVersion()).as("the informer sends an update: the route goes")
                .isEqualTo("7");
        assertThat(store.size()).isZero();
        assertThat(store.remove("shop/web")).isNull();
    }

    @Test
    void anUnreadableVersionIsCountedAndTheLastReadableOneStandsIn() {
        store.put("shop/web", g(slb("web", "7", "u1", "\"node-a\"", "")));

        store.put("shop/web", g(slb("web", "8", "u1", "\"node-a\"", ",\"vip\":{\"x\":1}")
                .replace("\"vip\":\"198.18.100.1\",", "")));

        assertThat(store.unreadable()).containsOnlyKeys("shop/web");
        assertThat(store.usable()).extracting(s -> s.getStatus().getVip()).containsExactly("198.18.100.1");
        List<KindReads.Unreadable> said = store.freshProblems();
        assertThat(said).singleElement().satisfies(u -> {
            assertThat(u.key()).isEqualTo("shop/web");
            assertThat(u.keptEarlier()).isTrue();
        });
        assertThat(store.freshProblems()).as("said once").isEmpty();
        assertThat(store.get("shop/web").getMetadata().getResourceVersion()).isEqualTo("8");
    }

    @Test
    void anUnreadableNewObjectIsKeptAsItsProblemOnly() {
        store.put("shop/web", g(slb("web", "8", "u1", "\"node-a\"", ",\"vip\":{\"x\":1}")
                .replace("\"vip\":\"198.18.100.1\",", "")));

        assertThat(store.unreadable()).containsOnlyKeys("shop/web");
        assertThat(store.usable()).isEmpty();
        assertThat(store.freshProblems()).singleElement().satisfies(u -> assertThat(u.keptEarlier()).isFalse());
    }

    @Test
    void oneBeingDeletedIsNotKept() {
        store.put("shop/web", g(slb("web", "7", "u1", "\"node-a\"", "").replace("\"uid\"",
                "\"deletionTimestamp\":\"2026-12-08T00:00:00Z\",\"uid\"")));

        assertThat(store.size()).isZero();
    }
}
