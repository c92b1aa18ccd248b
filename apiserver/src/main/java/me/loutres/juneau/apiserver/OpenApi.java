package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A minimal {@code /openapi/v3} ("OpenAPI V3" in "The Kubernetes API"): the root lists one document per
 * group/version; each document has the paths of its resources, whose PATCH operations carry
 * {@code x-kubernetes-group-version-kind} and the {@code fieldValidation} parameter (kubectl checks that to use
 * server-side field validation instead of needing the whole schema), and, for custom resources, the CRD's schema
 * as a component with its group/version/kind, which is what {@code kubectl explain} reads.
 */
final class OpenApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String META_REF = "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    private final Registry registry;

    OpenApi(Registry registry) {
        this.registry = registry;
    }

    private static String docPath(String gv) {
        return gv.contains("/") ? "apis/" + gv : "api/" + gv;
    }

    ObjectNode root() {
        ObjectNode root = F.objectNode();
        ObjectNode paths = root.putObject("paths");
        for (Map.Entry<String, List<ResourceType>> e : registry.groupVersions().entrySet()) {
            String path = docPath(e.getKey());
            paths.putObject(path).put("serverRelativeURL", "/openapi/v3/" + path + "?hash="
                    + Integer.toHexString(document(e.getKey()).map(JsonNode::hashCode).orElse(0)).toUpperCase());
        }
        return root;
    }

    /** The document of {@code api/v1} or {@code apis/<group>/<version>}. */
    Optional<ObjectNode> documentAt(String path) {
        String gv = path.startsWith("api/") ? path.substring(4) : path.startsWith("apis/") ? path.substring(5) : null;
        return gv == null ? Optional.empty() : document(gv);
    }

    Optional<ObjectNode> document(String gv) {
        List<ResourceType> types = registry.groupVersions().get(gv);
        if (types == null) {
            return Optional.empty();
        }
        ObjectNode doc = F.objectNode();
        doc.put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes").put("version", "v1.33.0");
        ObjectNode paths = doc.putObject("paths");
        ObjectNode schemas = doc.putObject("components").putObject("schemas");
        schemas.set("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", objectMeta());
        for (ResourceType t : types) {
            if (!t.verbs().contains("patch")) {
                continue;
            }
            String schemaName = t.custom() ? schemaName(t) : null;
            ObjectNode gvk = F.objectNode().put("group", t.group()).put("version", t.version()).put("kind", t.kind());
            String base = "/" + docPath(gv) + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.plural();
            ObjectNode collection = paths.putObject(base);
            collection.set("get", operation("list" + t.kind(), gvk, schemaName, false));
            collection.set("post", operation("create" + t.kind(), gvk, schemaName, true));
            ObjectNode item = paths.putObject(base + "/{name}");
            item.set("get", operation("read" + t.kind(), gvk, schemaName, false));
            item.set("put", operation("replace" + t.kind(), gvk, schemaName, true));
            item.set("patch", operation("patch" + t.kind(), gvk, schemaName, true));
            item.set("delete", operation("delete" + t.kind(), gvk, schemaName, false));
            if (t.statusSubresource()) {
                ObjectNode status = paths.putObject(base + "/{name}/status");
                status.set("get", operation("read" + t.kind() + "Status", gvk, schemaName, false));
                status.set("put", operation("replace" + t.kind() + "Status", gvk, schemaName, true));
                status.set("patch", operation("patch" + t.kind() + "Status", gvk, schemaName, true));
            }
            if (t.custom()) {
                // built-in kinds get no schema: kubectl then computes strategic merge patches from its own types
                schemas.set(schemaName, schema(t, gvk));
            }
        }
        return Optional.of(doc);
    }

    private static String schemaName(ResourceType t) {
        if (t.custom()) {
            String[] parts = t.group().split("\\.");
            StringBuilder b = new StringBuilder();
            for (int i = parts.length - 1; i >= 0; i--) {
                b.append(parts[i]).append('.');
            }
            return b + t.version() + "." + t.kind();
        }
        String g = t.group().isEmpty() ? "core" : t.group().split("\\.")[0];
        return "io.k8s.api." + g + "." + t.version() + "." + t.kind();
    }

    private static ObjectNode operation(String id, ObjectNode gvk, String schemaName, boolean write) {
        ObjectNode op = F.objectNode();
        op.put("operationId", id);
        op.set("x-kubernetes-group-version-kind", gvk);
        ArrayNode params = op.putArray("parameters");
        if (write) {
            for (String p : List.of("dryRun", "fieldManager", "fieldValidation")) {
                params.addObject().put("name", p).put("in", "query").put("description", p)
                        .putObject("schema").put("type", "string").put("uniqueItems", true);
            }
        }
        ObjectNode schema = op.putObject("responses").putObject("200").put("description", "OK")
                .putObject("content").putObject("application/json").putObject("schema");
        if (schemaName != null) {
            schema.put("$ref", "#/components/schemas/" + schemaName);
        } else {
            schema.put("type", "object");
        }
        return op;
    }

    private static ObjectNode schema(ResourceType t, ObjectNode gvk) {
        ObjectNode s = t.schema() != null && t.schema().isObject() ? ((ObjectNode) t.schema()).deepCopy()
                : F.objectNode().put("type", "object");
        ObjectNode props = Json.obj(s, "properties");
        props.putObject("apiVersion").put("type", "string").put("description", "APIVersion defines the versioned "
                + "schema of this representation of an object.");
        props.putObject("kind").put("type", "string").put("description", "Kind is a string value representing the "
                + "REST resource this object represents.");
        ObjectNode meta = F.objectNode();
        meta.putArray("allOf").addObject().put("$ref", META_REF);
        meta.put("description", "Standard object's metadata.");
        props.set("metadata", meta);
        s.putArray("x-kubernetes-group-version-kind").add(gvk);
        return s;
    }

    private static ObjectNode objectMeta() {
        ObjectNode s = F.objectNode();
        s.put("type", "object");
        s.put("description", "ObjectMeta is metadata that all persisted resources must have.");
        ObjectNode p = s.putObject("properties");
        for (String f : List.of("name", "namespace", "generateName", "uid", "resourceVersion",
                "creationTimestamp", "deletionTimestamp")) {
            p.putObject(f).put("type", "string").put("description", f);
        }
        p.putObject("generation").put("type", "integer").put("format", "int64").put("description", "generation");
        for (String f : List.of("labels", "annotations")) {
            p.putObject(f).put("type", "object").put("description", f).putObject("additionalProperties")
                    .put("type", "string");
        }
        p.putObject("finalizers").put("type", "array").put("description", "finalizers").putObject("items")
                .put("type", "string");
        p.putObject("ownerReferences").put("type", "array").put("description", "ownerReferences")
                .putObject("items").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        p.putObject("managedFields").put("type", "array").put("description", "managedFields")
                .putObject("items").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        return s;
    }
}
