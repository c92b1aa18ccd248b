package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Status bodies and optimistic concurrency as kube-apiserver writes them. Sources: "API Concepts" (Resource
 * versions; Server-side errors and Status), k8s.io/apimachinery/pkg/api/errors (NewAlreadyExists, NewNotFound,
 * NewConflict, NewInvalid, NewMethodNotSupported), "Dry-run" in API Concepts.
 */
class StatusAndVersionsMockTest extends ApiServerFixture {
    private static final String SLBS = "/apis/juneau.loutres.me/v1alpha1/namespaces/default/serviceloadbalancers";

    @Test
    void creatingAnExistingObjectIsAlreadyExistsWithResourceAndName() {
        post(SERVICES, svc("exists"));
        Reply r = post(SERVICES, svc("exists"));
        assertThat(r.code()).isEqualTo(409);
        assertThat(r.body().path("kind").asText()).isEqualTo("Status");
        assertThat(r.body().path("reason").asText()).isEqualTo("AlreadyExists");
        assertThat(r.message()).isEqualTo("services \"exists\" already exists");
        assertThat(r.body().path("details").path("name").asText()).isEqualTo("exists");
        assertThat(r.body().path("details").path("kind").asText()).isEqualTo("services");
    }

    @Test
    void aMissingCustomResourceIsNotFoundWithItsGroup() {
        Reply r = get(SLBS + "/x");
        assertThat(r.code()).isEqualTo(404);
        assertThat(r.body().path("reason").asText()).isEqualTo("NotFound");
        assertThat(r.message()).isEqualTo("serviceloadbalancers.juneau.loutres.me \"x\" not found");
        assertThat(r.body().path("details").path("group").asText()).isEqualTo("juneau.loutres.me");
        assertThat(r.body().path("details").path("kind").asText()).isEqualTo("serviceloadbalancers");
    }

    @Test
    void aPathTheServerDoesNotServeIsA404Status() {
        for (String path : new String[] {"/apis/nope.example/v1/things", "/api/v1/widgets", "/nothing/here",
                "/api/v1/namespaces/default/services/web/scale"}) {
            Reply r = get(path);
            assertThat(r.code()).as(path).isEqualTo(404);
            assertThat(r.body().path("kind").asText()).as(path).isEqualTo("Status");
            assertThat(r.message()).as(path).isEqualTo("the server could not find the requested resource");
        }
    }

    @Test
    void createInAMissingNamespaceIsNotFound() {
        Reply r = post("/api/v1/namespaces/ghost/services", svc("in-ghost"));
        assertThat(r.code()).isEqualTo(404);
        assertThat(r.message()).isEqualTo("namespaces \"ghost\" not found");
    }

    @Test
    void aNamelessObjectIsInvalidWithTheFieldError() {
        Reply r = post(SERVICES, "{\"metadata\":{},\"spec\":{\"ports\":[{\"port\":80}]}}");
        assertThat(r.code()).isEqualTo(422);
        assertThat(r.body().path("reason").asText()).isEqualTo("Invalid");
        assertThat(r.message()).isEqualTo("Service \"\" is invalid: metadata.name: Required value: name or "
                + "generateName is required");
        assertThat(r.body().path("details").path("kind").asText()).isEqualTo("Service");
        assertThat(r.body().path("details").path("causes").get(0).path("field").asText()).isEqualTo("metadata.name");
    }

    @Test
    void anInvalidCustomResourceNamesTheFieldFromTheCrdSchema() {
        Reply r = post("/apis/juneau.loutres.me/v1alpha1/addresspools", "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\","
                + "\"kind\":\"AddressPool\",\"metadata\":{\"name\":\"bad-pool\"},\"spec\":{\"addresses\":\"10.0.0.1\"}}");
        assertThat(r.code()).isEqualTo(422);
        assertThat(r.message()).startsWith("AddressPool.juneau.loutres.me \"bad-pool\" is invalid: ")
                .contains("spec.addresses");
    }

    @Test
    void postToAnObjectPathIsMethodNotAllowed() {
        post(SERVICES, svc("method"));
        Reply r = post(SERVICES + "/method", svc("method"));
        assertThat(r.code()).isEqualTo(405);
        assertThat(r.body().path("reason").asText()).isEqualTo("MethodNotAllowed");
        assertThat(r.message()).isEqualTo("the server does not allow this method on the requested resource");
    }

