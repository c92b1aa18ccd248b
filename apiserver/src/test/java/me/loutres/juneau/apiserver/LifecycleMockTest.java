package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Deletion as kube-apiserver and kube-controller-manager do it. Sources: "Finalizers"
 * (kubernetes.io/docs/concepts/overview/working-with-objects/finalizers/), "Garbage Collection" and "Owners and
 * Dependents" (.../architecture/garbage-collection/, .../working-with-objects/owners-dependents/), "Use Cascading
 * Deletion" (tasks/administer-cluster/use-cascading-deletion/).
 */
class LifecycleMockTest extends ApiServerFixture {
    private static final String CM = "/api/v1/namespaces/default/configmaps";

    private String uid(Reply r) {
        return r.body().path("metadata").path("uid").asText();
    }

    private static String owned(String name, String ownerName, String ownerUid, String finalizer) {
        return "{\"metadata\":{\"name\":\"" + name + "\"," + (finalizer == null ? "" : "\"finalizers\":[\""
                + finalizer + "\"],") + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"name\":\"" + ownerName + "\",\"uid\":\"" + ownerUid + "\"}]}}";
    }

    @Test
    void deleteWithAFinalizerMarksTheObjectAndTheLastFinalizerRemovalDeletesIt() {
        post(CM, "{\"metadata\":{\"name\":\"fin\",\"finalizers\":[\"example.com/a\",\"example.com/b\"]}}");
        Reply deleted = delete(CM + "/fin");
        assertThat(deleted.code()).isEqualTo(200);
        assertThat(deleted.body().path("metadata").path("deletionTimestamp").asText()).isNotEmpty();
        assertThat(get(CM + "/fin").code()).isEqualTo(200);
        // no new finalizers once deleting
        Reply added = patch(CM + "/fin", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":[\"example.com/a\",\"example.com/b\",\"example.com/c\"]}}");
        assertThat(added.code()).isEqualTo(422);
        assertThat(added.message()).contains("no new finalizers can be added if the object is being deleted");
        Reply one = patch(CM + "/fin", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":[\"example.com/b\"]}}");
        assertThat(one.code()).isEqualTo(200);
        assertThat(get(CM + "/fin").code()).isEqualTo(200);
        Reply last = patch(CM + "/fin", "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}");
        assertThat(last.code()).isEqualTo(200);
        assertThat(last.body().path("metadata").path("name").asText()).isEqualTo("fin");
        assertThat(last.body().path("metadata").path("deletionTimestamp").asText()).isNotEmpty();
        assertThat(get(CM + "/fin").code()).isEqualTo(404);
    }

    @Test
    void aSecondDeleteOfATerminatingObjectAnswersTheObjectUnchanged() {
        post(CM, "{\"metadata\":{\"name\":\"twice\",\"finalizers\":[\"example.com/a\"]}}");
        String first = delete(CM + "/twice").body().path("metadata").path("resourceVersion").asText();
        Reply again = delete(CM + "/twice");
        assertThat(again.code()).isEqualTo(200);
        assertThat(again.body().path("metadata").path("resourceVersion").asText()).isEqualTo(first);
    }

    @Test
    void deletePreconditionsAreChecked() {
        post(CM, "{\"metadata\":{\"name\":\"precond\"}}");
        Reply r = call("DELETE", CM + "/precond", "application/json",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"preconditions\":{\"resourceVersion\":\"1\"}}");
        assertThat(r.code()).isEqualTo(409);
        assertThat(r.message()).contains("the ResourceVersion in the precondition (1) does not match");
        assertThat(get(CM + "/precond").code()).isEqualTo(200);
    }

    @Test
    void backgroundDeletionRemovesDependentsAndHonoursTheirFinalizers() {
        String owner = uid(post(CM, "{\"metadata\":{\"name\":\"owner-bg\"}}"));
        post(CM, owned("dep-plain", "owner-bg", owner, null));
        post(CM, owned("dep-final", "owner-bg", owner, "example.com/keep"));
        assertThat(delete(CM + "/owner-bg").code()).isEqualTo(200);
        eventually("plain dependent collected", () -> get(CM + "/dep-plain").code() == 404);
        eventually("finalized dependent marked", () -> get(CM + "/dep-final").body().path("metadata")
                .hasNonNull("deletionTimestamp"));
        patch(CM + "/dep-final", "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}");
        assertThat(get(CM + "/dep-final").code()).isEqualTo(404);
    }

