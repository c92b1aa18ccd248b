package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * What makes a write a no-op (kube-apiserver stores nothing and sends no event when the bytes are the same but for
 * the resourceVersion and the managedFields' times) and what bumps metadata.generation (anything outside metadata
 * and status). Both compare the objects in place; neither may change them.
 */
class WriteComparisonTest {
    private static ObjectNode object(String json) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(json);
    }

    private static final String LIVE = """
            {"apiVersion":"v1","kind":"Service","metadata":{"name":"a","resourceVersion":"7","labels":{"x":"1"},
             "managedFields":[{"manager":"m","operation":"Apply","time":"2026-12-03T01:00:00Z"}]},
             "spec":{"ports":[{"port":80}]},"status":{"loadBalancer":{}}}""";

    @Test
    void onlyTheResourceVersionAndManagedFieldTimesMayDifferInANoOp() throws Exception {
        ObjectNode live = object(LIVE);
        ObjectNode next = object(LIVE.replace("\"7\"", "\"8\"").replace("01:00:00Z", "02:00:00Z"));
        assertThat(Operations.unchanged(next, live)).isTrue();
        assertThat(Operations.unchanged(object(LIVE.replace(",\"resourceVersion\":\"7\"", "")), live)).isTrue();
        assertThat(Operations.unchanged(object(LIVE.replace("\"x\":\"1\"", "\"x\":\"2\"")), live)).isFalse();
        assertThat(Operations.unchanged(object(LIVE.replace("\"manager\":\"m\"", "\"manager\":\"n\"")), live))
                .isFalse();
        assertThat(Operations.unchanged(object(LIVE.replace("\"loadBalancer\":{}", "\"loadBalancer\":{\"a\":1}")),
                live)).isFalse();
        ObjectNode extra = object(LIVE);
        extra.put("data", "more");
        assertThat(Operations.unchanged(extra, live)).isFalse();
        assertThat(Operations.unchanged(live, extra)).isFalse();
        ObjectNode noManaged = object(LIVE);
        Json.meta(noManaged).remove("managedFields");
        assertThat(Operations.unchanged(noManaged, live)).isFalse();
        assertThat(live).as("compared in place, not changed").isEqualTo(object(LIVE));
    }

    @Test
    void theGenerationCountsChangesOutsideMetadataAndStatus() throws Exception {
        ObjectNode live = object(LIVE);
        assertThat(Operations.specChanged(live, object(LIVE.replace("\"x\":\"1\"", "\"x\":\"2\"")
                .replace("\"loadBalancer\":{}", "\"loadBalancer\":{\"a\":1}")))).isFalse();
        assertThat(Operations.specChanged(live, object(LIVE.replace("\"port\":80", "\"port\":81")))).isTrue();
        ObjectNode noSpec = object(LIVE);
        noSpec.remove("spec");
        assertThat(Operations.specChanged(live, noSpec)).isTrue();
        assertThat(Operations.specChanged(noSpec, live)).isTrue();
        assertThat(live).isEqualTo(object(LIVE));
    }

    @Test
    void uidsAreVersionFourUuidsAndDistinct() {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String uid = Uids.next();
            java.util.UUID parsed = java.util.UUID.fromString(uid);
            assertThat(parsed.version()).isEqualTo(4);
            assertThat(parsed.variant()).isEqualTo(2);
            assertThat(uid).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            seen.add(uid);
        }
        assertThat(seen).hasSize(1000);
    }
}
