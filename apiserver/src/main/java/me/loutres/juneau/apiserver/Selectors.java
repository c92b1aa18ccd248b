package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Label and field selectors as kube-apiserver parses them (k8s.io/apimachinery/pkg/labels and pkg/fields):
 * {@code a=b}, {@code a==b}, {@code a!=b}, {@code a in (x,y)}, {@code a notin (x)}, {@code a}, {@code !a} for
 * labels; {@code =}, {@code ==}, {@code !=} on the fields each kind supports for fields.
 */
final class Selectors {
    private Selectors() {
    }

    /** One requirement of a label selector. */
    record Requirement(String key, String op, Set<String> values) {
        boolean matches(Map<String, String> labels) {
            String v = labels.get(key);
            return switch (op) {
                case "=", "in" -> v != null && values.contains(v);
                case "!=", "notin" -> v == null || !values.contains(v);
                case "exists" -> v != null;
                case "!" -> v == null;
                default -> false;
            };
        }
    }

    /** A parsed label selector; the equality requirements can be answered from the label index. */
    record LabelSelector(List<Requirement> requirements) {
        boolean matches(Map<String, String> labels) {
            for (Requirement r : requirements) {
                if (!r.matches(labels)) {
                    return false;
                }
            }
            return true;
        }

        boolean isEmpty() {
            return requirements.isEmpty();
        }
    }

    static LabelSelector labels(String text) throws ApiException {
        List<Requirement> list = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return new LabelSelector(list);
        }
        for (String part : splitTopLevel(text)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw ApiException.badRequest("unable to parse requirement: found '', expected: identifier");
            }
            var m = java.util.regex.Pattern.compile("^([^\\s!=()]+)\\s+(in|notin)\\s*\\((.*)\\)$").matcher(p);
            if (m.matches()) {
                Set<String> values = new LinkedHashSet<>();
                for (String v : m.group(3).split(",")) {
                    values.add(checkValue(v.trim()));
                }
                list.add(new Requirement(checkKey(m.group(1)), m.group(2), values));
            } else if (p.startsWith("!")) {
                list.add(new Requirement(checkKey(p.substring(1).trim()), "!", Set.of()));
            } else if (p.contains("!=")) {
                int i = p.indexOf("!=");
                list.add(new Requirement(checkKey(p.substring(0, i).trim()), "!=",
                        Set.of(checkValue(p.substring(i + 2).trim()))));
            } else if (p.contains("=")) {
                int i = p.indexOf('=');
                int j = p.startsWith("==", i) ? i + 2 : i + 1;
                list.add(new Requirement(checkKey(p.substring(0, i).trim()), "=",
                        Set.of(checkValue(p.substring(j).trim()))));
            } else if (p.matches(".*\\s.*")) {
                throw ApiException.badRequest("unable to parse requirement: " + p);
            } else {
                list.add(new Requirement(checkKey(p), "exists", Set.of()));
            }
        }
        return new LabelSelector(list);
    }

    private static final java.util.regex.Pattern KEY = java.util.regex.Pattern.compile(
            "^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$");
    private static final java.util.regex.Pattern VALUE = java.util.regex.Pattern.compile(
            "^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$");

    private static String checkKey(String key) throws ApiException {
        if (!KEY.matcher(key).matches()) {
            throw ApiException.badRequest("unable to parse requirement: invalid label key \"" + key
                    + "\": name part must consist of alphanumeric characters, '-', '_' or '.'");
        }
        return key;
    }

    private static String checkValue(String value) throws ApiException {
        if (value.length() > 63 || !VALUE.matcher(value).matches()) {
            throw ApiException.badRequest("unable to parse requirement: invalid label value: \"" + value
                    + "\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or"
                    + " '.', and must start and end with an alphanumeric character");
        }
        return value;
    }

    /** Splits on commas that are not inside parentheses. */
    private static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        StringBuilder cur = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
            if (c == ',' && depth == 0) {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        return parts;
    }

    /** The field labels each resource supports beyond metadata.name and metadata.namespace (kube's strategies). */
    private static Set<String> supportedFields(ResourceType type) {
        return switch (type.groupResource()) {
            case "events" -> Set.of("involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
                    "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
                    "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type");
            case "pods" -> Set.of("spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
                    "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP",
                    "status.nominatedNodeName");
            case "nodes" -> Set.of("spec.unschedulable");
            case "namespaces" -> Set.of("status.phase");
            case "secrets" -> Set.of("type");
            default -> Set.of();
        };
    }

    /** One requirement of a field selector: the field's value compared with = or !=. */
    record FieldRequirement(String field, boolean equal, String value) {
    }

    static List<FieldRequirement> fields(ResourceType type, String text) throws ApiException {
        List<FieldRequirement> list = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return list;
        }
        Set<String> supported = supportedFields(type);
        for (String part : text.split(",")) {
            String p = part.trim();
            boolean equal;
            int i;
            int skip;
            if ((i = p.indexOf("!=")) >= 0) {
                equal = false;
                skip = 2;
            } else if ((i = p.indexOf("==")) >= 0) {
                equal = true;
                skip = 2;
            } else if ((i = p.indexOf('=')) >= 0) {
                equal = true;
                skip = 1;
            } else {
                throw ApiException.badRequest("invalid field selector: '" + p + "': no operator");
            }
            String field = p.substring(0, i).trim();
            if (!field.equals("metadata.name") && !field.equals("metadata.namespace") && !supported.contains(field)) {
                throw ApiException.badRequest("field label not supported: " + field);
            }
            list.add(new FieldRequirement(field, equal, p.substring(i + skip).trim()));
        }
        return list;
    }

    static Predicate<JsonNode> fieldPredicate(List<FieldRequirement> reqs) {
        return o -> {
            for (FieldRequirement r : reqs) {
                String actual = fieldValue(o, r.field());
                if (r.equal() != r.value().equals(actual)) {
                    return false;
                }
            }
            return true;
        };
    }

    static String fieldValue(JsonNode object, String field) {
        if (field.equals("source")) {
            return object.path("source").path("component").asText("");
        }
        JsonNode n = object;
        for (String part : field.split("\\.")) {
            n = n.path(part);
        }
        if (n.isMissingNode() || n.isNull()) {
            return field.equals("spec.unschedulable") || field.equals("spec.hostNetwork") ? "false" : "";
        }
        return n.asText();
    }
}
