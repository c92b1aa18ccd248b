package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The write path of kube-apiserver's generic registry for every kind: decode and check the body, apply the
 * kind's strategy (defaults, status subresource, immutable metadata, generation, validation), call admission,
 * then commit against the resourceVersion that was read — retried when another write came first and the
 * request named no resourceVersion (GuaranteedUpdate), a Conflict otherwise. Deletion honours finalizers
 * (deletionTimestamp, then removal by the update that removes the last one) and propagation policies.
 */
final class Operations {
    /** The patch content types kube-apiserver accepts. */
    static final String JSON_PATCH = "application/json-patch+json";
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String STRATEGIC_PATCH = "application/strategic-merge-patch+json";
    static final String APPLY_PATCH = "application/apply-patch+yaml";
    private static final int RETRIES = 20;

    private final Registry registry;
    private final Store store;
    private final Supplier<Admission> admission;
    private final Strategies strategies = new Strategies();
    private final CrdSchemas schemas = new CrdSchemas();

    Operations(Registry registry, Store store, Supplier<Admission> admission) {
        this.registry = registry;
        this.store = store;
        this.admission = admission;
    }

    Store store() {
        return store;
    }

    ResourceType namespaces() {
        return registry.find("v1", "namespaces").orElseThrow();
    }

    /** A second and its text as a timestamp. */
    private record StampedSecond(long second, String text) {
    }

    /** The second a timestamp was last written for, and its text (formatting an Instant costs more than the write). */
    private static volatile StampedSecond lastSecond = new StampedSecond(Long.MIN_VALUE, "");

    private static String now() {
        long second = Instant.now().getEpochSecond();
        StampedSecond last = lastSecond;
        if (last.second() != second) {
            last = new StampedSecond(second, Instant.ofEpochSecond(second).toString());
            lastSecond = last;
        }
        return last.text();
    }

    // ---------------------------------------------------------------- create

    ObjectNode create(Caller caller, ResourceType type, String namespace, JsonNode body) throws ApiException {
        ObjectNode object = checkBody(type, body);
        ObjectNode meta = Json.meta(object);
        if (type.namespaced()) {
            String bodyNs = meta.path("namespace").asText("");
            if (!bodyNs.isEmpty() && namespace != null && !bodyNs.equals(namespace)) {
                throw ApiException.badRequest("the namespace of the provided object does not match the namespace "
                        + "sent on the request");
            }
            meta.put("namespace", namespace != null ? namespace : bodyNs);
            String ns = meta.path("namespace").asText();
            ObjectNode nsObject = store.get(namespaces(), null, ns);
            if (nsObject == null) {
                throw ApiException.namespaceNotFound(ns);
            }
            if (nsObject.path("metadata").hasNonNull("deletionTimestamp")) {
                throw ApiException.forbidden(type.groupResource() + " \"" + meta.path("name").asText() + "\" is "
                        + "forbidden: unable to create new content in namespace " + ns
                        + " because it is being terminated");
            }
        } else {
            meta.remove("namespace");
        }
        if (meta.path("name").asText("").isEmpty() && !meta.path("generateName").asText("").isEmpty()) {
            meta.put("name", meta.path("generateName").asText() + Uids.next()
                    .replace("-", "").substring(0, 5));
        }
        meta.remove("resourceVersion");
        meta.remove("deletionTimestamp");
        meta.remove("deletionGracePeriodSeconds");
        meta.remove("managedFields");
        meta.put("uid", Uids.next());
        meta.put("creationTimestamp", now());
        if (type.countsGeneration()) {
            meta.put("generation", 1);
        } else {
            meta.remove("generation");
        }
        if (type.statusSubresource() && !type.plural().equals("nodes") && !type.plural().equals("namespaces")) {
            object.remove("status"); // status is ignored on create when the kind has a status subresource
        }
        strategies.defaults(type, object, null);
        validate(caller, type, object, null);
        ObjectNode admitted = admit("CREATE", type, null, object, null, caller);
        if (caller.dryRun()) {
            return admitted;
        }
        return store.create(type, admitted);
    }

