package me.loutres.juneau.view;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one way Juneau reads a Kubernetes object (webhook, {@code validate}, controller, agent), as the API server
 * stores it:
 * <ul>
 *   <li>JSON {@code null} is the same as an absent field, at every depth (an empty YAML value such as
 *       {@code annotations:} is null);</li>
 *   <li>a {@code null} entry of a list, an object without {@code metadata}, or a value of the wrong type is a
 *       {@link UnreadableObjectException} whose one-line message names the field and the value — never an exception
 *       text from deeper down.</li>
 * </ul>
 * Three calls: {@link #normalized} (a tree without null fields, for code that reads trees), {@link #read} (a tree as a
 * typed object, or the exception) and {@link #check} (the same checks for an object that is already typed, e.g. from
 * an informer cache, as a problem text instead of an exception).
 */
public final class KubeReader {
    private KubeReader() {
    }

    /**
     * A copy of the tree without null-valued fields, at every depth; null list entries are kept (they are problems,
     * reported by {@link #read}). Null (or a JSON null) gives null; the input is never changed.
     */
    public static JsonNode normalized(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (!hasNullField(node)) {
            return node; // the common case: nothing to drop, no copy
        }
        JsonNode copy = node.deepCopy();
        dropNullFields(copy);
        return copy;
    }

