package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.KubeReader;

/**
 * One admission request in the form the rules read: the operation, who asks, and the objects as JSON trees as the
 * API server stores them (null fields dropped, {@link KubeReader#normalized}).
 *
 * @param operation   CREATE, UPDATE, DELETE or CONNECT
 * @param username    {@code userInfo.username}, "" when absent
 * @param subResource e.g. "status", "" for the main resource
 * @param namespace   the request's namespace ("" for cluster-scoped)
 * @param name        the request's name (may be "" on CREATE with generateName)
 * @param object      the new object (null on DELETE)
 * @param oldObject   the existing object (UPDATE, DELETE), null otherwise
 * @param nodeName    {@code userInfo.extra["authentication.kubernetes.io/node-name"]} (bound service-account tokens
 *                    of a pod say which node it runs on), "" when absent
 */
record Review(String operation, String username, String subResource, String namespace, String name,
              JsonNode object, JsonNode oldObject, String nodeName) {
    /** The extra a bound service-account token carries: the node of the pod it was issued to. */
    static final String NODE_NAME_EXTRA = "authentication.kubernetes.io/node-name";

    static final String CREATE = "CREATE";
    static final String UPDATE = "UPDATE";
    static final String DELETE = "DELETE";

    static Review of(AdmissionRequest request) {
        String user = request.getUserInfo() == null || request.getUserInfo().getUsername() == null ? ""
                : request.getUserInfo().getUsername();
        return new Review(nonNull(request.getOperation()), user, nonNull(request.getSubResource()),
                nonNull(request.getNamespace()), nonNull(request.getName()),
                KubeReader.normalized(KubeObjects.tree(request.getObject())),
                KubeReader.normalized(KubeObjects.tree(request.getOldObject())), nodeNameOf(request));
    }

    /**
     * The node the requester's token was issued on. A bound token carries exactly one; more than one is refused, not
     * narrowed to the first: which node would the agent speak for?
     */
    private static String nodeNameOf(AdmissionRequest request) {
        if (request.getUserInfo() == null || request.getUserInfo().getExtra() == null) {
            return "";
        }
        java.util.List<String> values = request.getUserInfo().getExtra().get(NODE_NAME_EXTRA);
        if (values != null && values.size() > 1) {
            throw new me.loutres.juneau.view.UnreadableObjectException("userInfo.extra[\"" + NODE_NAME_EXTRA + "\"]: "
                    + values.size() + " values " + values.stream().map(KubeObjects::quote).toList()
                    + "; accepted: exactly one node name (a bound service-account token carries the node it was"
                    + " issued on)");
        }
        return values == null || values.isEmpty() || values.get(0) == null ? "" : values.get(0);
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    boolean isCreate() {
        return CREATE.equals(operation);
    }

    boolean isUpdate() {
        return UPDATE.equals(operation);
    }

    boolean isDelete() {
        return DELETE.equals(operation);
    }

    /** The new object read as its kind (the caller handles CREATE/UPDATE, where it is present). */
    <T> T objectAs(Class<T> type, String kind) {
        return KubeObjects.read(object, type, kind);
    }

    /** The existing object read as its kind on UPDATE, null otherwise. */
    <T> T oldObjectAs(Class<T> type, String kind) {
        return isUpdate() && oldObject != null ? KubeObjects.read(oldObject, type, kind) : null;
    }

    /** The object the request is about: the new one, or the existing one on DELETE. */
    JsonNode reviewed() {
        return object != null ? object : oldObject;
    }

    /** Cross-object checks are skipped for an object being deleted, so its finalizers can always be removed. */
    boolean beingDeleted() {
        return KubeObjects.beingDeleted(reviewed());
    }

    /** The reviewed object's name, falling back to the request's. */
    String objectName() {
        String n = reviewed() == null ? "" : reviewed().path("metadata").path("name").asText("");
        return n.isEmpty() ? name : n;
    }

    /** The reviewed object's namespace, falling back to the request's. */
    String objectNamespace() {
        String n = reviewed() == null ? "" : reviewed().path("metadata").path("namespace").asText("");
        return n.isEmpty() ? namespace : n;
    }
}