    @Test
    void aDependentWithAnotherLiveOwnerOnlyLosesTheDanglingReference() {
        String a = uid(post(CM, "{\"metadata\":{\"name\":\"owner-a\"}}"));
        String b = uid(post(CM, "{\"metadata\":{\"name\":\"owner-b\"}}"));
        post(CM, "{\"metadata\":{\"name\":\"two-owners\",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":"
                + "\"ConfigMap\",\"name\":\"owner-a\",\"uid\":\"" + a + "\"},{\"apiVersion\":\"v1\",\"kind\":"
                + "\"ConfigMap\",\"name\":\"owner-b\",\"uid\":\"" + b + "\"}]}}");
        delete(CM + "/owner-a");
        eventually("reference to owner-a dropped", () -> get(CM + "/two-owners").body().path("metadata")
                .path("ownerReferences").size() == 1);
        assertThat(get(CM + "/two-owners").body().path("metadata").path("ownerReferences").get(0).path("uid")
                .asText()).isEqualTo(b);
    }

    @Test
    void orphanDeletionKeepsDependentsWithoutTheReference() {
        String owner = uid(post(CM, "{\"metadata\":{\"name\":\"owner-orphan\"}}"));
        post(CM, owned("orphan", "owner-orphan", owner, null));
        Reply r = call("DELETE", CM + "/owner-orphan?propagationPolicy=Orphan", null, null);
        assertThat(r.code()).isEqualTo(200);
        assertThat(get(CM + "/owner-orphan").code()).isEqualTo(404);
        Reply dep = get(CM + "/orphan");
        assertThat(dep.code()).isEqualTo(200);
        assertThat(dep.body().path("metadata").has("ownerReferences")).isFalse();
    }

    @Test
    void foregroundDeletionRemovesTheOwnerAfterItsDependents() {
        String owner = uid(post(CM, "{\"metadata\":{\"name\":\"owner-fg\"}}"));
        post(CM, owned("dep-fg", "owner-fg", owner, "example.com/hold"));
        Reply r = call("DELETE", CM + "/owner-fg?propagationPolicy=Foreground", null, null);
        assertThat(r.body().path("metadata").path("finalizers").toString()).contains("foregroundDeletion");
        eventually("dependent marked", () -> get(CM + "/dep-fg").body().path("metadata")
                .hasNonNull("deletionTimestamp"));
        assertThat(get(CM + "/owner-fg").code()).isEqualTo(200);
        patch(CM + "/dep-fg", "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}");
        eventually("owner removed after its dependent", () -> get(CM + "/owner-fg").code() == 404);
    }

    @Test
    void aDependentCreatedWithAnAbsentOwnerIsCollected() {
        post(CM, owned("dangling", "never-existed", "00000000-0000-0000-0000-000000000000", null));
        eventually("dangling dependent collected", () -> get(CM + "/dangling").code() == 404);
    }

    @Test
    void deletingANamespaceDeletesItsContentThenItself() {
        post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"doomed\"}}");
        post("/api/v1/namespaces/doomed/configmaps", "{\"metadata\":{\"name\":\"plain\"}}");
        post("/api/v1/namespaces/doomed/configmaps", "{\"metadata\":{\"name\":\"inside\",\"finalizers\":"
                + "[\"example.com/hold\"]}}");
        Reply r = delete("/api/v1/namespaces/doomed");
        assertThat(r.body().path("status").path("phase").asText()).isEqualTo("Terminating");
        Reply refused = post("/api/v1/namespaces/doomed/configmaps", "{\"metadata\":{\"name\":\"late\"}}");
        assertThat(refused.code()).as(refused.body().toString()).isEqualTo(403);
        assertThat(refused.message()).contains("because it is being terminated");
        eventually("content deleted", () -> get("/api/v1/namespaces/doomed/configmaps/plain").code() == 404);
        assertThat(get("/api/v1/namespaces/doomed").code()).isEqualTo(200);
        patch("/api/v1/namespaces/doomed/configmaps/inside", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":null}}");
        eventually("namespace gone", () -> get("/api/v1/namespaces/doomed").code() == 404);
        assertThat(get("/api/v1/namespaces/doomed/configmaps/inside").code()).isEqualTo(404);
    }
}
