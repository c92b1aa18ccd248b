package me.loutres.juneau.cli.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.ManifestException;
import me.loutres.juneau.view.YamlDocuments;

/** Reads manifest files and directories (recursively) into objects in file order; Lists are expanded. */
final class ManifestReader {
    private ManifestReader() {
    }

    /**
     * @throws ManifestException for the first unreadable file or object, as {@code file:line: reason}
     */
    static List<ManifestObject> read(List<Path> paths) throws ManifestException {
        List<ManifestObject> objects = new ArrayList<>();
        for (Path path : paths) {
            for (Path file : YamlDocuments.files(path)) {
                for (YamlDocuments.Document doc : YamlDocuments.read(file.normalize())) {
                    JsonNode content = doc.content();
                    if (ClusterStateFiles.isList(content)) {
                        JsonNode items = content.get("items");
                        if (items != null && !items.isNull() && !items.isArray()) {
                            throw new ManifestException(doc.file(), doc.lineOf(content, "items"), "items of a "
                                    + content.get("kind").asText() + " must be a list");
                        }
                        if (items != null) {
                            for (JsonNode item : items) {
                                objects.add(object(doc, item, objects.size()));
                            }
                        }
                    } else {
                        objects.add(object(doc, content, objects.size()));
                    }
                }
            }
        }
        return objects;
    }

    private static ManifestObject object(YamlDocuments.Document doc, JsonNode node, int order) throws ManifestException {
        int line = doc.lineOf(node);
        if (!node.isObject()) {
            throw new ManifestException(doc.file(), line, "expected a Kubernetes object (a map), got "
                    + node.getNodeType().toString().toLowerCase());
        }
        List<String> missing = new ArrayList<>();
        for (String field : List.of("apiVersion", "kind")) {
            if (!node.path(field).isTextual() || node.path(field).asText().isBlank()) {
                missing.add(field);
            }
        }
        if (!node.path("metadata").path("name").isTextual() || node.path("metadata").path("name").asText().isBlank()) {
            missing.add("metadata.name");
        }
        if (!missing.isEmpty()) {
            throw new ManifestException(doc.file(), line, "object is missing " + String.join(", ", missing)
                    + "; every object needs apiVersion, kind and metadata.name");
        }
        return new ManifestObject(doc.file(), doc.index(), line, order, node);
    }
}
