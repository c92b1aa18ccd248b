package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A custom resource checked against its CRD's structural schema, as kube-apiserver does
 * ("Extend the Kubernetes API with CustomResourceDefinitions": pruning, validation): fields the schema does not
 * declare are pruned (reported so {@code fieldValidation=Strict} can refuse them), then types, enums and required
 * fields are validated with kube's field-error wording.
 */
final class CrdSchemas {
    /** Removes undeclared fields; returns their paths (e.g. {@code spec.adresses}). */
    List<String> prune(ResourceType type, ObjectNode object) {
        List<String> unknown = new ArrayList<>();
        JsonNode schema = type.schema();
        if (schema == null || schema.isMissingNode() || schema.path("x-kubernetes-preserve-unknown-fields")
                .asBoolean(false)) {
            return unknown;
        }
        for (String f : fieldNames(object)) {
            if (f.equals("apiVersion") || f.equals("kind") || f.equals("metadata")) {
                continue;
            }
            JsonNode prop = schema.path("properties").path(f);
            if (prop.isMissingNode()) {
                unknown.add(f);
                object.remove(f);
            } else {
                prune(prop, object.get(f), f, unknown);
            }
        }
        return unknown;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static void prune(JsonNode schema, JsonNode value, String path, List<String> unknown) {
        if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            return;
        }
        if (value instanceof ObjectNode o) {
            JsonNode props = schema.path("properties");
            JsonNode additional = schema.path("additionalProperties");
            for (String f : fieldNames(o)) {
                JsonNode prop = props.path(f);
                if (!prop.isMissingNode()) {
                    prune(prop, o.get(f), path + "." + f, unknown);
                } else if (additional.isObject()) {
                    prune(additional, o.get(f), path + "." + f, unknown);
                } else if (!additional.asBoolean(false) && (props.size() > 0 || schema.has("type"))) {
                    unknown.add(path + "." + f);
                    o.remove(f);
                }
            }
        } else if (value instanceof ArrayNode a && schema.has("items")) {
            for (int i = 0; i < a.size(); i++) {
                prune(schema.path("items"), a.get(i), path + "[" + i + "]", unknown);
            }
        }
    }

    List<ApiException.Cause> validate(ResourceType type, ObjectNode object) {
        List<ApiException.Cause> errors = new ArrayList<>();
        JsonNode schema = type.schema();
        if (schema == null || schema.isMissingNode()) {
            return errors;
        }
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (!e.getKey().equals("metadata") && !e.getKey().equals("apiVersion") && !e.getKey().equals("kind")) {
                check(schema.path("properties").path(e.getKey()), e.getValue(), e.getKey(), errors);
            }
        }
        required(schema, object, "", errors);
        return errors;
    }


    /**
     * Checks an object's fields or an array's items, and writes a whole number with a fraction in an integer field
     * as the integer ({@link #wholeForInteger}), as kube-apiserver stores it.
     */
    private static void children(JsonNode schema, JsonNode value, String path, List<ApiException.Cause> errors) {
        if (value.isObject()) {
            Map<String, JsonNode> whole = new java.util.LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : value.properties()) {
                JsonNode prop = schema.path("properties").path(e.getKey());
                JsonNode fieldSchema = prop.isMissingNode() ? schema.path("additionalProperties") : prop;
                check(fieldSchema, e.getValue(), path + "." + e.getKey(), errors);
                if (wholeForInteger(fieldSchema, e.getValue())) {
                    whole.put(e.getKey(), e.getValue());
                }
            }
            whole.forEach((k, v) -> ((ObjectNode) value).put(k, v.asLong()));
            required(schema, value, path, errors);
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                check(schema.path("items"), value.get(i), path + "[" + i + "]", errors);
                if (wholeForInteger(schema.path("items"), value.get(i))) {
                    ((ArrayNode) value).set(i, value.get(i).asLong());
                }
            }
        }
    }

    /**
     * A number written with a fraction or an exponent for a {@code type: integer} field that kube-apiserver takes
     * ({@code 1.0}: whole, within ±2^53) and stores as the integer ({@code 1}); {@code 1.5} stays refused.
     */
    private static boolean wholeForInteger(JsonNode schema, JsonNode value) {
        return value != null && value.isNumber() && !value.isIntegralNumber()
                && schema.path("type").asText("").equals("integer")
                && me.loutres.juneau.view.KubeObjects.isWholeJsonInteger(value.asDouble());
    }

    private static void required(JsonNode schema, JsonNode value, String path, List<ApiException.Cause> errors) {
        for (JsonNode r : schema.path("required")) {
            if (!value.has(r.asText()) || value.get(r.asText()).isNull()) {
                errors.add(new ApiException.Cause(path.isEmpty() ? r.asText() : path + "." + r.asText(),
                        "FieldValueRequired", "Required value"));
            }
        }
    }

    private static void check(JsonNode schema, JsonNode value, String path, List<ApiException.Cause> errors) {
        if (schema.isMissingNode() || value == null) {
            return;
        }
        if (value.isNull()) {
            if (!schema.path("nullable").asBoolean(false)) {
                errors.add(new ApiException.Cause(path, "FieldValueTypeInvalid", "Invalid value: \"null\": " + path
                        + " in body must be of type " + schema.path("type").asText("object") + ": \"null\""));
            }
            return;
        }
        String type = schema.path("type").asText("");
        String actual = value.isTextual() ? "string" : value.isIntegralNumber() ? "integer" : value.isNumber()
                ? "number" : value.isBoolean() ? "boolean" : value.isArray() ? "array" : "object";
        boolean ok = type.isEmpty() || type.equals(actual) || (type.equals("number") && actual.equals("integer"))
                || wholeForInteger(schema, value)
                || (schema.path("x-kubernetes-int-or-string").asBoolean(false)
                        && (actual.equals("string") || actual.equals("integer")));
        if (!ok) {
            errors.add(new ApiException.Cause(path, "FieldValueTypeInvalid", "Invalid value: \"" + actual + "\": "
                    + path + " in body must be of type " + type + ": \"" + actual + "\""));
            return;
        }
        if (schema.has("enum")) {
            boolean found = false;
            List<String> allowed = new ArrayList<>();
            for (JsonNode v : schema.path("enum")) {
                found |= v.equals(value);
                allowed.add(v.isTextual() ? "\"" + v.asText() + "\"" : v.toString());
            }
            if (!found) {
                errors.add(new ApiException.Cause(path, "FieldValueNotSupported", "Unsupported value: "
                        + (value.isTextual() ? "\"" + value.asText() + "\"" : value.toString())
                        + ": supported values: " + String.join(", ", allowed)));
            }
        }
        children(schema, value, path, errors);
        if (value.isArray()) {
            if (schema.has("minItems") && value.size() < schema.path("minItems").asInt()) {
                errors.add(new ApiException.Cause(path, "FieldValueInvalid", "Invalid value: " + value.size()
                        + ": " + path + " in body should have at least " + schema.path("minItems").asInt()
                        + " items"));
            }
        }
    }
}
