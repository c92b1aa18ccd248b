package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** The JSON and YAML readers the server shares, and small helpers on Jackson trees. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Json() {
    }

    /** The object field {@code name} of {@code node}, created when missing (or replaced when not an object). */
    static ObjectNode obj(ObjectNode node, String name) {
        JsonNode child = node.get(name);
        if (child instanceof ObjectNode o) {
            return o;
        }
        return node.putObject(name);
    }

    static ObjectNode meta(ObjectNode object) {
        return obj(object, "metadata");
    }

    static String rv(JsonNode object) {
        return object.path("metadata").path("resourceVersion").asText("");
    }
}
