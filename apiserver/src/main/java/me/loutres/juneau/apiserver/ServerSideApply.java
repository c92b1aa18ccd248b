package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Server-side apply ("Server-Side Apply", kubernetes.io/docs/reference/using-api/server-side-apply/) for one or a
 * few appliers: the applied configuration is merged into the live object (maps recursively, associative lists by
 * their map keys, sets by value, other lists replaced), the fields an applier set last time and no longer sets are
 * removed, and each applier's fields are recorded in {@code metadata.managedFields} (operation Apply, FieldsV1).
 * Changing a field another applier owns to a different value is a conflict unless {@code force=true}. Fields
 * written by plain updates are not tracked (those managers are not recorded), so they never conflict.
 */
final class ServerSideApply {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ResourceType type;

    ServerSideApply(ResourceType type) {
        this.type = type;
    }

    /** The object after applying {@code config} as {@code manager} to {@code live} (null: create). */
    ObjectNode apply(ObjectNode live, ObjectNode config, String manager, boolean force, Instant now)
            throws ApiException {
        Map<String, Set<String>> owners = owners(live);
        Set<String> previous = owners.getOrDefault(manager, Set.of());
        Set<String> fields = new LinkedHashSet<>();
        collect(config, "", "", fields);
        fields.removeIf(p -> p.startsWith("f:apiVersion") || p.startsWith("f:kind")
                || p.startsWith("f:metadata\u0000f:name") || p.startsWith("f:metadata\u0000f:namespace")
                || p.startsWith("f:metadata\u0000f:resourceVersion") || p.startsWith("f:metadata\u0000f:managedFields"));
        ObjectNode result = live == null ? F.objectNode() : live.deepCopy();
        List<String> conflicts = new ArrayList<>();
        for (Map.Entry<String, Set<String>> other : owners.entrySet()) {
            if (other.getKey().equals(manager)) {
                continue;
            }
            for (String f : fields) {
                if (other.getValue().contains(f) && !f.endsWith("\u0000.")
                        && !java.util.Objects.equals(valueAt(result, f), valueAt(config, f))) {
                    conflicts.add("conflict with \"" + other.getKey() + "\": " + readable(f));
                }
            }
        }
        if (!conflicts.isEmpty() && !force) {
            String msg = "Apply failed with " + conflicts.size() + " conflict" + (conflicts.size() == 1 ? "" : "s")
                    + ": " + String.join("\n", conflicts);
            ObjectNode d = F.objectNode();
            var causes = d.putArray("causes");
            conflicts.forEach(c -> causes.addObject().put("reason", "FieldManagerConflict").put("message", c));
            throw new ApiException(409, "Conflict", msg, d);
        }
        // fields this applier stops setting go, unless another applier still sets them (deepest first)
        List<String> removed = new ArrayList<>(previous);
        removed.removeAll(fields);
        removed.sort(Comparator.comparingInt((String p) -> p.split("\u0000").length).reversed());
        for (String p : removed) {
            boolean ownedElsewhere = owners.entrySet().stream().anyMatch(e -> !e.getKey().equals(manager)
                    && e.getValue().contains(p));
            if (!ownedElsewhere) {
                remove(result, p.split("\u0000"), 0);
            }
        }
        merge(result, config, "");
        Map<String, Set<String>> updated = new LinkedHashMap<>(owners);
        if (force) {
            updated.replaceAll((m, set) -> {
                if (m.equals(manager)) {
                    return set;
                }
                Set<String> kept = new LinkedHashSet<>(set);
                kept.removeAll(fields);
                return kept;
            });
            updated.values().removeIf(Set::isEmpty);
        }
        updated.put(manager, fields);
        writeManagedFields(result, live, updated, manager, now);
        return result;
    }

