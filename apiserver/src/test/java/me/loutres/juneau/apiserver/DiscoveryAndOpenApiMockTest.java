package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * What kubectl reads before acting. Sources: "The Kubernetes API" (OpenAPI V3: /openapi/v3 lists group versions
 * with serverRelativeURL), "Field validation" in API Concepts (kubectl checks the PATCH operation's fieldValidation
 * parameter), "Authorization" (SelfSubjectAccessReview, kubectl auth can-i), "Using RBAC Authorization".
 */
class DiscoveryAndOpenApiMockTest extends ApiServerFixture {

    @Test
    void openApiV3ListsEveryGroupVersionAndPatchOperationsTakeFieldValidation() {
        Reply root = get("/openapi/v3");
        assertThat(root.code()).isEqualTo(200);
        JsonNode paths = root.body().path("paths");
        assertThat(paths.has("api/v1")).isTrue();
        assertThat(paths.has("apis/juneau.loutres.me/v1alpha1")).isTrue();
        Reply core = get(paths.path("api/v1").path("serverRelativeURL").asText());
        JsonNode patchOp = core.body().path("paths").path("/api/v1/namespaces/{namespace}/services/{name}")
                .path("patch");
        assertThat(patchOp.path("x-kubernetes-group-version-kind").path("kind").asText()).isEqualTo("Service");
        assertThat(patchOp.path("parameters").toString()).contains("\"fieldValidation\"");
    }

    @Test
    void theCrdSchemasArePublishedForExplain() {
        Reply doc = get("/openapi/v3/apis/juneau.loutres.me/v1alpha1");
        JsonNode schema = doc.body().path("components").path("schemas").path("me.loutres.juneau.v1alpha1.AddressPool");
        assertThat(schema.path("x-kubernetes-group-version-kind").get(0).path("kind").asText())
                .isEqualTo("AddressPool");
        assertThat(schema.path("properties").path("spec").path("properties").has("advertiseMode")).isTrue();
    }

    @Test
    void discoveryListsTheCrdsAndTheirStatusSubresource() {
        Reply list = get("/apis/juneau.loutres.me/v1alpha1");
        assertThat(list.body().path("resources").toString()).contains("\"serviceloadbalancers\"",
                "\"serviceloadbalancers/status\"", "\"slb\"");
        Reply groups = get("/apis");
        assertThat(groups.body().path("groups").toString()).contains("juneau.loutres.me", "discovery.k8s.io");
    }

    @Test
    void servesServiceCidrsWithTheDefaultOneAKubeApiServerCreates() {
        Reply discovery = get("/apis/networking.k8s.io/v1");
        assertThat(discovery.body().path("resources").toString()).contains("\"servicecidrs\"", "\"ServiceCIDR\"");
        Reply list = get("/apis/networking.k8s.io/v1/servicecidrs");
        assertThat(list.code()).isEqualTo(200);
        assertThat(list.body().path("items")).hasSize(1);
        JsonNode cidr = list.body().path("items").get(0);
        assertThat(cidr.path("metadata").path("name").asText()).isEqualTo("kubernetes");
        assertThat(cidr.path("spec").path("cidrs").toString()).isEqualTo("[\"10.96.0.0/12\"]");
    }

    @Test
    void strictFieldValidationRefusesUnknownFieldsOfCustomResources() {
        Reply r = post("/apis/juneau.loutres.me/v1alpha1/addresspools?fieldValidation=Strict",
                "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"AddressPool\",\"metadata\":{\"name\":"
                        + "\"strict\"},\"spec\":{\"advertiseMode\":\"arp\",\"adresses\":[\"10.0.0.1-10.0.0.2\"]}}");
        assertThat(r.code()).isEqualTo(400);
        assertThat(r.message()).contains("strict decoding error", "unknown field \"spec.adresses\"");
        Reply pruned = post("/apis/juneau.loutres.me/v1alpha1/addresspools?fieldValidation=Ignore",
                "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"AddressPool\",\"metadata\":{\"name\":"
                        + "\"pruned\"},\"spec\":{\"advertiseMode\":\"arp\",\"addresses\":[\"10.7.0.1-10.7.0.2\"],"
                        + "\"extra\":1}}");
        assertThat(pruned.code()).isEqualTo(201);
        assertThat(pruned.body().path("spec").has("extra")).isFalse();
    }

    @Test
    void accessReviewsAnswerPerIdentity() {
        String review = "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\","
                + "\"spec\":{\"resourceAttributes\":{\"verb\":\"%s\",\"resource\":\"%s\",\"subresource\":\"%s\","
                + "\"group\":\"%s\",\"namespace\":\"default\"}}}";
        Reply admin = post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                review.formatted("delete", "nodes", "", ""));
        assertThat(admin.code()).isEqualTo(201);
        assertThat(admin.body().path("status").path("allowed").asBoolean()).isTrue();
        var controller = server.client(Identities.CONTROLLER_TOKEN);
        try {
            var ssar = new io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder()
                    .withNewSpec().withNewResourceAttributes().withVerb("update").withResource("services")
                    .withSubresource("status").withNamespace("default").endResourceAttributes().endSpec().build();
            assertThat(controller.authorization().v1().selfSubjectAccessReview().create(ssar).getStatus()
                    .getAllowed()).isTrue();
            ssar.getSpec().getResourceAttributes().setSubresource(null);
            ssar.getSpec().getResourceAttributes().setVerb("create");
            assertThat(controller.authorization().v1().selfSubjectAccessReview().create(ssar).getStatus()
                    .getAllowed()).isFalse();
        } finally {
            controller.close();
        }
    }
}
