package me.loutres.juneau.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
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
     * Applies a base64 JSONPatch (RFC 6902) to a copy of the tree with the library the local API server uses, as the
     * API server does before the validating webhooks run: a path whose parent is missing fails, as it does there.
     *
     * @throws IllegalArgumentException when the patch is not base64 JSON or cannot be applied
     */
    public static JsonNode apply(JsonNode target, String base64Patch) {
        if (base64Patch == null) {
            return target.deepCopy();
        }
        try {
            JsonNode ops = KubeObjects.mapper().readTree(Base64.getDecoder().decode(base64Patch));
            return io.fabric8.zjsonpatch.JsonPatch.apply(ops, target.deepCopy());
        } catch (java.io.IOException | RuntimeException e) {
            throw new IllegalArgumentException("the patch cannot be applied: " + e.getMessage(), e);
        }
    }

}
