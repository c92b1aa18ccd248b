package me.loutres.juneau.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.view.KubeObjects;

/** The small part of RFC 6902 the mutation needs: {@code add}/{@code replace} of object members. */
public final class JsonPatch {
    /** One operation; {@code path} is a JSON pointer. */
    public record Op(String op, String path, JsonNode value) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("op", op);
            m.put("path", path);
            m.put("value", value);
            return m;
        }
    }

    private JsonPatch() {
    }

    static Op add(String path, String value) {
        return new Op("add", path, KubeObjects.mapper().getNodeFactory().textNode(value));
    }

    static Op replace(String path, String value) {
        return new Op("replace", path, KubeObjects.mapper().getNodeFactory().textNode(value));
    }

    /** A JSON pointer from plain segments, escaping {@code ~} and {@code /} (annotation keys contain slashes). */
    static String pointer(String... segments) {
        StringBuilder sb = new StringBuilder();
        for (String s : segments) {
            sb.append('/').append(s.replace("~", "~0").replace("/", "~1"));
        }
        return sb.toString();
    }

    static String json(List<Op> ops) {
        List<Map<String, Object>> list = new ArrayList<>();
        ops.forEach(o -> list.add(o.toMap()));
        try {
            return KubeObjects.mapper().writeValueAsString(list);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a patch of strings", e);
        }
    }

    static String base64(List<Op> ops) {
        return Base64.getEncoder().encodeToString(json(ops).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Applies a base64 JSONPatch of {@code add}/{@code replace} operations on object members to a copy of the tree, as
     * the API server does before the validating webhooks run (used by offline validation).
     */
    public static JsonNode apply(JsonNode target, String base64Patch) {
        JsonNode copy = target.deepCopy();
        if (base64Patch == null) {
            return copy;
        }
        try {
            JsonNode ops = KubeObjects.mapper().readTree(Base64.getDecoder().decode(base64Patch));
            for (JsonNode op : ops) {
                String kind = op.path("op").asText();
                if (!"add".equals(kind) && !"replace".equals(kind)) {
                    throw new IllegalArgumentException("unsupported patch operation " + kind);
                }
                String[] parts = op.path("path").asText().substring(1).split("/", -1);
                JsonNode node = copy;
                for (int i = 0; i < parts.length - 1; i++) {
                    String seg = unescape(parts[i]);
                    JsonNode next = node.get(seg);
                    if (next == null || next.isNull()) {
                        next = ((ObjectNode) node).putObject(seg);
                    }
                    node = next;
                }
                if (node instanceof ArrayNode) {
                    throw new IllegalArgumentException("array patch paths are not supported");
                }
                ((ObjectNode) node).set(unescape(parts[parts.length - 1]), op.get("value"));
            }
            return copy;
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("patch is not JSON", e);
        }
    }

    private static String unescape(String segment) {
        return segment.replace("~1", "/").replace("~0", "~");
    }
}
