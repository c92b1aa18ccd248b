package me.loutres.juneau.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a cluster state for offline checks: multi-document YAML, or a {@code kind: List} exactly as
 * {@code kubectl get -o yaml} prints it (objects with their status). A directory is read recursively.
 */
public final class ClusterStateFiles {
    private ClusterStateFiles() {
    }

    /** The snapshot view of the objects in the file (or directory). */
    public static SnapshotClusterView load(Path path) throws ManifestException {
        return new SnapshotClusterView(read(path));
    }

    /** Every object of the file (or directory), lists expanded, in file order. */
    public static List<HasMetadata> read(Path path) throws ManifestException {
        List<HasMetadata> objects = new ArrayList<>();
        for (Path file : YamlDocuments.files(path)) {
            for (YamlDocuments.Document doc : YamlDocuments.read(file)) {
                objects.addAll(objectsOf(doc));
            }
        }
        return objects;
    }

    /** The objects of one document: the items of a List, or the document itself. */
    public static List<HasMetadata> objectsOf(YamlDocuments.Document doc) throws ManifestException {
        JsonNode content = doc.content();
        List<HasMetadata> out = new ArrayList<>();
        if (isList(content)) {
            JsonNode items = content.get("items");
            if (items == null || items.isNull()) {
                return out;
            }
            if (!items.isArray()) {
                throw new ManifestException(doc.file(), doc.lineOf(content, "items"), "items of a " + content.get("kind").asText()
                        + " must be a list");
            }
            for (JsonNode item : items) {
                out.add(object(doc, item));
            }
            return out;
        }
        out.add(object(doc, content));
        return out;
    }

    /** True for {@code kind: List} and the typed lists the API returns ({@code AddressPoolList}, ...). */
    public static boolean isList(JsonNode content) {
        String kind = content.path("kind").asText("");
        return kind.endsWith("List") && (content.has("items") || "List".equals(kind));
    }

    /** One object, checked for the fields every Kubernetes object needs and read as its type. */
    public static HasMetadata object(YamlDocuments.Document doc, JsonNode node) throws ManifestException {
        int line = doc.lineOf(node);
        if (!node.isObject()) {
            throw new ManifestException(doc.file(), line, "expected a Kubernetes object (a map), got "
                    + node.getNodeType().toString().toLowerCase());
        }
        List<String> missing = new ArrayList<>();
        if (!node.path("apiVersion").isTextual() || node.path("apiVersion").asText().isBlank()) {
            missing.add("apiVersion");
        }
        if (!node.path("kind").isTextual() || node.path("kind").asText().isBlank()) {
            missing.add("kind");
        }
        if (!node.path("metadata").path("name").isTextual() || node.path("metadata").path("name").asText().isBlank()) {
            missing.add("metadata.name");
        }
        if (!missing.isEmpty()) {
            throw new ManifestException(doc.file(), line, "object is missing " + String.join(", ", missing)
                    + "; every object needs apiVersion, kind and metadata.name");
        }
        try {
            return KubeObjects.toObject(node);
        } catch (UnreadableObjectException e) {
            throw new ManifestException(doc.file(), line, node.get("kind").asText() + " "
                    + node.path("metadata").path("name").asText() + ": " + e.getMessage());
        }
    }
}
