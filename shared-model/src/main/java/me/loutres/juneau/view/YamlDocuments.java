package me.loutres.juneau.view;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads multi-document YAML (or JSON) files into JSON trees, remembering the line where every object starts so a
 * problem found later can still be reported as {@code file:line}.
 */
public final class YamlDocuments {
    private static final YAMLFactory FACTORY = YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // an empty plain value (`annotations:`) is null in YAML, as kubectl sends it; '' stays a string
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .build();

    /** One YAML document of a file. */
    public record Document(Path file, int index, int line, JsonNode content, Map<JsonNode, Integer> lines,
                           Map<JsonNode, Map<String, Integer>> fieldLines) {
        /** The line where a node of this document starts (the document's line when unknown). */
        public int lineOf(JsonNode node) {
            Integer l = lines.get(node);
            return l == null ? line : l;
        }

        /** The line of a field of an object node (the object's line when unknown). */
        public int lineOf(JsonNode parent, String field) {
            Map<String, Integer> fields = fieldLines.get(parent);
            Integer l = fields == null ? null : fields.get(field);
            return l == null ? lineOf(parent) : l;
        }

        /** "file, document N" for messages. */
        public String where() {
            return file + ", document " + index;
        }
    }

    private YamlDocuments() {
    }

    /**
     * The non-empty documents of one file, in order; {@code index} counts every document of the stream from 1 so it
     * matches what a reader counts between {@code ---} separators.
     */
    public static List<Document> read(Path file) throws ManifestException {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (NoSuchFileException e) {
            throw new ManifestException(file, 0, "no such file");
        } catch (CharacterCodingException e) {
            throw new ManifestException(file, 0, "not UTF-8 text");
        } catch (IOException e) {
            throw new ManifestException(file, 0, "cannot be read: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        }
        return parse(file, text);
    }

    /** Parses YAML text as if it were the file's content. */
    public static List<Document> parse(Path file, String text) throws ManifestException {
        List<Document> documents = new ArrayList<>();
        try (Reader reader = new java.io.StringReader(text); JsonParser parser = FACTORY.createParser(reader)) {
            int index = 0;
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                index++;
                int line = parser.currentTokenLocation().getLineNr();
                Map<JsonNode, Integer> lines = new IdentityHashMap<>();
                Map<JsonNode, Map<String, Integer>> fieldLines = new IdentityHashMap<>();
                JsonNode node = build(parser, token, lines, fieldLines);
                if (node == null || node.isNull() || (node.isTextual() && node.asText().isEmpty())) {
                    continue; // an empty document between separators
                }
                if (!node.isObject()) {
                    throw new ManifestException(file, line, "document " + index + " is a " + describe(node)
                            + ", expected a Kubernetes object (a map with apiVersion, kind and metadata)");
                }
                documents.add(new Document(file, index, line, node, lines, fieldLines));
            }
        } catch (ManifestException e) {
            throw e;
        } catch (JsonProcessingException e) {
            throw new ManifestException(file, line(e), "not valid YAML: " + reason(e));
        } catch (IOException | RuntimeException e) {
            throw new ManifestException(file, 0, "not valid YAML: " + KubeObjects.firstLine(e.getMessage()));
        }
        return documents;
    }

    private static JsonNode build(JsonParser p, JsonToken token, Map<JsonNode, Integer> lines,
            Map<JsonNode, Map<String, Integer>> fieldLines) throws IOException {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (token) {
            case START_OBJECT: {
                ObjectNode node = f.objectNode();
                lines.put(node, p.currentTokenLocation().getLineNr());
                JsonToken t;
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    fieldLines.computeIfAbsent(node, k -> new java.util.HashMap<>()).put(name, p.currentTokenLocation().getLineNr());
                    JsonNode value = build(p, p.nextToken(), lines, fieldLines);
                    node.set(name, value);
                }
                if (t != JsonToken.END_OBJECT) {
                    throw new JsonParseException(p, "unexpected " + t);
                }
                return node;
            }
            case START_ARRAY: {
                ArrayNode node = f.arrayNode();
                lines.put(node, p.currentTokenLocation().getLineNr());
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == null) {
                        throw new JsonParseException(p, "unexpected end of input inside a list");
                    }
                    node.add(build(p, t, lines, fieldLines));
                }
                return node;
            }
            case VALUE_STRING:
                return f.textNode(p.getText());
            case VALUE_NUMBER_INT:
                return switch (p.getNumberType()) {
                    case INT -> f.numberNode(p.getIntValue());
                    case LONG -> f.numberNode(p.getLongValue());
                    default -> f.numberNode(p.getBigIntegerValue());
                };
            case VALUE_NUMBER_FLOAT:
                return f.numberNode(p.getDecimalValue());
            case VALUE_TRUE:
                return f.booleanNode(true);
            case VALUE_FALSE:
                return f.booleanNode(false);
            case VALUE_NULL:
                return f.nullNode();
            default:
                throw new JsonParseException(p, "unexpected " + token);
        }
    }

    private static final java.util.regex.Pattern MARK = java.util.regex.Pattern.compile("line (\\d+), column \\d+");

    /** SnakeYAML messages span several lines (context, source snippet, caret); keep the sentences only. */
    private static String reason(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            return "unknown reason";
        }
        List<String> sentences = new ArrayList<>();
        for (String part : m.split("\\R")) {
            if (!part.isBlank() && !Character.isWhitespace(part.charAt(0))) {
                sentences.add(part.trim());
            }
        }
        return plain(sentences.isEmpty() ? m.trim().replaceAll("\\s+", " ") : String.join(": ", sentences));
    }

    private static final java.util.regex.Pattern EVENT =
            java.util.regex.Pattern.compile("<org\\.yaml\\.snakeyaml\\.events\\.(\\w+)Event\\([^>]*\\)>");

    /** Jackson names SnakeYAML's parser events ({@code <org.yaml.snakeyaml.events.SequenceStartEvent(...)>}); say what they are. */
    private static String plain(String reason) {
        return EVENT.matcher(reason).replaceAll(r -> switch (r.group(1)) {
            case "SequenceStart" -> "the start of a list";
            case "SequenceEnd" -> "the end of a list";
            case "MappingStart" -> "the start of a map";
            case "MappingEnd" -> "the end of a map";
            case "Scalar" -> "a value";
            case "Alias" -> "an alias";
            case "DocumentStart", "DocumentEnd" -> "a document marker";
            default -> "the end of the input";
        });
    }

    /** The line of the problem mark (the last one SnakeYAML names), else Jackson's location. */
    private static int line(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        int line = -1;
        if (m != null) {
            java.util.regex.Matcher matcher = MARK.matcher(m);
            while (matcher.find()) {
                line = Integer.parseInt(matcher.group(1));
            }
        }
        if (line < 0) {
            line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        }
        return Math.max(line, 0);
    }

    private static String describe(JsonNode node) {
        if (node.isArray()) {
            return "list";
        }
        if (node.isTextual()) {
            return "string " + KubeObjects.quote(node.asText());
        }
        return node.getNodeType().toString().toLowerCase();
    }

    /**
     * The YAML files under a path: the file itself, or every {@code .yaml}/{@code .yml}/{@code .json} file of a
     * directory tree, sorted by path so runs are reproducible.
     */
    public static List<Path> files(Path path) throws ManifestException {
        if (!Files.exists(path)) {
            throw new ManifestException(path, 0, "no such file or directory");
        }
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> {
                        String n = p.getFileName().toString();
                        return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
                    })
                    .sorted()
                    .toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new ManifestException(path, 0, "cannot list the directory: " + KubeObjects.firstLine(e.getMessage()));
        }
    }
}
