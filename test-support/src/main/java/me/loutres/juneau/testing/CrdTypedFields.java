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
import java.util.Set;
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
     * @param schema  the kind's openAPIV3Schema
     */
    public record Field(String group, String version, String kind, String plural, boolean namespaced, String path,
            String type, JsonNode schema) {
        @Override
        public String toString() {
            return kind + " " + path;
        }

        /** The path as a message names it, the first list entry standing for every one. */
        public String concretePath() {
            return path.replace("[]", "[0]");
        }

        /** The field's top-level part: {@code spec} or {@code status}. */
        public String part() {
            int dot = path.indexOf('.');
            return dot < 0 ? path : path.substring(0, dot);
        }

        /**
         * The smallest object of the kind its schema accepts: {@code apiVersion}, {@code kind}, {@code metadata.name}
         * (and namespace {@code default}), and every required field with a value of its type (an enum's first value,
         * a list of its minimum length).
         */
        public ObjectNode minimalObject(String name) {
            ObjectNode root = (ObjectNode) minimal(schema);
            root.put("apiVersion", group + "/" + version);
            root.put("kind", kind);
            ObjectNode meta = root.putObject("metadata");
            meta.put("name", name);
            if (namespaced) {
                meta.put("namespace", "default");
            }
            return root;
        }

        /** {@link #minimalObject} with {@code value} at the field's path (first list entries). */
        public ObjectNode objectWith(String name, JsonNode value) {
            ObjectNode root = minimalObject(name);
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
                        a.removeAll().add(value);
                    } else {
                        at = a.isEmpty() || !a.get(0).isObject() ? a.removeAll().addObject() : (ObjectNode) a.get(0);
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

    private static JsonNode minimal(JsonNode schema) {
        String type = schema.path("type").asText("object");
        if (schema.has("enum")) {
            return schema.path("enum").get(0);
        }
        switch (type) {
            case "string":
                return YAML.getNodeFactory().textNode("x");
            case "integer":
            case "number":
                return YAML.getNodeFactory().numberNode(Math.max(1, schema.path("minimum").asLong(1)));
            case "boolean":
                return YAML.getNodeFactory().booleanNode(true);
            case "array": {
                ArrayNode a = YAML.createArrayNode();
                for (int i = 0; i < schema.path("minItems").asInt(0); i++) {
                    a.add(minimal(schema.path("items")));
                }
                return a;
            }
            default: {
                ObjectNode o = YAML.createObjectNode();
                for (JsonNode r : schema.path("required")) {
                    o.set(r.asText(), minimal(schema.path("properties").path(r.asText())));
                }
                return o;
            }
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
                    JsonNode root = v.path("schema").path("openAPIV3Schema");
                    walk(root, root, "", out, spec, v.path("name").asText());
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

    private static void walk(JsonNode root, JsonNode schema, String path, List<Field> out, JsonNode spec,
            String version) {
        String type = schema.path("type").asText("");
        if (Set.of("integer", "number", "boolean").contains(type)) {
            out.add(new Field(spec.path("group").asText(), version, spec.path("names").path("kind").asText(),
                    spec.path("names").path("plural").asText(), "Namespaced".equals(spec.path("scope").asText()),
                    path, type, root));
        }
        schema.path("properties").properties().forEach(e -> walk(root, e.getValue(),
                path.isEmpty() ? e.getKey() : path + "." + e.getKey(), out, spec, version));
        if (schema.has("items")) {
            walk(root, schema.path("items"), path + "[]", out, spec, version);
        }
    }
}