    private ObjectNode checkBody(ResourceType type, JsonNode body) throws ApiException {
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("the body of the request is not a " + type.kind() + " object");
        }
        ObjectNode object = ((ObjectNode) body).deepCopy();
        String apiVersion = object.path("apiVersion").asText("");
        String kind = object.path("kind").asText("");
        if (!apiVersion.isEmpty() && !apiVersion.equals(type.groupVersion())) {
            throw ApiException.badRequest("the API version in the data (" + apiVersion + ") does not match the "
                    + "expected API version (" + type.groupVersion() + ")");
        }
        if (!kind.isEmpty() && !kind.equals(type.kind())) {
            throw ApiException.badRequest(kind + " in version \"" + type.version() + "\" cannot be handled as a "
                    + type.kind() + ": the kind in the data does not match the expected kind " + type.kind());
        }
        object.put("apiVersion", type.groupVersion());
        object.put("kind", type.kind());
        if (!object.path("metadata").isObject()) {
            object.putObject("metadata");
        }
        return object;
    }

    private void validate(Caller caller, ResourceType type, ObjectNode object, ObjectNode old) throws ApiException {
        List<ApiException.Cause> errors = new ArrayList<>(strategies.validate(type, object, old));
        if (type.custom()) {
            List<String> unknown = schemas.prune(type, object);
            if (!unknown.isEmpty()) {
                String mode = caller.fieldValidation() == null ? "Warn" : caller.fieldValidation();
                if (mode.equalsIgnoreCase("Strict")) {
                    throw ApiException.badRequest(type.kind() + " in version \"" + type.version()
                            + "\" cannot be handled as a " + type.kind() + ": strict decoding error: "
                            + String.join(", ", unknown.stream().map(u -> "unknown field \"" + u + "\"").toList()));
                }
                if (mode.equalsIgnoreCase("Warn")) {
                    unknown.forEach(u -> caller.warnings().add("unknown field \"" + u + "\""));
                }
            }
            errors.addAll(schemas.validate(type, object));
        }
        if (!errors.isEmpty()) {
            throw ApiException.invalid(type, object.path("metadata").path("name").asText(""), errors);
        }
    }

    private ObjectNode admit(String operation, ResourceType type, String sub, ObjectNode object, ObjectNode old,
            Caller caller) throws ApiException {
        ObjectNode ref = object != null ? object : old;
        String ns = ref.path("metadata").path("namespace").asText(null);
        String name = ref.path("metadata").path("name").asText(null);
        ObjectNode result = admission.get().admit(operation, type, sub, ns, name, object, old, caller);
        return result == null ? object : result;
    }

    // ---------------------------------------------------------------- update and patch

    /** Computes the requested object from the live one (null when it does not exist). */
    @FunctionalInterface
    interface Change {
        ObjectNode apply(ObjectNode live) throws ApiException;
    }

    ObjectNode replace(Caller caller, ResourceType type, String namespace, String name, String sub, JsonNode body)
            throws ApiException {
        ObjectNode requested = checkBody(type, body);
        String bodyName = requested.path("metadata").path("name").asText("");
        if (!bodyName.isEmpty() && !bodyName.equals(name)) {
            throw ApiException.badRequest("the name of the object (" + bodyName + ") does not match the name on the "
                    + "URL (" + name + ")");
        }
        String bodyNs = requested.path("metadata").path("namespace").asText("");
        if (type.namespaced() && !bodyNs.isEmpty() && !bodyNs.equals(namespace)) {
            throw ApiException.badRequest("the namespace of the provided object does not match the namespace sent "
                    + "on the request");
        }
        return modify(caller, type, namespace, name, sub, live -> requested.deepCopy(), false, false);
    }

    ObjectNode patch(Caller caller, ResourceType type, String namespace, String name, String sub,
            String contentType, byte[] body) throws ApiException {
        String media = contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(java.util.Locale.ROOT);
        String accepted = type.custom() ? JSON_PATCH + ", " + MERGE_PATCH + ", " + APPLY_PATCH
                : JSON_PATCH + ", " + MERGE_PATCH + ", " + APPLY_PATCH + ", " + STRATEGIC_PATCH;
        if (media.equals(APPLY_PATCH)) {
            return apply(caller, type, namespace, name, sub, body);
        }
        JsonNode patch = parse(body);
        Change change = switch (media) {
            case JSON_PATCH -> live -> {
                if (!patch.isArray()) {
                    throw ApiException.badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
                }
                try {
                    JsonNode out = JsonPatch.apply(patch, live,
                            java.util.EnumSet.of(io.fabric8.zjsonpatch.CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT));
                    if (!out.isObject()) {
                        throw ApiException.unprocessable("the patch replaced the object with a " + out.getNodeType());
                    }
                    return (ObjectNode) out;
                } catch (JsonPatchException | IllegalArgumentException e) {
                    throw ApiException.unprocessable(e.getMessage());
                }
            };
            case MERGE_PATCH -> live -> {
                if (!patch.isObject()) {
                    throw ApiException.badRequest("a merge patch must be a JSON object");
                }
                return (ObjectNode) JsonMergePatch.apply(live, patch);
            };
            case STRATEGIC_PATCH -> {
                if (type.custom()) {
                    throw ApiException.unsupportedMediaType(accepted);
                }
                StrategicMergePatch smp = new StrategicMergePatch(type);
                yield live -> (ObjectNode) smp.apply(live, patch);
            }
            default -> throw ApiException.unsupportedMediaType(accepted);
        };
        return modify(caller, type, namespace, name, sub, change, false, false);
    }

    private ObjectNode apply(Caller caller, ResourceType type, String namespace, String name, String sub,
            byte[] body) throws ApiException {
        if (caller.fieldManager() == null || caller.fieldManager().isEmpty()) {
            throw ApiException.invalid(new ResourceType("meta.k8s.io", "v1", "patchoptions", "patchoptions",
                    "PatchOptions", false, false, List.of(), List.of(), false, null, List.of()), "",
                    "fieldManager", "FieldValueRequired", "Required value: is required for apply patch");
        }
        JsonNode config;
        try {
            config = Json.YAML.readTree(body);
        } catch (java.io.IOException e) {
            throw ApiException.badRequest("error decoding YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (config == null || !config.isObject()) {
            throw ApiException.badRequest("the applied configuration must be an object");
        }
        ObjectNode cfg = (ObjectNode) config;
        String cfgName = cfg.path("metadata").path("name").asText("");
        if (!cfgName.isEmpty() && !cfgName.equals(name)) {
            throw ApiException.badRequest("the name of the object (" + cfgName + ") does not match the name on the "
                    + "URL (" + name + ")");
        }
        if (cfg.path("apiVersion").asText("").isEmpty() || cfg.path("kind").asText("").isEmpty()) {
            throw ApiException.badRequest("invalid object type: an applied configuration needs apiVersion and kind");
        }
        checkBody(type, cfg);
        ServerSideApply ssa = new ServerSideApply(type);
        return modify(caller, type, namespace, name, sub, live -> {
            ObjectNode applied = ssa.apply(live, cfg, caller.fieldManager(), caller.force(), Instant.now());
            Json.meta(applied).put("name", name);
            if (type.namespaced()) {
                Json.meta(applied).put("namespace", namespace);
            }
            if (live != null && !cfg.path("metadata").has("resourceVersion")) {
                Json.meta(applied).put("resourceVersion", Json.rv(live));
            }
            return applied;
        }, true, true);
    }

    private static JsonNode parse(byte[] body) throws ApiException {
        try {
            JsonNode n = Json.MAPPER.readTree(body);
            if (n == null) {
                throw ApiException.badRequest("the request has no body");
            }
            return n;
        } catch (java.io.IOException e) {
            throw ApiException.badRequest("error decoding patch: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /** The GuaranteedUpdate loop: read, compute, admit, commit at the version read. */
    ObjectNode modify(Caller caller, ResourceType type, String namespace, String name, String sub, Change change,
            boolean createIfMissing, boolean keepManagedFields) throws ApiException {
        checkSubresource(type, sub);
        for (int attempt = 0; ; attempt++) {
            ObjectNode live = store.get(type, type.namespaced() ? namespace : null, name);
            if (live == null) {
                if (!createIfMissing || sub != null) {
                    throw ApiException.notFound(type, name);
                }
                ObjectNode created = change.apply(null);
                Json.meta(created).remove("resourceVersion");
                JsonNode managed = created.path("metadata").path("managedFields").deepCopy();
                try {
                    ObjectNode result = createKeeping(caller, type, namespace, created, managed);
                    return result;
                } catch (ApiException e) {
                    if (e.reason().equals("AlreadyExists") && attempt < RETRIES) {
                        continue;
                    }
                    throw e;
                }
            }
            ObjectNode requested = change.apply(live.deepCopy());
            String precondition = requested.path("metadata").path("resourceVersion").asText("");
            if (!precondition.isEmpty() && !precondition.equals(Json.rv(live))) {
                throw ApiException.modified(type, name);
            }
            ObjectNode next = prepareUpdate(type, sub, live, requested, keepManagedFields);
            validate(caller, type, next, live);
            ObjectNode admitted = admit("UPDATE", type, sub, next, live, caller);
            if (unchanged(admitted, live)) {
                return live;
            }
            if (caller.dryRun()) {
                return admitted;
            }
            try {
                return store.update(type, admitted, Json.rv(live));
            } catch (ApiException e) {
                if (e.reason().equals("Conflict") && attempt < RETRIES && !namesVersion(change, live, precondition)) {
                    continue;
                }
                if (e.reason().equals("NotFound") && attempt < RETRIES) {
                    continue;
                }
                throw e;
            }
        }
    }

    /**
     * Whether the request itself named the resourceVersion it was based on (then a concurrent write is its
     * Conflict). A patch that does not mention it inherits the live object's version, which is no precondition:
     * kube-apiserver retries such a patch against the newer object. Only asked after a conflict.
     */
    private static boolean namesVersion(Change change, ObjectNode live, String precondition) {
        if (precondition.isEmpty()) {
            return false;
        }
        ObjectNode unversioned = live.deepCopy();
        Json.meta(unversioned).remove("resourceVersion");
        try {
            return !change.apply(unversioned).path("metadata").path("resourceVersion").asText("").isEmpty();
        } catch (ApiException | RuntimeException e) {
            return true;   // e.g. a JSON patch that tests the version: it needs the version it names
        }
    }

    private ObjectNode createKeeping(Caller caller, ResourceType type, String namespace, ObjectNode object,
            JsonNode managedFields) throws ApiException {
        if (!managedFields.isArray()) {
            return create(caller, type, namespace, object);
        }
        // create() drops client-sent managedFields; an apply that creates keeps the ones it computed
        ObjectNode withoutManaged = object.deepCopy();
        Json.meta(withoutManaged).remove("managedFields");
        Caller dry = caller;
        ObjectNode checked = create(dry.withDryRun(true), type, namespace, withoutManaged);
        Json.meta(checked).set("managedFields", managedFields);
        if (caller.dryRun()) {
            return checked;
        }
        return store.create(type, checked);
    }

    private static void checkSubresource(ResourceType type, String sub) throws ApiException {
        if (sub != null && !(sub.equals("status") && type.statusSubresource())) {
            throw ApiException.pathNotFound();
        }
    }

    private ObjectNode prepareUpdate(ResourceType type, String sub, ObjectNode live, ObjectNode requested,
            boolean keepManagedFields) throws ApiException {
        ObjectNode next;
        if ("status".equals(sub)) {
            next = live.deepCopy();
            if (requested.has("status")) {
                next.set("status", requested.get("status"));
            } else {
                next.remove("status");
            }
        } else {
            next = requested;
            if (type.statusSubresource()) {
                if (live.has("status")) {
                    next.set("status", live.get("status"));
                } else {
                    next.remove("status");
                }
            }
        }
        next.put("apiVersion", type.groupVersion());
        next.put("kind", type.kind());
        ObjectNode meta = Json.meta(next);
        JsonNode liveMeta = live.path("metadata");
        for (String f : List.of("uid", "creationTimestamp", "name", "namespace", "deletionTimestamp",
                "deletionGracePeriodSeconds", "generation")) {
            if (liveMeta.has(f)) {
                meta.set(f, liveMeta.get(f));
            } else {
                meta.remove(f);
            }
        }
        if (!keepManagedFields) {
            if (liveMeta.has("managedFields")) {
                meta.set("managedFields", liveMeta.get("managedFields"));
            } else {
                meta.remove("managedFields");
            }
        }
        if (meta.has("finalizers") && (meta.get("finalizers").isNull() || meta.get("finalizers").isEmpty())) {
            meta.remove("finalizers");
        }
        if (liveMeta.hasNonNull("deletionTimestamp")) {
            Set<String> before = new LinkedHashSet<>();
            liveMeta.path("finalizers").forEach(f -> before.add(f.asText()));
            List<String> added = new ArrayList<>();
            meta.path("finalizers").forEach(f -> {
                if (!before.contains(f.asText())) {
                    added.add("\"" + f.asText() + "\"");
                }
            });
            if (!added.isEmpty()) {
                throw ApiException.invalid(type, meta.path("name").asText(), "metadata.finalizers",
                        "FieldValueForbidden", "Forbidden: no new finalizers can be added if the object is being "
                                + "deleted, found new finalizers []string{" + String.join(", ", added) + "}");
            }
        }
        strategies.defaults(type, next, live);
        if (type.countsGeneration() && specChanged(live, next)) {
            meta.put("generation", liveMeta.path("generation").asLong(1) + 1);
        }
        return next;
    }

    /** Whether anything but metadata and status differs (compared in place: no copies of either object). */
    static boolean specChanged(ObjectNode live, ObjectNode next) {
        return !equalExcept(live, next, Set.of("metadata", "status"));
    }

    /**
     * kube-apiserver skips a write that changes nothing (same bytes): no new resourceVersion, no event. The
     * resourceVersion and the managedFields' times do not count; compared in place, no copies.
     */
    static boolean unchanged(ObjectNode next, ObjectNode live) {
        if (!equalExcept(next, live, Set.of("metadata"))) {
            return false;
        }
        JsonNode a = next.get("metadata");
        JsonNode b = live.get("metadata");
        if (!(a instanceof ObjectNode am) || !(b instanceof ObjectNode bm)) {
            return java.util.Objects.equals(a, b);
        }
        if (!equalExcept(am, bm, Set.of("resourceVersion", "managedFields"))) {
            return false;
        }
        JsonNode fa = am.get("managedFields");
        JsonNode fb = bm.get("managedFields");
        if (fa == null || fb == null || !fa.isArray() || !fb.isArray() || fa.size() != fb.size()) {
            return java.util.Objects.equals(fa, fb);
        }
        for (int i = 0; i < fa.size(); i++) {
            JsonNode ea = fa.get(i);
            JsonNode eb = fb.get(i);
            if (ea instanceof ObjectNode oa && eb instanceof ObjectNode ob ? !equalExcept(oa, ob, Set.of("time"))
                    : !ea.equals(eb)) {
                return false;
            }
        }
        return true;
    }

    /** Equal objects when the named fields are left out of both (a field either lacks counts as different). */
    private static boolean equalExcept(ObjectNode a, ObjectNode b, Set<String> ignored) {
        int sizeA = 0;
        for (var it = a.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!ignored.contains(f)) {
                sizeA++;
                JsonNode other = b.get(f);
                if (other == null || !other.equals(a.get(f))) {
                    return false;
                }
            }
        }
        int sizeB = 0;
        for (var it = b.fieldNames(); it.hasNext(); ) {
            if (!ignored.contains(it.next())) {
                sizeB++;
            }
        }
        return sizeA == sizeB;
    }

    // ---------------------------------------------------------------- delete

    /** DeleteOptions from the body and query (query wins, as kube-apiserver reads both into one struct). */
    record DeleteOptions(String propagationPolicy, String preconditionUid, String preconditionRv) {
    }

    ObjectNode delete(Caller caller, ResourceType type, String namespace, String name, DeleteOptions options)
            throws ApiException {
        for (int attempt = 0; ; attempt++) {
            ObjectNode live = store.get(type, type.namespaced() ? namespace : null, name);
            if (live == null) {
                throw ApiException.notFound(type, name);
            }
            if (options.preconditionUid() != null
                    && !options.preconditionUid().equals(live.path("metadata").path("uid").asText())) {
                throw ApiException.conflict(type, name, "Precondition failed: UID in precondition: "
                        + options.preconditionUid() + ", UID in object meta: " + live.path("metadata").path("uid")
                        .asText());
            }
            if (options.preconditionRv() != null && !options.preconditionRv().equals(Json.rv(live))) {
                throw ApiException.conflict(type, name, "the ResourceVersion in the precondition ("
                        + options.preconditionRv() + ") does not match the ResourceVersion in record ("
                        + Json.rv(live) + "). The object might have been modified");
            }
            String policy = options.propagationPolicy() == null ? "Background" : options.propagationPolicy();
            if (!List.of("Background", "Foreground", "Orphan").contains(policy)) {
                throw ApiException.invalid(type, name, "propagationPolicy", "FieldValueNotSupported",
                        "Unsupported value: \"" + policy + "\": supported values: \"Foreground\", \"Background\", "
                                + "\"Orphan\"");
            }
            admit("DELETE", type, null, null, live, caller);
            if (caller.dryRun()) {
                return live;
            }
            String uid = live.path("metadata").path("uid").asText();
            boolean hasDependents = !store.dependents(uid).isEmpty();
            if (policy.equals("Orphan") && hasDependents) {
                orphanDependents(uid);
            }
            boolean foreground = policy.equals("Foreground") && hasDependents;
            boolean hasFinalizers = !live.path("metadata").path("finalizers").isEmpty();
            try {
                if (type.plural().equals("namespaces") && type.group().isEmpty()) {
                    return terminateNamespace(type, live);
                }
                if (!hasFinalizers && !foreground) {
                    return store.delete(type, namespace, name, Json.rv(live));
                }
                if (live.path("metadata").hasNonNull("deletionTimestamp") && !foreground) {
                    return live; // already terminating: kube answers with the object, unchanged
                }
                ObjectNode next = live.deepCopy();
                ObjectNode meta = Json.meta(next);
                if (!meta.hasNonNull("deletionTimestamp")) {
                    meta.put("deletionTimestamp", now());
                    meta.put("deletionGracePeriodSeconds", 0);
                }
                if (foreground) {
                    addFinalizer(meta, "foregroundDeletion");
                }
                return store.update(type, next, Json.rv(live));
            } catch (ApiException e) {
                if ((e.reason().equals("Conflict") && options.preconditionRv() == null) && attempt < RETRIES) {
                    continue;
                }
                throw e;
            }
        }
    }

    private static void addFinalizer(ObjectNode meta, String finalizer) {
        ArrayNode list = meta.path("finalizers").isArray() ? (ArrayNode) meta.get("finalizers")
                : meta.putArray("finalizers");
        for (JsonNode f : list) {
            if (f.asText().equals(finalizer)) {
                return;
            }
        }
        list.add(finalizer);
    }

    /** A Namespace goes Terminating; its content is deleted in the background, then the Namespace itself. */
    private ObjectNode terminateNamespace(ResourceType type, ObjectNode live) throws ApiException {
        if (live.path("metadata").hasNonNull("deletionTimestamp")) {
            return live;
        }
        ObjectNode next = live.deepCopy();
        Json.meta(next).put("deletionTimestamp", now());
        Json.meta(next).put("deletionGracePeriodSeconds", 0);
        Json.obj(next, "status").put("phase", "Terminating");
        ObjectNode stored = store.update(type, next, Json.rv(live));
        if (namespaceTerminated != null) {
            namespaceTerminated.accept(live.path("metadata").path("name").asText());
        }
        return stored;
    }

    private java.util.function.Consumer<String> namespaceTerminated;

    void onNamespaceTerminating(java.util.function.Consumer<String> listener) {
        this.namespaceTerminated = listener;
    }

    /** Orphan policy: the dependents lose their ownerReference to the deleted owner. */
    private void orphanDependents(String ownerUid) throws ApiException {
        Caller gc = Caller.internal(Identities.garbageCollector());
        for (Store.Ref ref : store.dependents(ownerUid)) {
            try {
                modify(gc, ref.type(), ref.namespace(), ref.name(), null, live -> withoutOwner(live, ownerUid),
                        false, false);
            } catch (ApiException e) {
                if (!e.reason().equals("NotFound")) {
                    throw e;
                }
            }
        }
    }

    static ObjectNode withoutOwner(ObjectNode live, String ownerUid) {
        ObjectNode next = live.deepCopy();
        ObjectNode meta = Json.meta(next);
        ArrayNode kept = meta.arrayNode();
        meta.path("ownerReferences").forEach(o -> {
            if (!o.path("uid").asText().equals(ownerUid)) {
                kept.add(o);
            }
        });
        if (kept.isEmpty()) {
            meta.remove("ownerReferences");
        } else {
            meta.set("ownerReferences", kept);
        }
        return next;
    }

    static ObjectNode withoutFinalizer(ObjectNode live, String finalizer) {
        ObjectNode next = live.deepCopy();
        ObjectNode meta = Json.meta(next);
        ArrayNode kept = meta.arrayNode();
        meta.path("finalizers").forEach(f -> {
            if (!f.asText().equals(finalizer)) {
                kept.add(f);
            }
        });
        meta.set("finalizers", kept);
        return next;
    }
}
