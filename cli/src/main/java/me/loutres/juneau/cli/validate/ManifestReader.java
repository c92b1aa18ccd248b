package me.loutres.juneau.cli.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.KubeReader;
import me.loutres.juneau.view.ManifestException;
import me.loutres.juneau.view.YamlDocuments;

/**
 * Reads manifest files, directories (recursively), standard input ({@code -}, shown as {@code STDIN} the way kubectl
 * names it) and rendered kustomizations into objects in order; Lists are expanded. An input that cannot be read is
 * kept as a failure (file, line, reason) and the others are still read, so every report names it beside the verdicts.
 */
final class ManifestReader {
    static final Path STDIN_ARGUMENT = Path.of("-");
    static final Path STDIN = Path.of("STDIN");
    private static final String KUSTOMIZE_GROUP = "kustomize.config.k8s.io";

    /**
     * What was read.
     *
     * @param objects  every object, in order
     * @param failures the inputs (or objects) that could not be read, each {@code file:line: reason}
     * @param notes    what was skipped and why, one line each
     * @param rendered for each kustomization's rendered output (named {@code DIR (kubectl kustomize)}), its directory
     * @param files    how many files (and streams) were read
     */
    record Inputs(List<ManifestObject> objects, List<ManifestException> failures, List<String> notes,
                  Map<Path, Path> rendered, int files) {
    }

    private final List<String> ignores;
    private final Kustomize kustomize;
    private final InputStream stdin;
    private final List<ManifestObject> objects = new ArrayList<>();
    private final List<ManifestException> failures = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<Path, Path> rendered = new LinkedHashMap<>();
    private int files;
    private boolean stdinRead;

    ManifestReader(List<String> ignores, Kustomize kustomize, InputStream stdin) {
        this.ignores = ignores;
        this.kustomize = kustomize;
        this.stdin = stdin;
    }

    /** Every object of the paths, then of the kustomizations, with the failures and notes. */
    Inputs read(List<Path> paths, List<Path> kustomizations) {
        for (Path path : paths) {
            int before = objects.size();
            int failed = failures.size();
            if (path.equals(STDIN_ARGUMENT)) {
                readStdin();
            } else {
                try {
                    for (Path file : ManifestFiles.list(path, ignores, notes::add)) {
                        readFile(file.normalize());
                    }
                } catch (ManifestException e) {
                    failures.add(e);
                }
            }
            if (objects.size() == before && failures.size() == failed) {
                // an empty file or directory is far more often a wrong path than intended
                failures.add(new ManifestException(path.equals(STDIN_ARGUMENT) ? STDIN : path, 0, "no Kubernetes objects found ("
                        + (path.equals(STDIN_ARGUMENT) ? "standard input held none"
                        : Files.isDirectory(path) ? "none in the *.yaml, *.yml and *.json files of the directory"
                        : "the file holds none") + "); check the path"));
            }
        }
        for (Path dir : kustomizations) {
            Path source = Path.of(dir + " (kubectl kustomize)");
            try {
                String text = kustomize.render(dir);
                rendered.put(source, dir);
                files++;
                int before = objects.size();
                readDocuments(parse(source, text));
                if (objects.size() == before) {
                    failures.add(new ManifestException(dir, 0, "the kustomization renders no Kubernetes objects"));
                }
            } catch (ManifestException e) {
                failures.add(e);
            }
        }
        return new Inputs(objects, failures, notes, rendered, files);
    }

    private void readStdin() {
        if (stdinRead) {
            failures.add(new ManifestException(STDIN, 0, "- is given more than once; standard input can be read once"));
            return;
        }
        stdinRead = true;
        files++;
        try {
            readDocuments(parse(STDIN, utf8(stdin.readAllBytes())));
        } catch (CharacterCodingException e) {
            failures.add(new ManifestException(STDIN, 0, "not UTF-8 text"));
        } catch (ManifestException e) {
            failures.add(e);
        } catch (IOException e) {
            failures.add(new ManifestException(STDIN, 0, "cannot be read: " + e.getMessage()));
        }
    }

    private void readFile(Path file) {
        files++;
        try {
            String text; // read here, not by YamlDocuments.read, so the size check comes before the parser
            try {
                text = utf8(Files.readAllBytes(file));
            } catch (NoSuchFileException e) {
                throw new ManifestException(file, 0, "no such file");
            } catch (CharacterCodingException e) {
                throw new ManifestException(file, 0, "not UTF-8 text");
            } catch (IOException e) {
                throw new ManifestException(file, 0, "cannot be read: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : " " + e.getMessage()));
            }
            readDocuments(parse(file, text));
        } catch (ManifestException e) {
            failures.add(e);
        }
    }

    private static String utf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    }

    /** The documents of the text, a document over the API server's limit refused before the YAML parser scans it. */
    private static List<YamlDocuments.Document> parse(Path source, String text) throws ManifestException {
        DocumentSizeLimit.check(source, text, DocumentSizeLimit.LIMIT);
        return YamlDocuments.parse(source, text);
    }

    private void readDocuments(List<YamlDocuments.Document> docs) {
        for (YamlDocuments.Document doc : docs) {
            JsonNode content = doc.content();
            String skip = notAnObject(content);
            if (skip != null) {
                notes.add(doc.file() + ":" + doc.line() + ": document " + doc.index() + " skipped: " + skip);
                continue;
            }
            try {
                if (ClusterStateFiles.isList(content)) {
                    JsonNode items = content.get("items");
                    if (items != null && !items.isNull() && !items.isArray()) {
                        throw new ManifestException(doc.file(), doc.lineOf(content, "items"), "items of a "
                                + content.get("kind").asText() + " must be a list");
                    }
                    if (items != null) {
                        for (JsonNode item : items) {
                            add(doc, item);
                        }
                    }
                } else {
                    add(doc, content);
                }
            } catch (ManifestException e) {
                failures.add(e);
            }
        }
    }

    /**
     * Why a document is not a Kubernetes object to validate, or null: no kind and no metadata (a Helm values file,
     * a Chart.yaml, any other YAML kept beside the manifests), or kustomize's own configuration.
     */
    static String notAnObject(JsonNode content) {
        if (!content.has("kind") && !content.has("metadata")) {
            return "not a Kubernetes object (no kind, no metadata)";
        }
        String apiVersion = content.path("apiVersion").asText("");
        if (apiVersion.startsWith(KUSTOMIZE_GROUP + "/")) {
            return "kustomize configuration (" + content.path("kind").asText("no kind")
                    + "), not a cluster object; validate the kustomization with -k";
        }
        return null;
    }

    private void add(YamlDocuments.Document doc, JsonNode node) throws ManifestException {
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
        objects.add(new ManifestObject(doc.file(), doc.index(), line, objects.size(), KubeReader.normalized(node)));
    }
}
