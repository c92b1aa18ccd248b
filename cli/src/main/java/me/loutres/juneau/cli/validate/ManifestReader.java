package me.loutres.juneau.cli.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.ManifestException;
import me.loutres.juneau.view.KubeReader;
import me.loutres.juneau.view.YamlDocuments;

/**
 * Reads manifest files and directories (recursively) into objects in file order; Lists are expanded. The path
 * {@code -} is standard input, shown as {@code STDIN} the way kubectl names it.
 */
final class ManifestReader {
    static final Path STDIN_ARGUMENT = Path.of("-");
    static final Path STDIN = Path.of("STDIN");

    private ManifestReader() {
    }

    /**
     * Every object of the paths, in order.
     *
     * @throws ManifestException for the first unreadable file or object, as {@code file:line: reason}, and for a path
     *         that holds no object at all (an empty file or directory is far more often a wrong path than intended)
     */
    static List<ManifestObject> read(List<Path> paths) throws ManifestException {
        return read(paths, System.in);
    }

    /** As {@link #read(List)}, with {@code -} read from {@code stdin}. */
    static List<ManifestObject> read(List<Path> paths, InputStream stdin) throws ManifestException {
        List<ManifestObject> objects = new ArrayList<>();
        boolean stdinRead = false;
        for (Path path : paths) {
            int before = objects.size();
            List<YamlDocuments.Document> docs = new ArrayList<>();
            if (path.equals(STDIN_ARGUMENT)) {
                if (stdinRead) {
                    throw new ManifestException(STDIN, 0, "-f - is given more than once; standard input can be read once");
                }
                stdinRead = true;
                docs.addAll(YamlDocuments.parse(STDIN, readStdin(stdin)));
            } else {
                for (Path file : YamlDocuments.files(path)) {
                    docs.addAll(YamlDocuments.read(file.normalize()));
                }
            }
            for (YamlDocuments.Document doc : docs) {
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
            if (objects.size() == before) {
                throw new ManifestException(path.equals(STDIN_ARGUMENT) ? STDIN : path, 0, "no Kubernetes objects found ("
                        + (path.equals(STDIN_ARGUMENT) ? "standard input held none"
                        : Files.isDirectory(path) ? "none in the *.yaml, *.yml and *.json files of the directory"
                        : "the file holds none") + "); check the path");
            }
        }
        return objects;
    }

    private static String readStdin(InputStream stdin) throws ManifestException {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(stdin.readAllBytes())).toString();
        } catch (CharacterCodingException e) {
            throw new ManifestException(STDIN, 0, "not UTF-8 text");
        } catch (IOException e) {
            throw new ManifestException(STDIN, 0, "cannot be read: " + e.getMessage());
        }
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
        // as the API server stores it: an empty YAML value (annotations:, ports:) is the same as no field
        return new ManifestObject(doc.file(), doc.index(), line, order, KubeReader.normalized(node));
    }
}
