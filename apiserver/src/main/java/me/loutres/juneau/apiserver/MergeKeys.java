package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * How lists merge, from the Kubernetes API types' struct tags: {@code patchStrategy}/{@code patchMergeKey} for a
 * strategic merge patch, {@code listType}/{@code listMapKey} for server-side apply (which uses all the map keys,
 * e.g. a Service port is identified by port and protocol). A list not named here is atomic (replaced whole),
 * which is also how EndpointSlice {@code endpoints} and {@code ports} are declared.
 */
final class MergeKeys {
    /** A list's strategy: {@code keys} empty and {@code set} false means atomic. */
    record Strategy(List<String> keys, boolean set) {
        static final Strategy ATOMIC = new Strategy(List.of(), false);
        static final Strategy SET = new Strategy(List.of(), true);

        boolean atomic() {
            return keys.isEmpty() && !set;
        }
    }

    private static Strategy keys(String... k) {
        return new Strategy(List.of(k), false);
    }

    /** Lists every kind shares (ObjectMeta). */
    private static final Map<String, Strategy> META = Map.of(
            "metadata.finalizers", Strategy.SET,
            "metadata.ownerReferences", keys("uid"));

    /** SMP merge keys per group/plural and path ({@code []} marks a list item). */
    private static final Map<String, Map<String, Strategy>> SMP = Map.of(
            "/services", Map.of("spec.ports", keys("port"), "status.conditions", keys("type")),
            "/nodes", Map.of("status.addresses", keys("type"), "status.conditions", keys("type")),
            "/namespaces", Map.of("status.conditions", keys("type")),
            "/pods", Map.ofEntries(Map.entry("spec.containers", keys("name")),
                    Map.entry("spec.initContainers", keys("name")), Map.entry("spec.volumes", keys("name")),
                    Map.entry("spec.containers[].env", keys("name")),
                    Map.entry("spec.containers[].ports", keys("containerPort")),
                    Map.entry("spec.containers[].volumeMounts", keys("mountPath")),
                    Map.entry("status.conditions", keys("type"))));

    /** Server-side apply list map keys where they differ from the SMP merge key. */
    private static final Map<String, Map<String, Strategy>> SSA = Map.of(
            "/services", Map.of("spec.ports", keys("port", "protocol"), "status.conditions", keys("type")),
            "/pods", Map.of("spec.containers[].ports", keys("containerPort", "protocol")));

    private MergeKeys() {
    }

    static Strategy smp(ResourceType type, String path) {
        Strategy meta = META.get(path);
        if (meta != null) {
            return meta;
        }
        return SMP.getOrDefault(type.key(), Map.of()).getOrDefault(path, Strategy.ATOMIC);
    }

    static Strategy ssa(ResourceType type, String path) {
        Strategy meta = META.get(path);
        if (meta != null) {
            return meta;
        }
        if (type.custom()) {
            return fromSchema(type.schema(), path);
        }
        Strategy s = SSA.getOrDefault(type.key(), Map.of()).get(path);
        return s != null ? s : smp(type, path);
    }

    /** A custom resource's list: {@code x-kubernetes-list-type} and {@code x-kubernetes-list-map-keys}. */
    private static Strategy fromSchema(JsonNode schema, String path) {
        JsonNode node = schema;
        for (String part : path.split("\\.")) {
            boolean item = part.endsWith("[]");
            String name = item ? part.substring(0, part.length() - 2) : part;
            node = node == null ? null : node.path("properties").path(name);
            if (item && node != null) {
                node = node.path("items");
            }
        }
        if (node == null || node.isMissingNode()) {
            return Strategy.ATOMIC;
        }
        String listType = node.path("x-kubernetes-list-type").asText("atomic");
        if (listType.equals("set")) {
            return Strategy.SET;
        }
        if (listType.equals("map")) {
            List<String> k = new java.util.ArrayList<>();
            node.path("x-kubernetes-list-map-keys").forEach(n -> k.add(n.asText()));
            return new Strategy(List.copyOf(k), false);
        }
        return Strategy.ATOMIC;
    }

    /** Whether two list items are the same entry: equal key fields (a missing protocol means TCP, its default). */
    static boolean sameItem(JsonNode a, JsonNode b, List<String> keys) {
        for (String k : keys) {
            String va = keyValue(a, k);
            String vb = keyValue(b, k);
            if (!va.equals(vb)) {
                return false;
            }
        }
        return true;
    }

    static String keyValue(JsonNode item, String key) {
        JsonNode v = item.path(key);
        if ((v.isMissingNode() || v.isNull()) && key.equals("protocol")) {
            return "TCP";
        }
        return v.isMissingNode() || v.isNull() ? "" : v.asText();
    }
}