    @Test
    void aProtobufBodyThatIsNotAMessageIs400AndAProtobufOnlyAcceptOfAListIs406() {
        Reply body = call("POST", SERVICES, "application/vnd.kubernetes.protobuf", "k8s\0junk");
        assertThat(body.code()).isEqualTo(400);
        assertThat(body.body().path("reason").asText()).isEqualTo("BadRequest");
        Reply accept = call("GET", SERVICES, null, null, "application/vnd.kubernetes.protobuf");
        assertThat(accept.code()).isEqualTo(406);
        // client-go's usual Accept lists JSON as a fallback: it gets JSON
        Reply fallback = call("GET", SERVICES, null, null, "application/vnd.kubernetes.protobuf, */*");
        assertThat(fallback.code()).isEqualTo(200);
        assertThat(fallback.raw().headers().firstValue("Content-Type")).hasValue("application/json");
    }

    /** kubectl create secret generic: a protobuf Secret in, protobuf asked first for the answer. */
    @Test
    void aProtobufSecretIsCreatedAndAnsweredInProtobufAsKubectlAsks() throws Exception {
        io.kubernetes.client.proto.V1.Secret secret = io.kubernetes.client.proto.V1.Secret.newBuilder()
                .setMetadata(KubeProtobufTest.goMeta("proto-secret"))
                .putData("password", com.google.protobuf.ByteString.copyFromUtf8("s3cret")).build();
        java.net.http.HttpResponse<byte[]> r = http.send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create(server.url() + "/api/v1/namespaces/default/secrets"))
                .header("Authorization", "Bearer " + Identities.ADMIN_TOKEN)
                .header("Content-Type", "application/vnd.kubernetes.protobuf")
                .header("Accept", "application/vnd.kubernetes.protobuf,application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(
                        KubeProtobufTest.envelope("v1", "Secret", secret.toByteString())))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).as(new String(r.body(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(201);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/vnd.kubernetes.protobuf");
        io.kubernetes.client.proto.Runtime.Unknown answer = io.kubernetes.client.proto.Runtime.Unknown
                .parseFrom(java.util.Arrays.copyOfRange(r.body(), 4, r.body().length));
        io.kubernetes.client.proto.V1.Secret created = io.kubernetes.client.proto.V1.Secret.parseFrom(answer.getRaw());
        assertThat(created.getMetadata().getUid()).isNotEmpty();
        assertThat(created.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(created.getDataMap().get("password").toStringUtf8()).isEqualTo("s3cret");
        Reply json = get("/api/v1/namespaces/default/secrets/proto-secret");
        assertThat(json.body().path("data").path("password").asText()).isEqualTo("czNjcmV0");
        assertThat(json.body().path("metadata").has("generateName")).as("Go's empty strings read as absent").isFalse();
    }

    @Test
    void anUpdateAtAStaleResourceVersionIsAConflictIncludingStatus() {
        String rv = post(SERVICES, svc("stale")).body().path("metadata").path("resourceVersion").asText();
        patch(SERVICES + "/stale", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"v\":\"2\"}}}");
        String body = "{\"metadata\":{\"name\":\"stale\",\"resourceVersion\":\"" + rv + "\"},\"spec\":{\"ports\":"
                + "[{\"port\":80}]},\"status\":{\"loadBalancer\":{\"ingress\":[{\"ip\":\"1.2.3.4\"}]}}}";
        Reply main = put(SERVICES + "/stale", body);
        assertThat(main.code()).isEqualTo(409);
        assertThat(main.body().path("reason").asText()).isEqualTo("Conflict");
        assertThat(main.message()).isEqualTo("Operation cannot be fulfilled on services \"stale\": the object has "
                + "been modified; please apply your changes to the latest version and try again");
        Reply status = put(SERVICES + "/stale/status", body);
        assertThat(status.code()).isEqualTo(409);
        Reply patchWithRv = patch(SERVICES + "/stale", "application/merge-patch+json",
                "{\"metadata\":{\"resourceVersion\":\"" + rv + "\",\"labels\":{\"v\":\"3\"}}}");
        assertThat(patchWithRv.code()).isEqualTo(409);
        assertThat(get(SERVICES + "/stale").body().path("status").path("loadBalancer").has("ingress")).isFalse();
    }

    @Test
    void statusWritesChangeOnlyStatusEvenWithExtraQueryParameters() {
        post(SERVICES, svc("sub"));
        // kubectl adds fieldManager, fieldValidation, pretty: routing is by path, the parameters change nothing
        Reply r = patch(SERVICES + "/sub/status?fieldManager=kubectl-patch&fieldValidation=Strict&pretty=true",
                "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"sneaky\":\"x\"}},\"spec\":{\"type\":"
                        + "\"NodePort\"},\"status\":{\"loadBalancer\":{\"ingress\":[{\"ip\":\"1.2.3.4\"}]}}}");
        assertThat(r.code()).isEqualTo(200);
        assertThat(r.body().path("status").path("loadBalancer").path("ingress").get(0).path("ip").asText())
                .isEqualTo("1.2.3.4");
        assertThat(r.body().path("spec").path("type").asText()).isEqualTo("ClusterIP");
        // and the main resource ignores status (status subresource enabled)
        Reply main = patch(SERVICES + "/sub?fieldManager=x", "application/merge-patch+json",
                "{\"status\":{\"loadBalancer\":{\"ingress\":[{\"ip\":\"5.6.7.8\"}]}}}");
        assertThat(main.body().path("status").path("loadBalancer").path("ingress").get(0).path("ip").asText())
                .isEqualTo("1.2.3.4");
    }

    @Test
    void anUpdateThatChangesNothingKeepsTheResourceVersion() {
        String rv = post(SERVICES, svc("noop")).body().path("metadata").path("resourceVersion").asText();
        Reply r = patch(SERVICES + "/noop", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"app\":"
                + "\"noop\"}}}");
        assertThat(r.body().path("metadata").path("resourceVersion").asText()).isEqualTo(rv);
    }

    @Test
    void dryRunIsNeverPersistedForAnyKind() {
        Reply created = post("/api/v1/nodes?dryRun=All", "{\"metadata\":{\"name\":\"dry-node\"}}");
        assertThat(created.code()).isEqualTo(201);
        assertThat(created.body().path("metadata").path("name").asText()).isEqualTo("dry-node");
        assertThat(get("/api/v1/nodes/dry-node").code()).isEqualTo(404);
        post("/api/v1/nodes", "{\"metadata\":{\"name\":\"wet-node\"}}");
        Reply patched = patch("/api/v1/nodes/wet-node?dryRun=All", "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}");
        assertThat(patched.body().path("metadata").path("labels").path("x").asText()).isEqualTo("y");
        assertThat(get("/api/v1/nodes/wet-node").body().path("metadata").path("labels").has("x")).isFalse();
        assertThat(call("DELETE", "/api/v1/nodes/wet-node?dryRun=All", null, null).code()).isEqualTo(200);
        assertThat(get("/api/v1/nodes/wet-node").code()).isEqualTo(200);
        Reply lease = post("/apis/coordination.k8s.io/v1/namespaces/default/leases?dryRun=All",
                "{\"metadata\":{\"name\":\"dry-lease\"}}");
        assertThat(lease.code()).isEqualTo(201);
        assertThat(get("/apis/coordination.k8s.io/v1/namespaces/default/leases/dry-lease").code()).isEqualTo(404);
    }

    @Test
    void theServiceGetsKubeApiserverDefaults() {
        Reply r = post(SERVICES, "{\"metadata\":{\"name\":\"defaults\"},\"spec\":{\"type\":\"LoadBalancer\","
                + "\"ports\":[{\"port\":80}]}}");
        var spec = r.body().path("spec");
        assertThat(spec.path("ports").get(0).path("protocol").asText()).isEqualTo("TCP");
        assertThat(spec.path("ports").get(0).path("targetPort").asInt()).isEqualTo(80);
        assertThat(spec.path("ports").get(0).path("nodePort").asInt()).isBetween(30000, 32767);
        assertThat(spec.path("externalTrafficPolicy").asText()).isEqualTo("Cluster");
        assertThat(spec.path("clusterIP").asText()).startsWith("10.96.");
        assertThat(spec.path("sessionAffinity").asText()).isEqualTo("None");
    }
}
