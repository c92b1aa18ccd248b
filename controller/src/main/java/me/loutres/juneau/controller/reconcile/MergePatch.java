package me.loutres.juneau.controller.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Iterator;
import java.util.Map;

/**
 * RFC 7386 JSON merge patches, computed from the old and the new form of a value. Merge patch is the one patch
 * type every API server accepts for custom resources (no strategic merge there), and a patch that carries
 * {@code metadata.resourceVersion} is refused with 409 when the object changed meanwhile.
 */
final class MergePatch {
    static final ObjectMapper MAPPER = Serialization.jsonMapper();

    private MergePatch() {
    }

    /** The patch that turns {@code from} into {@code to}: changed fields, removed fields as null, arrays whole. */
    static JsonNode diff(JsonNode from, JsonNode to) {
        if (to == null || to.isNull()) {
            return JsonNodeFactory.instance.nullNode();
        }
        if (from == null || !from.isObject() || !to.isObject()) {
            return to;
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (Iterator<String> it = from.fieldNames(); it.hasNext();) {
            String name = it.next();
            if (!to.has(name) || to.get(name).isNull()) {
                if (!from.get(name).isNull()) {
                    out.putNull(name);
                }
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = to.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode old = from.get(e.getKey());
            if (e.getValue().isNull() || e.getValue().equals(old)) {
                continue;
            }
            out.set(e.getKey(), old != null && old.isObject() && e.getValue().isObject()
                    ? diff(old, e.getValue()) : e.getValue());
        }
        return out;
    }

    /** {@code {"metadata":{"resourceVersion":rv},"<field>":diff(from,to)}}: applied only to that exact version. */
    static String guarded(String resourceVersion, String field, Object from, Object to) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.putObject("metadata").put("resourceVersion", resourceVersion);
        JsonNode f = from == null ? JsonNodeFactory.instance.objectNode() : MAPPER.valueToTree(from);
        JsonNode t = to == null ? JsonNodeFactory.instance.nullNode() : MAPPER.valueToTree(to);
        patch.set(field, diff(f, t));
        return patch.toString();
    }
}