    private void merge(ObjectNode target, ObjectNode config, String path) {
        for (Map.Entry<String, JsonNode> e : config.properties()) {
            String field = e.getKey();
            if (path.equals("metadata") && field.equals("managedFields")) {
                continue;
            }
            String child = path.isEmpty() ? field : path + "." + field;
            JsonNode value = e.getValue();
            JsonNode current = target.get(field);
            if (value.isNull()) {
                target.remove(field);
            } else if (value.isObject() && current instanceof ObjectNode o) {
                merge(o, (ObjectNode) value, child);
            } else if (value.isArray() && current instanceof ArrayNode arr) {
                MergeKeys.Strategy s = MergeKeys.ssa(type, child);
                if (s.set()) {
                    for (JsonNode v : value) {
                        boolean present = false;
                        for (JsonNode c : arr) {
                            present |= c.equals(v);
                        }
                        if (!present) {
                            arr.add(v);
                        }
                    }
                } else if (!s.atomic()) {
                    for (JsonNode item : value) {
                        int index = -1;
                        for (int i = 0; i < arr.size(); i++) {
                            if (MergeKeys.sameItem(arr.get(i), item, s.keys())) {
                                index = i;
                            }
                        }
                        if (index >= 0 && arr.get(index) instanceof ObjectNode o && item.isObject()) {
                            merge(o, (ObjectNode) item, child + "[]");
                        } else {
                            arr.add(item.deepCopy());
                        }
                    }
                } else {
                    target.set(field, value.deepCopy());
                }
            } else {
                target.set(field, value.deepCopy());
            }
        }
    }

