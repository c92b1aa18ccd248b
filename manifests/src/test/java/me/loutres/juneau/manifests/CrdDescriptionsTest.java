package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl explain} shows a CRD's schema descriptions and nothing else: every object and every field of every
 * CRD in base/crds (whatever kinds are there) says what it is, the kind itself, {@code spec} and {@code status}
 * included. The descriptions come from {@code @JsonClassDescription} and {@code @JsonPropertyDescription} on the
 * Java types in shared-model (the CRDs are generated; see CrdsUpToDateTest).
 */
class CrdDescriptionsTest {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Root fields every Kubernetes object has; the API server documents them, not the CRD. */
    static final Set<String> STANDARD_ROOT_FIELDS = Set.of("apiVersion", "kind", "metadata");

    @Test
    void everyFieldOfEveryCrdHasADescription() throws IOException {
        List<Path> crds;
        try (Stream<Path> files = Files.list(Crds.COMMITTED)) {
            crds = files.filter(p -> p.toString().endsWith(".yaml") && !p.endsWith("kustomization.yaml")).sorted()
                    .toList();
        }
        assertThat(crds).as("CRDs in %s", Crds.COMMITTED).isNotEmpty();
        List<String> undocumented = new ArrayList<>();
        int fields = 0;
        for (Path crd : crds) {
            JsonNode doc = YAML.readTree(crd.toFile());
            assertThat(doc.path("kind").asText()).as("%s", crd).isEqualTo("CustomResourceDefinition");
            String kind = doc.path("spec").path("names").path("kind").asText();
            for (JsonNode version : doc.path("spec").path("versions")) {
                JsonNode root = version.path("schema").path("openAPIV3Schema");
                assertThat(root.isObject()).as("%s has a schema", crd).isTrue();
                fields += walk(kind + "(" + version.path("name").asText() + ")", root, true, undocumented);
            }
        }
        assertThat(fields).as("fields checked").isGreaterThan(20);
        assertThat(undocumented).as("schema nodes without a description (kubectl explain would print <empty>);"
                + " add @JsonPropertyDescription / @JsonClassDescription to the Java type and regenerate with %s",
                Crds.REFRESH_COMMAND).isEmpty();
    }

    @Test
    void theWalkFindsAnEmptyDescriptionAtAnyDepth() throws IOException {
        JsonNode schema = YAML.readTree("""
                description: a kind
                type: object
                properties:
                  metadata: {type: object}
                  spec:
                    description: the spec
                    type: object
                    properties:
                      items:
                        description: entries
                        type: array
                        items:
                          type: object
                          properties:
                            name: {type: string, description: "  "}
                """);
        List<String> undocumented = new ArrayList<>();
        walk("K", schema, true, undocumented);
        assertThat(undocumented).containsExactly("K.spec.items[].name");
    }

    /** Checks this node and everything under it; returns how many nodes it checked. */
    static int walk(String path, JsonNode node, boolean root, List<String> undocumented) {
        int count = 1;
        if (node.path("description").asText("").isBlank()) {
            undocumented.add(path);
        }
        JsonNode properties = node.path("properties");
        for (var it = properties.fields(); it.hasNext(); ) {
            var e = it.next();
            if (root && STANDARD_ROOT_FIELDS.contains(e.getKey())) {
                continue;
            }
            count += walk(path + "." + e.getKey(), e.getValue(), false, undocumented);
        }
        JsonNode items = node.path("items");
        if (items.isObject() && (items.has("properties") || items.has("items"))) {
            // an array's element object: its fields need descriptions; the element itself is the array's
            for (var it = items.path("properties").fields(); it.hasNext(); ) {
                var e = it.next();
                count += walk(path + "[]." + e.getKey(), e.getValue(), false, undocumented);
            }
        }
        JsonNode additional = node.path("additionalProperties");
        if (additional.isObject() && additional.has("properties")) {
            for (var it = additional.path("properties").fields(); it.hasNext(); ) {
                var e = it.next();
                count += walk(path + "{}." + e.getKey(), e.getValue(), false, undocumented);
            }
        }
        return count;
    }
}
