package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The four patch types as kube-apiserver applies them. Sources: "Update API Objects in Place Using kubectl patch"
 * (kubernetes.io/docs/tasks/manage-kubernetes-objects/update-api-object-kubectl-patch/), the strategic merge patch
 * design (kubernetes/community contributors/devel/sig-api-machinery/strategic-merge-patch.md), RFC 7396, RFC 6902,
 * and "Server-Side Apply" (kubernetes.io/docs/reference/using-api/server-side-apply/).
 */
class PatchMockTest extends ApiServerFixture {
    private static final String SMP = "application/strategic-merge-patch+json";
    private static final String MERGE = "application/merge-patch+json";
    private static final String JSON_PATCH = "application/json-patch+json";
    private static final String APPLY = "application/apply-patch+yaml";

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(field == null ? n.asText() : n.path(field).asText()));
        return out;
    }

    @Test
    void strategicPatchMergesServicePortsByPortAndKeepsTheOthers() {
        // ServiceSpec.Ports: patchStrategy=merge, patchMergeKey=port
        post(SERVICES, svc("smp-ports", "{\"name\":\"http\",\"port\":80},{\"name\":\"https\",\"port\":443}"));
        Reply r = patch(SERVICES + "/smp-ports", SMP, "{\"spec\":{\"ports\":[{\"port\":443,\"name\":\"tls\"},"
                + "{\"port\":8080,\"name\":\"alt\"}]}}");
        assertThat(r.code()).isEqualTo(200);
        assertThat(texts(r.body().path("spec").path("ports"), "name")).containsExactly("http", "tls", "alt");
    }

    @Test
    void strategicPatchDirectivesDeleteReplaceAndOrderListItems() {
        post(SERVICES, svc("smp-directives", "{\"name\":\"a\",\"port\":1},{\"name\":\"b\",\"port\":2},"
                + "{\"name\":\"c\",\"port\":3}"));
        Reply deleted = patch(SERVICES + "/smp-directives", SMP,
                "{\"spec\":{\"$setElementOrder/ports\":[{\"port\":3},{\"port\":1}],"
                        + "\"ports\":[{\"$patch\":\"delete\",\"port\":2}]}}");
        assertThat(deleted.code()).isEqualTo(200);
        assertThat(texts(deleted.body().path("spec").path("ports"), "name")).containsExactly("c", "a");
        Reply replaced = patch(SERVICES + "/smp-directives", SMP,
                "{\"spec\":{\"ports\":[{\"$patch\":\"replace\"},{\"name\":\"z\",\"port\":9}]}}");
        assertThat(texts(replaced.body().path("spec").path("ports"), "name")).containsExactly("z");
    }

    @Test
    void strategicPatchTreatsFinalizersAsASetAndOwnerReferencesByUid() {
        // real owners: a dependent whose owner does not exist is garbage collected
        String u1 = post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"o1\"}}").body()
                .path("metadata").path("uid").asText();
        String u2 = post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"o2\"}}").body()
                .path("metadata").path("uid").asText();
        post(SERVICES, "{\"metadata\":{\"name\":\"smp-meta\",\"finalizers\":[\"a.example/x\"],\"ownerReferences\":"
                + "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"o1\",\"uid\":\"" + u1 + "\"}]},"
                + "\"spec\":{\"ports\":[{\"port\":80}]}}");
        Reply r = patch(SERVICES + "/smp-meta", SMP, "{\"metadata\":{\"finalizers\":[\"b.example/y\"],"
                + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"o2\",\"uid\":\""
                + u2 + "\"}]}}");
        assertThat(texts(r.body().path("metadata").path("finalizers"), null))
                .containsExactly("a.example/x", "b.example/y");
        assertThat(texts(r.body().path("metadata").path("ownerReferences"), "uid")).containsExactly(u1, u2);
        Reply removed = patch(SERVICES + "/smp-meta", SMP,
                "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\"a.example/x\",\"b.example/y\"]}}");
        assertThat(removed.body().path("metadata").has("finalizers")).isFalse();
    }

    @Test
    void strategicPatchMergesNodeAddressesAndConditionsByType() {
        post("/api/v1/nodes", "{\"metadata\":{\"name\":\"smp-node\"},\"status\":{\"addresses\":[{\"type\":"
                + "\"InternalIP\",\"address\":\"10.0.0.1\"},{\"type\":\"Hostname\",\"address\":\"smp-node\"}],"
                + "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}");
        Reply r = patch("/api/v1/nodes/smp-node/status", SMP, "{\"status\":{\"addresses\":[{\"type\":\"InternalIP\","
                + "\"address\":\"10.0.0.2\"}],\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"}]}}");
        assertThat(r.code()).isEqualTo(200);
        assertThat(texts(r.body().path("status").path("addresses"), "address")).containsExactly("10.0.0.2",
                "smp-node");
        assertThat(texts(r.body().path("status").path("conditions"), "status")).containsExactly("False");
    }

    @Test
    void strategicPatchReplacesEndpointSliceListsWhichAreAtomic() {
        String slices = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices";
        post(slices, "{\"metadata\":{\"name\":\"smp-slice\"},\"addressType\":\"IPv4\",\"endpoints\":["
                + "{\"addresses\":[\"10.1.0.1\"],\"conditions\":{\"ready\":true}},"
                + "{\"addresses\":[\"10.1.0.2\"],\"conditions\":{\"ready\":true}}]}");
        Reply r = patch(slices + "/smp-slice", SMP, "{\"endpoints\":[{\"addresses\":[\"10.1.0.1\"],"
                + "\"conditions\":{\"ready\":false}}]}");
        assertThat(r.body().path("endpoints")).hasSize(1);
        assertThat(r.body().path("endpoints").get(0).path("conditions").path("ready").asBoolean()).isFalse();
    }

    @Test
    void strategicPatchOfACustomResourceIsUnsupportedMediaType() {
        // CRDs: "strategic merge patch is not supported for custom resources"
        post("/apis/juneau.loutres.me/v1alpha1/addresspools", "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\","
                + "\"kind\":\"AddressPool\",\"metadata\":{\"name\":\"smp-pool\"},\"spec\":{\"advertiseMode\":\"arp\","
                + "\"addresses\":[\"10.9.0.1-10.9.0.9\"]}}");
        Reply r = patch("/apis/juneau.loutres.me/v1alpha1/addresspools/smp-pool", SMP, "{\"spec\":{}}");
        assertThat(r.code()).isEqualTo(415);
        assertThat(r.body().path("reason").asText()).isEqualTo("UnsupportedMediaType");
        assertThat(r.message()).startsWith("the body of the request was in an unknown format - accepted media types "
                + "include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");
    }

    @Test
    void mergePatchReplacesListsAndNullDeletes() {
        String pools = "/apis/juneau.loutres.me/v1alpha1/addresspools";
        post(pools, "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"AddressPool\",\"metadata\":{\"name\":"
                + "\"merge-pool\",\"labels\":{\"a\":\"1\",\"b\":\"2\"}},\"spec\":{\"advertiseMode\":\"arp\","
                + "\"addresses\":[\"10.8.0.1-10.8.0.9\"]}}");
        // re-sending the same list must not grow it (RFC 7396: an array value replaces the target)
        Reply same = patch(pools + "/merge-pool", MERGE, "{\"spec\":{\"addresses\":[\"10.8.0.1-10.8.0.9\"]},"
                + "\"metadata\":{\"labels\":{\"a\":null}}}");
        assertThat(same.code()).isEqualTo(200);
        assertThat(texts(same.body().path("spec").path("addresses"), null)).containsExactly("10.8.0.1-10.8.0.9");
        assertThat(same.body().path("metadata").path("labels").has("a")).isFalse();
        assertThat(same.body().path("metadata").path("labels").path("b").asText()).isEqualTo("2");
    }

    @Test
    void aFailingJsonPatchOperationIs422AndChangesNothing() {
        post(SERVICES, svc("json-fail"));
        Reply r = patch(SERVICES + "/json-fail", JSON_PATCH,
                "[{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"other\"},"
                        + "{\"op\":\"add\",\"path\":\"/metadata/labels/x\",\"value\":\"y\"}]");
        assertThat(r.code()).isEqualTo(422);
        assertThat(r.body().path("reason").asText()).isEqualTo("Invalid");
        assertThat(get(SERVICES + "/json-fail").body().path("metadata").path("labels").has("x")).isFalse();
        Reply missing = patch(SERVICES + "/json-fail", JSON_PATCH, "[{\"op\":\"remove\",\"path\":\"/spec/nope\"}]");
        assertThat(missing.code()).isEqualTo(422);
        Reply ok = patch(SERVICES + "/json-fail", JSON_PATCH,
                "[{\"op\":\"add\",\"path\":\"/metadata/labels/x\",\"value\":\"y\"}]");
        assertThat(ok.body().path("metadata").path("labels").path("x").asText()).isEqualTo("y");
    }

    @Test
    void serverSideApplyCreatesThenRemovesFieldsTheManagerStopsApplying() {
        String path = SERVICES + "/ssa-web?fieldManager=kubectl&force=false";
        Reply created = patch(path, APPLY, "apiVersion: v1\nkind: Service\nmetadata:\n  name: ssa-web\n  labels:\n"
                + "    a: \"1\"\n    b: \"2\"\nspec:\n  ports:\n  - port: 80\n    protocol: TCP\n");
        assertThat(created.code()).as(created.body().toString()).isEqualTo(201);
        JsonNode managed = created.body().path("metadata").path("managedFields");
        assertThat(managed).hasSize(1);
        assertThat(managed.get(0).path("manager").asText()).isEqualTo("kubectl");
        assertThat(managed.get(0).path("operation").asText()).isEqualTo("Apply");
        assertThat(managed.get(0).path("fieldsV1").path("f:metadata").path("f:labels").has("f:b")).isTrue();
        Reply again = patch(path, APPLY, "apiVersion: v1\nkind: Service\nmetadata:\n  name: ssa-web\n  labels:\n"
                + "    a: \"1\"\nspec:\n  ports:\n  - port: 80\n    protocol: TCP\n");
        assertThat(again.code()).isEqualTo(200);
        assertThat(again.body().path("metadata").path("labels").has("b")).isFalse();
        assertThat(again.body().path("metadata").path("labels").path("a").asText()).isEqualTo("1");
        // a field set by a plain update (not applied) stays
        patch(SERVICES + "/ssa-web", MERGE, "{\"metadata\":{\"labels\":{\"c\":\"3\"}}}");
        Reply third = patch(path, APPLY, "apiVersion: v1\nkind: Service\nmetadata:\n  name: ssa-web\nspec:\n"
                + "  ports:\n  - port: 80\n    protocol: TCP\n");
        assertThat(third.body().path("metadata").path("labels").has("a")).isFalse();
        assertThat(third.body().path("metadata").path("labels").path("c").asText()).isEqualTo("3");
    }

    @Test
    void serverSideApplyConflictsWithAnotherApplierUnlessForced() {
        String body = "apiVersion: v1\nkind: Service\nmetadata:\n  name: ssa-conflict\n  labels:\n    tier: %s\n"
                + "spec:\n  ports:\n  - port: 80\n";
        patch(SERVICES + "/ssa-conflict?fieldManager=alice", APPLY, body.formatted("front"));
        Reply conflict = patch(SERVICES + "/ssa-conflict?fieldManager=bob", APPLY, body.formatted("back"));
        assertThat(conflict.code()).isEqualTo(409);
        assertThat(conflict.message()).contains("Apply failed with", "conflict with \"alice\"", ".metadata.labels.tier");
        Reply forced = patch(SERVICES + "/ssa-conflict?fieldManager=bob&force=true", APPLY, body.formatted("back"));
        assertThat(forced.code()).isEqualTo(200);
        assertThat(forced.body().path("metadata").path("labels").path("tier").asText()).isEqualTo("back");
    }

    @Test
    void serverSideApplyWithoutFieldManagerIsInvalid() {
        Reply r = patch(SERVICES + "/ssa-nomanager", APPLY, "apiVersion: v1\nkind: Service\nmetadata:\n"
                + "  name: ssa-nomanager\n");
        assertThat(r.code()).isEqualTo(422);
        assertThat(r.message()).contains("fieldManager: Required value: is required for apply patch");
    }

    @Test
    void anUnknownPatchContentTypeIs415() {
        post(SERVICES, svc("patch-415"));
        Reply r = patch(SERVICES + "/patch-415", "text/plain", "{}");
        assertThat(r.code()).isEqualTo(415);
        assertThat(r.message()).contains("application/strategic-merge-patch+json");
    }
}
