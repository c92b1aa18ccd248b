package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/**
 * The AdmissionReview the gate builds as a JSON tree is the one the fabric8 model (AdmissionRequest with the objects
 * as GenericKubernetesResource) serializes to: the wire format the webhook reads did not change when the gate stopped
 * binding every review to the model.
 */
class AdmissionReviewJsonTest {
    private final Registry registry = new Registry();
    private final Caller admin = new Caller(Identities.fixed(Identities.ADMIN_TOKEN), false,
            null, false, null, new ArrayList<>());

    /** A cluster-scoped kind served from a CRD (the registry learns those when the CRD is stored). */
    private static ResourceType custom(String plural, String kind) {
        return new ResourceType("juneau.loutres.me", "v1alpha1", plural, kind.toLowerCase(java.util.Locale.ROOT), kind,
                false, true, java.util.List.of(), ResourceType.ALL_VERBS, true, null, java.util.List.of());
    }

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(text);
    }

    /** The review as the gate built it before: through fabric8's model. */
    private static JsonNode viaModel(String operation, ResourceType type, String sub, String namespace, String name,
            Caller caller, JsonNode object, JsonNode old, String uid) throws Exception {
        AdmissionRequest request = new AdmissionRequest();
        request.setUid(uid);
        GroupVersionKind gvk = new GroupVersionKind(type.group(), type.kind(), type.version());
        GroupVersionResource gvr = new GroupVersionResource(type.group(), type.plural(), type.version());
        request.setKind(gvk);
        request.setRequestKind(gvk);
        request.setResource(gvr);
        request.setRequestResource(gvr);
        request.setSubResource(sub);
        request.setName(name);
        request.setNamespace(type.namespaced() ? namespace : null);
        request.setOperation(operation);
        request.setUserInfo(caller.user());
        request.setObject(object == null ? null : Json.MAPPER.convertValue(object, GenericKubernetesResource.class));
        request.setOldObject(old == null ? null : Json.MAPPER.convertValue(old, GenericKubernetesResource.class));
        request.setDryRun(caller.dryRun());
        GenericKubernetesResource options = new GenericKubernetesResource();
        options.setApiVersion("meta.k8s.io/v1");
        options.setKind(operation.equals("CREATE") ? "CreateOptions" : operation.equals("UPDATE") ? "UpdateOptions"
                : "DeleteOptions");
        request.setOptions(options);
        AdmissionReview review = new AdmissionReview();
        review.setApiVersion("admission.k8s.io/v1");
        review.setKind("AdmissionReview");
        review.setRequest(request);
        return Json.MAPPER.readTree(Serialization.asJson(review));
    }

    @Test
    void aServiceCreateIsTheReviewTheModelWouldSend() throws Exception {
        ResourceType services = registry.find("v1", "services").orElseThrow();
        ObjectNode svc = json("""
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default","uid":"u-1",
                 "creationTimestamp":"2026-12-01T10:00:00Z","annotations":{"juneau.loutres.me/external-network":"pub"},
                 "labels":{"app":"web"}},
                 "spec":{"type":"LoadBalancer","loadBalancerClass":"juneau.loutres.me/lb","clusterIP":"10.96.0.10",
                 "ports":[{"name":"http","port":80,"protocol":"TCP","targetPort":8080}],"externalTrafficPolicy":"Local"},
                 "status":{"loadBalancer":{}}}""");
        ObjectNode built = AdmissionGate.review("CREATE", services, null, "default", "web", admin, svc, null);
        String uid = built.path("request").path("uid").asText();

        assertThat(built).isEqualTo(viaModel("CREATE", services, null, "default", "web", admin, svc, null, uid));
        assertThat(uid).isNotEmpty();
    }

    @Test
    void aStatusUpdateOfAClusterScopedKindCarriesBothObjectsAndNoNamespace() throws Exception {
        ResourceType pools = custom("addresspools", "AddressPool");
        ObjectNode old = json("""
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"p","uid":"u-2",
                 "resourceVersion":"7","generation":1,"finalizers":["a/b"]},
                 "spec":{"advertiseMode":"bgp","addresses":["10.0.0.0/24"]}}""");
        ObjectNode next = old.deepCopy();
        next.putObject("status").put("allocated", 3).putArray("conditions").addObject().put("type", "Ready")
                .put("status", "True");
        Caller dryRun = admin.withDryRun(true);
        ObjectNode built = AdmissionGate.review("UPDATE", pools, "status", "ignored", "p", dryRun, next, old);
        String uid = built.path("request").path("uid").asText();

        assertThat(built).isEqualTo(viaModel("UPDATE", pools, "status", "ignored", "p", dryRun, next, old, uid));
        assertThat(built.path("request").has("namespace")).isFalse();
        assertThat(built.path("request").path("dryRun").asBoolean()).isTrue();
    }

    @Test
    void aDeleteSendsOnlyTheOldObject() throws Exception {
        ResourceType networks = custom("externalnetworks", "ExternalNetwork");
        ObjectNode old = json("""
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ExternalNetwork","metadata":{"name":"pub"},
                 "spec":{"advertiseMode":"arp","pools":["p"]}}""");
        ObjectNode built = AdmissionGate.review("DELETE", networks, null, null, "pub", admin, null, old);
        String uid = built.path("request").path("uid").asText();

        assertThat(built).isEqualTo(viaModel("DELETE", networks, null, null, "pub", admin, null, old, uid));
        assertThat(built.path("request").has("object")).isFalse();
        assertThat(built.path("request").path("options").path("kind").asText()).isEqualTo("DeleteOptions");
    }
}
