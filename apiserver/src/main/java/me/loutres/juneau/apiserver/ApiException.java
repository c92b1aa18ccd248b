package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A request kube-apiserver would refuse, carrying the {@code metav1.Status} it would answer with. The factory
 * methods write the reasons and messages of k8s.io/apimachinery/pkg/api/errors (NewNotFound, NewAlreadyExists,
 * NewConflict, NewInvalid, NewBadRequest, NewMethodNotSupported, NewGone, ...), so kubectl prints the same lines
 * it prints against a cluster.
 */
final class ApiException extends Exception {
    private final int code;
    private final String reason;
    private final transient ObjectNode details;

    ApiException(int code, String reason, String message, ObjectNode details) {
        super(message, null, false, false);
        this.code = code;
        this.reason = reason;
        this.details = details;
    }

    int code() {
        return code;
    }

    String reason() {
        return reason;
    }

    /** The Status body. */
    ObjectNode status() {
        ObjectNode s = JsonNodeFactory.instance.objectNode();
        s.put("kind", "Status");
        s.put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", "Failure");
        s.put("message", getMessage());
        s.put("reason", reason);
        if (details != null) {
            s.set("details", details);
        } else {
            s.putObject("details");
        }
        s.put("code", code);
        return s;
    }

    private static ObjectNode details(String name, String group, String kind) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        if (name != null && !name.isEmpty()) {
            d.put("name", name);
        }
        if (group != null && !group.isEmpty()) {
            d.put("group", group);
        }
        if (kind != null && !kind.isEmpty()) {
            d.put("kind", kind);
        }
        return d;
    }

    /** {@code services "web" not found}; details.kind is the resource, as NewNotFound writes it. */
    static ApiException notFound(ResourceType type, String name) {
        return new ApiException(404, "NotFound", type.groupResource() + " \"" + name + "\" not found",
                details(name, type.group(), type.plural()));
    }

    static ApiException namespaceNotFound(String namespace) {
        return new ApiException(404, "NotFound", "namespaces \"" + namespace + "\" not found",
                details(namespace, "", "namespaces"));
    }

    static ApiException alreadyExists(ResourceType type, String name) {
        return new ApiException(409, "AlreadyExists", type.groupResource() + " \"" + name + "\" already exists",
                details(name, type.group(), type.plural()));
    }

    static ApiException conflict(ResourceType type, String name, String why) {
        return new ApiException(409, "Conflict", "Operation cannot be fulfilled on " + type.groupResource() + " \""
                + name + "\": " + why, details(name, type.group(), type.plural()));
    }

    static ApiException modified(ResourceType type, String name) {
        return conflict(type, name,
                "the object has been modified; please apply your changes to the latest version and try again");
    }

    /** One field error of a NewInvalid: {@code spec.x: Invalid value: "y": why}. */
    record Cause(String field, String type, String message) {
    }

    /** {@code Service "web" is invalid: spec.ports[0].port: Required value}; details.kind is the kind. */
    static ApiException invalid(ResourceType type, String name, java.util.List<Cause> causes) {
        StringBuilder msg = new StringBuilder(type.qualifiedKind()).append(" \"").append(name == null ? "" : name)
                .append("\" is invalid: ");
        ObjectNode d = details(name, type.group(), type.kind());
        var array = d.putArray("causes");
        if (causes.size() == 1) {
            msg.append(causes.get(0).field()).append(": ").append(causes.get(0).message());
        } else {
            msg.append('[');
            for (int i = 0; i < causes.size(); i++) {
                msg.append(i == 0 ? "" : ", ").append(causes.get(i).field()).append(": ")
                        .append(causes.get(i).message());
            }
            msg.append(']');
        }
        for (Cause c : causes) {
            array.addObject().put("reason", c.type()).put("message", c.message()).put("field", c.field());
        }
        return new ApiException(422, "Invalid", msg.toString(), d);
    }

    static ApiException invalid(ResourceType type, String name, String field, String causeType, String message) {
        return invalid(type, name, java.util.List.of(new Cause(field, causeType, message)));
    }

    static ApiException badRequest(String message) {
        return new ApiException(400, "BadRequest", message, null);
    }

    /** 422 with the generic message, as kube-apiserver answers a JSON patch that cannot be applied. */
    static ApiException unprocessable(String serverMessage) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        d.putArray("causes").addObject().put("reason", "UnexpectedServerResponse").put("message", serverMessage);
        return new ApiException(422, "Invalid",
                "the server rejected our request due to an error in our request", d);
    }

    static ApiException unsupportedMediaType(String accepted) {
        return new ApiException(415, "UnsupportedMediaType",
                "the body of the request was in an unknown format - accepted media types include: " + accepted, null);
    }

    static ApiException notAcceptable(String accepted) {
        return new ApiException(406, "NotAcceptable", "only the following media types are accepted: " + accepted,
                null);
    }

    static ApiException methodNotAllowed() {
        return new ApiException(405, "MethodNotAllowed",
                "the server does not allow this method on the requested resource", null);
    }

    /** The answer to a path the server does not serve (kube's NotFound without details). */
    static ApiException pathNotFound() {
        return new ApiException(404, "NotFound", "the server could not find the requested resource", null);
    }

    static ApiException gone(String message) {
        return new ApiException(410, "Expired", message, null);
    }

    static ApiException forbidden(String message) {
        return new ApiException(403, "Forbidden", message, null);
    }

    /** kube-apiserver's refusal of a request RBAC does not allow (NewForbidden with the authorizer's words). */
    static ApiException forbidden(me.loutres.juneau.rbac.RequestAttributes request, String username) {
        return new ApiException(403, "Forbidden", request.forbiddenMessage(username),
                details(request.name(), request.apiGroup(), request.resource()));
    }

    /** A request without a valid bearer token, with anonymous authentication off: kube-apiserver's 401. */
    static ApiException unauthorized() {
        return new ApiException(401, "Unauthorized", "Unauthorized", null);
    }

    static ApiException internal(String message) {
        return new ApiException(500, "InternalError", "Internal error occurred: " + message, null);
    }

    static ApiException tooLarge(String message) {
        return new ApiException(413, "RequestEntityTooLarge", message, null);
    }
}