    /**
     * Reads a tree as {@code type} after {@link #normalized}; {@code kind} names the object in messages.
     *
     * @throws UnreadableObjectException naming the field and value that do not fit (all null list entries at once)
     */
    public static <T> T read(JsonNode node, Class<T> type, String kind) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            throw new UnreadableObjectException(kind + " is missing from the request");
        }
        if (!node.isObject()) {
            throw new UnreadableObjectException(kind + " must be a JSON object, got " + typeName(node));
        }
        JsonNode tree = withoutManagedFields(normalized(node));
        List<String> problems = new ArrayList<>();
        if (HasMetadata.class.isAssignableFrom(type) && !tree.has("metadata")) {
            problems.add("metadata: missing; every " + kind + " needs metadata with a name");
        } else if (tree.has("metadata") && !tree.get("metadata").isObject()) {
            problems.add("metadata: " + shortValue(tree.get("metadata")) + " has the wrong type for " + kind
                    + "; expected an object");
        }
        if (!problems.isEmpty()) {
            throw new UnreadableObjectException(String.join("; ", problems));
        }
        T value;
        try {
            value = KubeObjects.strictMapper().treeToValue(tree, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new UnreadableObjectException(describe(kind, tree, e));
        }
        // the types fit; a null list entry still would (as a null element), and no rule expects one
        nullEntries(tree, At.ROOT, problems);
        if (!problems.isEmpty()) {
            throw new UnreadableObjectException(listed(problems));
        }
        return value;
    }

    /**
     * The problems {@link #read} would report for an object that is already typed (e.g. delivered by an informer),
     * joined by {@code "; "}; empty when it reads cleanly.
     */
    public static Optional<String> check(HasMetadata object) {
        if (object == null) {
            return Optional.of("the object is missing");
        }
        String kind = object.getKind() == null ? object.getClass().getSimpleName() : object.getKind();
        try {
            read(KubeObjects.mapper().valueToTree(object), object.getClass(), kind);
            return Optional.empty();
        } catch (UnreadableObjectException e) {
            return Optional.of(e.getMessage());
        } catch (IllegalArgumentException e) {
            return Optional.of(kind + " cannot be written as JSON");
        }
    }

    /**
     * The tree without {@code metadata.managedFields}, the API server's record of which client set which field: the
     * server keeps it valid itself (it resets a broken one) and no Juneau code reads it, while binding it was about half
     * of the cost of reading a Service (BENCHMARKS.md, the Service review's own cost). A shallow copy; the input is not
     * changed.
     */
    private static JsonNode withoutManagedFields(JsonNode tree) {
        if (!(tree instanceof ObjectNode root) || !(root.get("metadata") instanceof ObjectNode metadata)
                || !metadata.has("managedFields")) {
            return tree;
        }
        ObjectNode lighterMetadata = metadata.objectNode();
        metadata.properties().forEach(e -> {
            if (!e.getKey().equals("managedFields")) {
                lighterMetadata.set(e.getKey(), e.getValue());
            }
        });
        ObjectNode copy = root.objectNode();
        root.properties().forEach(e -> copy.set(e.getKey(), e.getKey().equals("metadata") ? lighterMetadata : e.getValue()));
        return copy;
    }

    private static boolean hasNullField(JsonNode node) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                JsonNode v = it.next().getValue();
                if (v.isNull() || hasNullField(v)) {
                    return true;
                }
            }
        } else if (node.isArray()) {
            for (JsonNode v : node) {
                if (hasNullField(v)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void dropNullFields(JsonNode node) {
        if (node instanceof ObjectNode o) {
            JsonNode meta = o.get("metadata");
            if (meta instanceof ObjectNode m) {
                emptyStringForNullEntries(m.get("labels"));
                emptyStringForNullEntries(m.get("annotations"));
            }
            o.properties().removeIf(e -> e.getValue().isNull());
            o.forEach(KubeReader::dropNullFields);
        } else if (node instanceof ArrayNode a) {
            a.forEach(KubeReader::dropNullFields);
        }
    }

    /** The API server decodes a null entry of a string map (a label, an annotation) as the empty string. */
    private static void emptyStringForNullEntries(JsonNode map) {
        if (map instanceof ObjectNode m) {
            m.properties().forEach(e -> {
                if (e.getValue().isNull()) {
                    e.setValue(m.textNode(""));
                }
            });
        }
    }

    /** The most problems one message lists; the rest are counted (a list of 40,000 nulls is one mistake). */
    static final int MAX_LISTED = 10;

    private static String listed(List<String> problems) {
        if (problems.size() <= MAX_LISTED) {
            return String.join("; ", problems);
        }
        return String.join("; ", problems.subList(0, MAX_LISTED)) + "; and " + (problems.size() - MAX_LISTED)
                + " more problems like these";
    }

    /**
     * Where a node sits, rendered only when a problem is found there: reading a Service walks every field of its
     * managedFields, and building each field's path text on the way cost more than the rest of the review.
     */
    private record At(At parent, String name, int index) {
        static final At ROOT = new At(null, null, -1);

        String render() {
            if (parent == null) {
                return "";
            }
            String before = parent.render();
            return name == null ? before + "[" + index + "]" : field(before, name);
        }
    }

    private static void nullEntries(JsonNode node, At at, List<String> problems) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                if (e.getValue().isContainerNode()) {
                    nullEntries(e.getValue(), new At(at, e.getKey(), -1), problems);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                JsonNode entry = node.get(i);
                if (entry.isNull()) {
                    problems.add(new At(at, null, i).render() + ": null is not a valid list entry; remove it or give it a value");
                } else if (entry.isContainerNode()) {
                    nullEntries(entry, new At(at, null, i), problems);
                }
            }
        }
    }

    private static final java.util.regex.Pattern PLAIN_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_-]+");

    private static String field(String path, String name) {
        boolean plain = PLAIN_NAME.matcher(name).matches();
        String step = plain ? name : "[" + KubeObjects.quote(name) + "]";
        return path.isEmpty() || !plain ? path + step : path + "." + step;
    }

    private static String describe(String kind, JsonNode tree, Exception e) {
        if (e instanceof JsonMappingException jme && !jme.getPath().isEmpty()) {
            String path = "";
            JsonNode at = tree;
            for (JsonMappingException.Reference r : jme.getPath()) {
                if (r.getFieldName() != null) {
                    path = field(path, r.getFieldName());
                    at = at == null ? null : at.get(r.getFieldName());
                } else {
                    path = path + "[" + r.getIndex() + "]";
                    at = at == null ? null : at.get(r.getIndex());
                }
            }
            if (e instanceof UnrecognizedPropertyException) {
                return path + ": unknown field in " + kind + "; remove it or check its spelling";
            }
            String value = at == null ? "" : shortValue(at) + " ";
            if (e instanceof InvalidFormatException ife) {
                return path + ": " + value + "has the wrong type for " + kind + "; expected "
                        + KubeObjects.simpleType(ife.getTargetType());
            }
            if (e instanceof MismatchedInputException mie) {
                return path + ": " + value + "has the wrong type for " + kind + "; expected "
                        + KubeObjects.simpleType(mie.getTargetType());
            }
            return path + ": " + value + "cannot be read as part of " + kind;
        }
        return kind + " cannot be read; check its fields against the API reference";
    }

    /** A value for a message: strings quoted, containers by their type, long values cut. */
    static String shortValue(JsonNode node) {
        if (node.isTextual()) {
            String t = node.asText();
            return KubeObjects.quote(t.length() > 100 ? t.substring(0, 100) + "..." : t);
        }
        if (node.isObject()) {
            return "an object";
        }
        if (node.isArray()) {
            return "a list";
        }
        String t = node.toString();
        return t.length() > 100 ? t.substring(0, 100) + "..." : t;
    }

    private static String typeName(JsonNode node) {
        return node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    }
}
