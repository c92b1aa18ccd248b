package me.loutres.juneau.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every field of the generated CRDs (manifests/base/crds) whose schema type is {@code integer}, {@code number} or
 * {@code boolean}, read from the schemas themselves: a table test over them covers a field added tomorrow without
 * anyone listing it. {@link Field#objectWith} builds the smallest object of the kind that carries a value there.
 */
public final class CrdTypedFields {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private CrdTypedFields() {
    }

    /**
     * One typed field.
     *
     * @param group   the CRD's group
     * @param version the served version
     * @param kind    the kind
     * @param plural  the resource name
     * @param path    the field's path, list items as {@code []} (e.g. {@code status.conditions[].observedGeneration})
     * @param type    {@code integer}, {@code number} or {@code boolean}
     */
    public record Field(String group, String version, String kind, String plural, boolean namespaced, String path,
            String type) {
        /** The path as a message names it, the first list entry standing for every one. */
        public String concretePath() {
            return path.replace("[]", "[0]");
        }

        /** The field's top-level part: {@code spec} or {@code status}. */
        public String part() {
            int dot = path.indexOf('.');
            return dot < 0 ? path : path.substring(0, dot);
        }

        /** {@code {apiVersion, kind, metadata: {name}, ...}} with {@code value} at the field's path (first list entries). */
        public ObjectNode objectWith(String name, JsonNode value) {
            ObjectNode root = YAML.createObjectNode();
            root.put("apiVersion", group + "/" + version);
            root.put("kind", kind);
            ObjectNode meta = root.putObject("metadata");
            meta.put("name", name);
            if (namespaced) {
                meta.put("namespace", "default");
            }
            ObjectNode at = root;
            String[] steps = path.split("\\.");
            for (int i = 0; i < steps.length; i++) {
                String step = steps[i];
                boolean list = step.endsWith("[]");
                String key = list ? step.substring(0, step.length() - 2) : step;
                boolean last = i == steps.length - 1;
                if (list) {
                    ArrayNode a = at.withArray(key);
                    if (last) {
                        a.add(value);
                    } else {
                        at = a.addObject();
                    }
                } else if (last) {
                    at.set(key, value);
                } else {
                    at = at.withObject(key);
                }
            }
            return root;
        }
    }

    /** The typed fields of every CRD file in {@code dir} (files named {@code <plural>.<group>.yaml}). */
    public static List<Field> in(Path dir) {
        List<Field> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("[a-z]+\\..+\\.yaml")).sorted()
                    .toList()) {
                JsonNode crd = YAML.readTree(f.toFile());
                if (!"CustomResourceDefinition".equals(crd.path("kind").asText())) {
                    continue;
                }
                JsonNode spec = crd.path("spec");
                for (JsonNode v : spec.path("versions")) {
                    walk(v.path("schema").path("openAPIV3Schema"), "", out, spec, v.path("name").asText());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The repository's own CRDs, from a module directory (tests run there). */
    public static List<Field> ofRepository() {
        return in(Path.of("..", "manifests", "base", "crds"));
    }

    private static void walk(JsonNode schema, String path, List<Field> out, JsonNode spec, String version) {
        String type = schema.path("type").asText("");
        if (Map.of("integer", 1, "number", 1, "boolean", 1).containsKey(type)) {
            out.add(new Field(spec.path("group").asText(), version, spec.path("names").path("kind").asText(),
                    spec.path("names").path("plural").asText(), "Namespaced".equals(spec.path("scope").asText()),
                    path, type));
        }
        schema.path("properties").properties().forEach(
                e -> walk(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), out, spec, version));
        if (schema.has("items")) {
            walk(schema.path("items"), path + "[]", out, spec, version);
        }
    }
}