    /** The field paths of a configuration, as FieldsV1 segments joined by NUL. */
    private void collect(JsonNode node, String schemaPath, String prefix, Set<String> out) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String seg = prefix + (prefix.isEmpty() ? "" : "\u0000") + "f:" + e.getKey();
            String sp = schemaPath.isEmpty() ? e.getKey() : schemaPath + "." + e.getKey();
            JsonNode v = e.getValue();
            if (v.isObject() && v.size() > 0) {
                collect(v, sp, seg, out);
            } else if (v.isArray()) {
                MergeKeys.Strategy s = MergeKeys.ssa(type, sp);
                if (s.set()) {
                    for (JsonNode item : v) {
                        out.add(seg + "\u0000v:" + item.toString());
                    }
                } else if (!s.atomic()) {
                    for (JsonNode item : v) {
                        String key = seg + "\u0000k:" + itemKey(item, s.keys());
                        out.add(key + "\u0000.");
                        ObjectNode rest = item.isObject() ? ((ObjectNode) item).deepCopy() : F.objectNode();
                        collect(rest, sp + "[]", key, out);
                    }
                } else {
                    out.add(seg);
                }
            } else {
                out.add(seg);
            }
        }
    }

    private static String itemKey(JsonNode item, List<String> keys) {
        ObjectNode k = F.objectNode();
        for (String key : keys) {
            JsonNode v = item.path(key);
            if (v.isMissingNode() || v.isNull()) {
                if (key.equals("protocol")) {
                    k.put(key, "TCP");
                }
            } else {
                k.set(key, v);
            }
        }
        return k.toString();
    }

    private static String readable(String path) {
        StringBuilder b = new StringBuilder();
        for (String seg : path.split("\u0000")) {
            if (seg.startsWith("f:")) {
                b.append('.').append(seg.substring(2));
            } else if (seg.startsWith("k:")) {
                b.append('[').append(seg.substring(2)).append(']');
            } else if (seg.startsWith("v:")) {
                b.append("[=").append(seg.substring(2)).append(']');
            }
        }
        return b.toString();
    }

    private static JsonNode valueAt(JsonNode root, String path) {
        JsonNode n = root;
        for (String seg : path.split("\u0000")) {
            if (n == null) {
                return null;
            }
            if (seg.startsWith("f:")) {
                n = n.get(seg.substring(2));
            } else if (seg.startsWith("k:")) {
                n = findItem(n, seg.substring(2));
            } else {
                return F.booleanNode(true);
            }
        }
        return n;
    }

    private static JsonNode findItem(JsonNode list, String keyJson) {
        if (!(list instanceof ArrayNode)) {
            return null;
        }
        try {
            JsonNode key = JSON.readTree(keyJson);
            List<String> names = new ArrayList<>();
            key.fieldNames().forEachRemaining(names::add);
            for (JsonNode item : list) {
                if (MergeKeys.sameItem(item, key, names)) {
                    return item;
                }
            }
        } catch (java.io.IOException e) {
            return null;
        }
        return null;
    }

    /** Removes the field, list item or set value a path names (a path ending in "." names the item). */
    private static void remove(JsonNode node, String[] segs, int i) {
        int last = segs[segs.length - 1].equals(".") ? segs.length - 2 : segs.length - 1;
        if (node == null || i > last) {
            return;
        }
        String seg = segs[i];
        if (seg.startsWith("f:")) {
            if (!(node instanceof ObjectNode o)) {
                return;
            }
            if (i == last) {
                o.remove(seg.substring(2));
            } else {
                remove(o.get(seg.substring(2)), segs, i + 1);
            }
        } else if (seg.startsWith("k:") && node instanceof ArrayNode arr) {
            JsonNode item = findItem(arr, seg.substring(2));
            if (item == null) {
                return;
            }
            if (i == last) {
                for (int j = 0; j < arr.size(); j++) {
                    if (arr.get(j) == item) {
                        arr.remove(j);
                        break;
                    }
                }
            } else {
                remove(item, segs, i + 1);
            }
        } else if (seg.startsWith("v:") && node instanceof ArrayNode arr && i == last) {
            for (int j = 0; j < arr.size(); j++) {
                if (arr.get(j).toString().equals(seg.substring(2))) {
                    arr.remove(j);
                    break;
                }
            }
        }
    }

    /** Each Apply manager's field set, read back from managedFields. */
    private static Map<String, Set<String>> owners(ObjectNode live) {
        Map<String, Set<String>> owners = new LinkedHashMap<>();
        if (live == null) {
            return owners;
        }
        for (JsonNode entry : live.path("metadata").path("managedFields")) {
            if (!"Apply".equals(entry.path("operation").asText())) {
                continue;
            }
            Set<String> set = new LinkedHashSet<>();
            decode(entry.path("fieldsV1"), "", set);
            owners.put(entry.path("manager").asText(), set);
        }
        return owners;
    }

    private static void decode(JsonNode node, String prefix, Set<String> out) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String path = prefix.isEmpty() ? e.getKey() : prefix + "\u0000" + e.getKey();
            if (e.getKey().equals(".")) {
                out.add(path);
            } else if (e.getValue().size() == 0) {
                out.add(path);
            } else {
                decode(e.getValue(), path, out);
            }
        }
    }

    private static ObjectNode encode(Set<String> fields) {
        ObjectNode root = F.objectNode();
        for (String f : fields) {
            ObjectNode n = root;
            for (String seg : f.split("\u0000")) {
                JsonNode child = n.get(seg);
                n = child instanceof ObjectNode o ? o : n.putObject(seg);
            }
        }
        return root;
    }

    private void writeManagedFields(ObjectNode result, ObjectNode live, Map<String, Set<String>> owners,
            String manager, Instant now) {
        ObjectNode meta = result.has("metadata") && result.get("metadata").isObject()
                ? (ObjectNode) result.get("metadata") : result.putObject("metadata");
        ArrayNode list = F.arrayNode();
        Map<String, JsonNode> previous = new LinkedHashMap<>();
        if (live != null) {
            for (JsonNode e : live.path("metadata").path("managedFields")) {
                previous.put(e.path("manager").asText() + "/" + e.path("operation").asText(), e);
            }
        }
        for (Map.Entry<String, Set<String>> e : owners.entrySet()) {
            JsonNode old = previous.get(e.getKey() + "/Apply");
            ObjectNode entry = list.addObject();
            entry.put("manager", e.getKey());
            entry.put("operation", "Apply");
            entry.put("apiVersion", type.groupVersion());
            entry.put("time", e.getKey().equals(manager) || old == null
                    ? now.truncatedTo(ChronoUnit.SECONDS).toString() : old.path("time").asText());
            entry.put("fieldsType", "FieldsV1");
            entry.set("fieldsV1", encode(e.getValue()));
        }
        meta.set("managedFields", list);
    }
}
