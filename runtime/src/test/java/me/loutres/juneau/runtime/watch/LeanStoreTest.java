package me.loutres.juneau.runtime.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/**
 * A lean store keeps what every reader reads, as the same classes: the object serializes as read, less managedFields
 * (and kubectl's last-applied copy where told), with shared immutable empty containers and interned repeated strings
 * (issue 38, must show 1).
 */
class LeanStoreTest {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    /** A Service as a real API server sends it after a client-side apply: managedFields and the last-applied copy. */
    static final String SERVICE = """
            {"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"shop","uid":"u-1",
             "resourceVersion":"42","creationTimestamp":"2026-01-01T00:00:00Z",
             "labels":{"app":"web"},
             "annotations":{"juneau.loutres.me/external-network":"lan",
               "kubectl.kubernetes.io/last-applied-configuration":"{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Service\\"}"},
             "finalizers":["juneau.loutres.me/service"],
             "managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1",
               "time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1",
               "fieldsV1":{"f:spec":{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{}}}}}}]},
             "spec":{"type":"LoadBalancer","loadBalancerClass":"juneau.loutres.me/lb","externalTrafficPolicy":"Local",
               "selector":{"app":"web"},"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack",
               "clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],
               "ports":[{"name":"http","protocol":"TCP","port":80,"targetPort":8080,"nodePort":30080}]},
             "status":{"loadBalancer":{"ingress":[{"ip":"198.18.0.1","ipMode":"VIP"}]}}}""";

    static final String SLICE = """
            {"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"web-abcde",
             "namespace":"shop","uid":"u-2","resourceVersion":"43","labels":{"kubernetes.io/service-name":"web"}},
             "addressType":"IPv4","endpoints":[{"addresses":["10.244.0.5"],"nodeName":"node-a",
               "conditions":{"ready":true,"serving":true,"terminating":false}}],
             "ports":[{"name":"http","protocol":"TCP","port":8080}]}""";

    private static <T> T read(String json, Class<T> type) {
        return JSON.unmarshal(json, type);
    }

    /** The object's JSON less the two fields a lean store drops. */
    private static JsonNode withoutDropped(String json, boolean lastApplied) {
        ObjectNode n = (ObjectNode) JSON.unmarshal(json, JsonNode.class);
        ObjectNode meta = (ObjectNode) n.get("metadata");
        meta.remove("managedFields");
        if (lastApplied && meta.has("annotations")) {
            ((ObjectNode) meta.get("annotations")).remove(LeanStore.LAST_APPLIED);
        }
        return n;
    }

    @Test
    void aStoredServiceSerializesAsReadLessManagedFieldsAndTheLastAppliedCopy() {
        LeanStore<Service> store = new LeanStore<>(true);
        store.put("shop/web", read(SERVICE, Service.class));
        Service kept = store.get("shop/web");

        assertThat(kept.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(kept.getMetadata().getAnnotations()).containsOnlyKeys("juneau.loutres.me/external-network");
        assertThat(JSON.unmarshal(JSON.asJson(kept), JsonNode.class)).isEqualTo(withoutDropped(SERVICE, true));
        // the fields every reader reads
        assertThat(kept.getSpec().getPorts().get(0).getTargetPort().getIntVal()).isEqualTo(8080);
        assertThat(kept.getStatus().getLoadBalancer().getIngress().get(0).getIp()).isEqualTo("198.18.0.1");
        assertThat(kept.getMetadata().getFinalizers()).containsExactly("juneau.loutres.me/service");
    }

    @Test
    void aKindUpdatedWholeKeepsItsLastAppliedCopy() {
        LeanStore<Service> store = new LeanStore<>(false);
        store.put("shop/web", read(SERVICE, Service.class));

        Service kept = store.get("shop/web");
        assertThat(kept.getMetadata().getAnnotations()).containsKey(LeanStore.LAST_APPLIED);
        assertThat(JSON.unmarshal(JSON.asJson(kept), JsonNode.class)).isEqualTo(withoutDropped(SERVICE, false));
    }

    @Test
    void emptyContainersAreTheSharedImmutableOnesAndRepeatedStringsAreOneInstance() {
        LeanStore<EndpointSlice> store = new LeanStore<>(true);
        store.put("shop/a", read(SLICE, EndpointSlice.class));
        store.put("shop/b", read(SLICE.replace("web-abcde", "web-fghij"), EndpointSlice.class));
        EndpointSlice a = store.get("shop/a");
        EndpointSlice b = store.get("shop/b");

        // fabric8 gives each object its own empty list and map; the store keeps the one shared empty instance
        assertThat(a.getMetadata().getOwnerReferences()).isSameAs(b.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(a.getAdditionalProperties()).isSameAs(b.getAdditionalProperties()).isEmpty();
        assertThatThrownBy(() -> a.getMetadata().getOwnerReferences().add(null))
                .isInstanceOf(UnsupportedOperationException.class);
        // read twice from JSON, yet one String each: label keys, kinds, node names, protocols
        assertThat(a.getMetadata().getLabels().keySet().iterator().next())
                .isSameAs(b.getMetadata().getLabels().keySet().iterator().next());
        assertThat(a.getApiVersion()).isSameAs(b.getApiVersion());
        assertThat(a.getEndpoints().get(0).getNodeName()).isSameAs(b.getEndpoints().get(0).getNodeName());
        assertThat(a.getPorts().get(0).getProtocol()).isSameAs(b.getPorts().get(0).getProtocol());
        // names and uids are each object's own, never interned
        assertThat(a.getMetadata().getName()).isNotEqualTo(b.getMetadata().getName());
        assertThat(JSON.unmarshal(JSON.asJson(a), JsonNode.class)).isEqualTo(withoutDropped(SLICE, true));
    }

    @Test
    void aDeleteAndAReplaceReturnTheStoredLeanObject() {
        LeanStore<Service> store = new LeanStore<>(true);
        store.put("shop/web", read(SERVICE, Service.class));
        Service old = store.put("shop/web", read(SERVICE.replace("\"42\"", "\"44\""), Service.class));

        assertThat(old.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(store.get("shop/web").getMetadata().getResourceVersion()).isEqualTo("44");
        assertThat(store.remove("shop/web").getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(store.size()).isZero();
    }
}
