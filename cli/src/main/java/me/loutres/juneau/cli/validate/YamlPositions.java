package me.loutres.juneau.cli.validate;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Where in a YAML file a field of an object sits, for SARIF regions that point at the offending field rather than
 * the start of its document: the field path a denial names ({@code spec.bgp.peers[1].address},
 * {@code metadata.annotations["juneau.loutres.me/external-network"]}) is followed through the file's YAML nodes, and
 * the marks SnakeYAML keeps on them give the line and column (1-based, as SARIF counts). The object is found by the
 * line where it starts, so every document of a multi-document file (and every item of a List) has its own answer.
 */
final class YamlPositions {
    /** A 1-based line and column. */
    record Position(int line, int column) {
    }

    /**
     * The first field path of a message: metadata/spec/status/data, then at least one .name, [index] or [key] part
     * (so "specified" or a lone "spec" is no path).
     */
    private static final Pattern PATH = Pattern.compile(
            "\\b(?:metadata|spec|status|data|stringData)(?:\\.[A-Za-z0-9_-]+|\\[[^\\]\\s]+\\])+");
    private static final Pattern PART = Pattern.compile("\\.?([A-Za-z0-9_-]+)|\\[\"?([^\\]\"]+)\"?\\]");

    private YamlPositions() {
    }

    /** The parts of the first field path the message names ({@code spec}, {@code bgp}, {@code peers}, {@code 1}). */
    static List<String> fieldPath(String message) {
        if (message == null) {
            return List.of();
        }
        Matcher m = PATH.matcher(message);
        if (!m.find()) {
            return List.of();
        }
        List<String> parts = new ArrayList<>();
        Matcher p = PART.matcher(m.group());
        while (p.find()) {
            parts.add(p.group(1) != null ? p.group(1) : p.group(2));
        }
        return parts;
    }

    /**
     * The position of the deepest part of {@code path} present in the object that starts at {@code objectLine} of
     * the file (the key of a map entry, the item of a list); empty when the file cannot be read or no object starts
     * there.
     */
    static Optional<Position> locate(Path file, int objectLine, List<String> path) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return locate(reader, objectLine, path);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static Optional<Position> locate(Reader reader, int objectLine, List<String> path) {
        for (Node document : new Yaml(new LoaderOptions()).composeAll(reader)) {
            Optional<Node> object = objectAt(document, objectLine);
            if (object.isPresent()) {
                return Optional.of(follow(object.get(), path));
            }
        }
        return Optional.empty();
    }

    /** The map that starts at the line (a document, or an item of a List's items). */
    private static Optional<Node> objectAt(Node node, int line) {
        if (node instanceof MappingNode map) {
            if (map.getStartMark().getLine() + 1 == line) {
                return Optional.of(map);
            }
            for (NodeTuple t : map.getValue()) {
                if (key(t).equals("items") && t.getValueNode() instanceof SequenceNode items) {
                    for (Node item : items.getValue()) {
                        Optional<Node> found = objectAt(item, line);
                        if (found.isPresent()) {
                            return found;
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static Position follow(Node object, List<String> path) {
        Mark at = object.getStartMark();
        Node current = object;
        for (String part : path) {
            Node next = null;
            if (current instanceof MappingNode map) {
                for (NodeTuple t : map.getValue()) {
                    if (key(t).equals(part)) {
                        at = t.getKeyNode().getStartMark();
                        next = t.getValueNode();
                        break;
                    }
                }
            } else if (current instanceof SequenceNode list && part.matches("\\d{1,9}")) {
                int i = Integer.parseInt(part);
                if (i < list.getValue().size()) {
                    next = list.getValue().get(i);
                    at = next.getStartMark();
                }
            }
            if (next == null) {
                break;
            }
            current = next;
        }
        return new Position(at.getLine() + 1, at.getColumn() + 1);
    }

    private static String key(NodeTuple t) {
        return t.getKeyNode() instanceof ScalarNode s ? s.getValue() : "";
    }
}
