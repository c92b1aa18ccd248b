package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes' strategic merge patch (k8s.io/apimachinery/pkg/util/strategicpatch, documented in "Update API
 * Objects in Place Using kubectl patch" and the SIG API machinery "strategic-merge-patch.md"): maps merge, {@code
 * null} deletes, a list with a merge key merges its items by that key, a list of primitives with strategy merge
 * is a set, any other list is replaced; directives {@code $patch: replace|delete|merge},
 * {@code $deleteFromPrimitiveList/<field>}, {@code $setElementOrder/<field>} and {@code $retainKeys}.
 */
final class StrategicMergePatch {
    private final ResourceType type;

    StrategicMergePatch(ResourceType type) {
        this.type = type;
    }

    JsonNode apply(JsonNode original, JsonNode patch) throws ApiException {
        if (!patch.isObject()) {
            throw ApiException.badRequest("unable to find api field in struct for the patch: a strategic merge patch"
                    + " must be a JSON object");
        }
        ObjectNode base = original != null && original.isObject() ? ((ObjectNode) original).deepCopy()
                : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        JsonNode result = mergeMap(base, (ObjectNode) patch, "");
        return result == null ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode() : result;
    }

    /** Null when the patch deletes the whole map ({@code $patch: delete}). */
    private JsonNode mergeMap(ObjectNode original, ObjectNode patch, String path) throws ApiException {
        String directive = patch.path("$patch").asText(null);
        if ("delete".equals(directive)) {
            return null;
        }
        if ("replace".equals(directive)) {
            return strip(patch);
        }
        if (directive != null && !"merge".equals(directive)) {
            throw ApiException.badRequest("unknown patch type: " + directive + " in map: " + patch);
        }
        Map<String, JsonNode> orders = new HashMap<>();
        List<String> retainKeys = null;
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String field = e.getKey();
            JsonNode value = e.getValue();
            if (field.equals("$patch")) {
                continue;
            }
            if (field.equals("$retainKeys")) {
                retainKeys = new ArrayList<>();
                for (JsonNode k : value) {
                    retainKeys.add(k.asText());
                }
                continue;
            }
            if (field.startsWith("$setElementOrder/")) {
                orders.put(field.substring("$setElementOrder/".length()), value);
                continue;
            }
            if (field.startsWith("$deleteFromPrimitiveList/")) {
                deleteFromPrimitiveList(original, field.substring("$deleteFromPrimitiveList/".length()), value);
                continue;
            }
            mergeField(original, field, value, path.isEmpty() ? field : path + "." + field);
        }
        for (Map.Entry<String, JsonNode> order : orders.entrySet()) {
            JsonNode list = original.get(order.getKey());
            if (list instanceof ArrayNode arr) {
                String childPath = path.isEmpty() ? order.getKey() : path + "." + order.getKey();
                original.set(order.getKey(), reorder(arr, order.getValue(), MergeKeys.smp(type, childPath)));
            }
        }
        if (retainKeys != null) {
            List<String> keep = retainKeys;
            original.retain(keep);
        }
        return original;
    }

    /** {@code $deleteFromPrimitiveList/<name>}: the listed values leave the primitive list. */
    private static void deleteFromPrimitiveList(ObjectNode original, String name, JsonNode values) {
        if (original.get(name) instanceof ArrayNode arr) {
            ArrayNode kept = arr.arrayNode();
            for (JsonNode item : arr) {
                if (!contains(values, item)) {
                    kept.add(item);
                }
            }
            original.set(name, kept);
        }
    }

    /** One field of the patch: null removes, a map merges, a list merges by its strategy, a scalar replaces. */
    private void mergeField(ObjectNode original, String field, JsonNode value, String childPath)
            throws ApiException {
        if (value.isNull()) {
            original.remove(field);
        } else if (value.isObject()) {
            JsonNode current = original.get(field);
            JsonNode merged = mergeMap(current instanceof ObjectNode o ? o
                    : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), (ObjectNode) value,
                    childPath);
            if (merged == null) {
                original.remove(field);
            } else {
                original.set(field, merged);
            }
        } else if (value.isArray()) {
            original.set(field, mergeList(original.get(field), (ArrayNode) value, childPath));
        } else {
            original.set(field, value);
        }
    }

    private JsonNode mergeList(JsonNode current, ArrayNode patch, String path) throws ApiException {
        MergeKeys.Strategy strategy = MergeKeys.smp(type, path);
        for (JsonNode item : patch) {
            if (item.isObject() && "replace".equals(item.path("$patch").asText(null)) && item.size() == 1) {
                ArrayNode out = patch.arrayNode();
                for (JsonNode i : patch) {
                    if (i != item) {
                        out.add(strip(i));
                    }
                }
                return out;
            }
        }
        if (strategy.atomic() || !(current instanceof ArrayNode)) {
            ArrayNode out = patch.arrayNode();
            for (JsonNode item : patch) {
                if (!(item.isObject() && "delete".equals(item.path("$patch").asText(null)))) {
                    out.add(strip(item));
                }
            }
            return out;
        }
        ArrayNode result = ((ArrayNode) current).deepCopy();
        if (strategy.set()) {
            for (JsonNode item : patch) {
                if (!contains(result, item)) {
                    result.add(item);
                }
            }
            return result;
        }
        for (JsonNode item : patch) {
            if (!item.isObject()) {
                throw ApiException.badRequest("unable to merge list " + path + ": its items are maps merged by "
                        + strategy.keys() + ", got " + item);
            }
            int index = indexOf(result, item, strategy.keys());
            if ("delete".equals(item.path("$patch").asText(null))) {
                while (index >= 0) {
                    result.remove(index);
                    index = indexOf(result, item, strategy.keys());
                }
            } else if (index >= 0) {
                JsonNode merged = mergeMap((ObjectNode) result.get(index), (ObjectNode) item, path + "[]");
                if (merged == null) {
                    result.remove(index);
                } else {
                    result.set(index, merged);
                }
            } else {
                result.add(strip(item));
            }
        }
        return result;
    }

    private static int indexOf(ArrayNode list, JsonNode item, List<String> keys) {
        for (int i = 0; i < list.size(); i++) {
            if (MergeKeys.sameItem(list.get(i), item, keys)) {
                return i;
            }
        }
        return -1;
    }

    /** Items named by {@code $setElementOrder} first, in that order; the others keep their relative order. */
    private static ArrayNode reorder(ArrayNode list, JsonNode order, MergeKeys.Strategy strategy) {
        ArrayNode out = list.arrayNode();
        List<JsonNode> rest = new ArrayList<>();
        list.forEach(rest::add);
        for (JsonNode o : order) {
            for (int i = 0; i < rest.size(); i++) {
                JsonNode item = rest.get(i);
                boolean same = strategy.keys().isEmpty() ? item.equals(o) : MergeKeys.sameItem(item, o,
                        strategy.keys());
                if (same) {
                    out.add(item);
                    rest.remove(i);
                    break;
                }
            }
        }
        rest.forEach(out::add);
        return out;
    }

    private static boolean contains(JsonNode list, JsonNode value) {
        for (JsonNode n : list) {
            if (n.equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** A value as stored: directives removed at every level. */
    static JsonNode strip(JsonNode value) {
        if (value.isObject()) {
            ObjectNode out = value.deepCopy();
            var names = new ArrayList<String>();
            out.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                if (n.startsWith("$")) {
                    out.remove(n);
                } else {
                    out.set(n, strip(out.get(n)));
                }
            }
            return out;
        }
        if (value.isArray()) {
            ArrayNode out = ((ArrayNode) value).arrayNode();
            value.forEach(v -> out.add(strip(v)));
            return out;
        }
        return value;
    }
}
