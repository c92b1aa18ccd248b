package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.ServerWebSocketContainer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP surface of the local API server, routed as kube-apiserver routes: discovery, {@code /version},
 * {@code /openapi/v3}, health, and {@code /api/v1/...}, {@code /apis/<group>/<version>/...} resource paths (with
 * the legacy {@code /watch/} prefix). Query parameters a path does not use are ignored, never reinterpreted; a
 * path it does not serve is a 404 Status. Requests are served concurrently on Jetty's thread pool; a watch holds
 * its thread and streams one JSON event per line (chunked), as kube-apiserver's HTTP watch does, or, asked with
 * {@code Upgrade: websocket}, one event per text message on a thread of its own.
 */
final class ApiHandler extends Handler.Abstract {
    private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final int MAX_BODY = 3 * 1024 * 1024;
    private static final String JSON = "application/json";

    private final Registry registry;
    private final Operations ops;
    private final Discovery discovery;
    private final OpenApi openApi;
    private final Authorizer authorizer;
    private final ObjectNode version;
    private final java.util.function.Supplier<String> address;
    private volatile RequestHook hook;
    private volatile boolean closing;

    ApiHandler(Registry registry, Operations ops, Authorizer authorizer, ObjectNode version,
            java.util.function.Supplier<String> address) {
        super(InvocationType.BLOCKING);
        this.registry = registry;
        this.ops = ops;
        this.discovery = new Discovery(registry);
        this.openApi = new OpenApi(registry);
        this.authorizer = authorizer;
        this.version = version;
        this.address = address;
    }

    void setHook(RequestHook hook) {
        this.hook = hook;
    }

    void closing() {
        closing = true;
    }

    /** A parsed request. */
    private record Call(String method, String path, Fields query, UserInfo user, Request request) {
        String param(String name) {
            Fields.Field f = query.get(name);
            return f == null ? null : f.getValue();
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        List<String> warnings = new ArrayList<>();
        try {
            String method = request.getMethod();
            String path = request.getHttpURI().getDecodedPath();
            Fields query = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
            UserInfo user = user(request);
            RequestHook h = hook;
            if (h != null) {
                String raw = request.getHttpURI().getPathQuery();
                Optional<RequestHook.Refusal> refusal = h.before(new ApiRequest(method, raw,
                        request.getHeaders().get(HttpHeader.USER_AGENT), user.getUsername()));
                if (refusal.isPresent()) {
                    RequestHook.Refusal r = refusal.get();
                    throw new ApiException(r.code(), r.reason(), r.message(), null);
                }
            }
            Call call = new Call(method, path, query, user, request);
            if (route(call, response, callback, warnings)) {
                return true;
            }
            throw ApiException.pathNotFound();
        } catch (ApiException e) {
            send(response, callback, e.code(), e.status(), warnings);
        } catch (RuntimeException | IOException e) {
            LOG.warn("request {} {} failed: {}", request.getMethod(), request.getHttpURI().getPath(), e.toString());
            ApiException failure = ApiException.internal(e.getClass().getSimpleName() + ": " + e.getMessage());
            send(response, callback, 500, failure.status(), warnings);
        }
        return true;
    }

    private UserInfo user(Request request) throws ApiException {
        UserInfo user = Identities.fromAuthorization(request.getHeaders().get(HttpHeader.AUTHORIZATION));
        String as = request.getHeaders().get("Impersonate-User");
        if (as != null && !as.isEmpty()) {
            if (!Identities.mayImpersonate(user)) {
                throw ApiException.forbidden("users \"" + as + "\" is forbidden: User \"" + user.getUsername()
                        + "\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope");
            }
            user = Identities.impersonated(as, request.getHeaders().getValuesList("Impersonate-Group"));
        }
        return user;
    }

    private boolean route(Call call, Response response, Callback callback, List<String> warnings)
            throws ApiException, IOException {
        String path = call.path().length() > 1 && call.path().endsWith("/")
                ? call.path().substring(0, call.path().length() - 1) : call.path();
        boolean get = call.method().equals("GET") || call.method().equals("HEAD");
        switch (path) {
            case "/healthz", "/livez", "/readyz" -> {
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
                response.write(true, ByteBuffer.wrap("ok".getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
            case "/version" -> {
                return get && sendOk(response, callback, version, warnings);
            }
            case "/api" -> {
                return get && sendOk(response, callback, discovery.coreVersions(address.get()), warnings);
            }
            case "/apis" -> {
                return get && sendOk(response, callback, discovery.groupList(), warnings);
            }
            case "/openapi/v3" -> {
                return get && sendOk(response, callback, openApi.root(), warnings);
            }
            default -> {
            }
        }
        if (path.startsWith("/openapi/v3/")) {
            Optional<ObjectNode> doc = openApi.documentAt(path.substring("/openapi/v3/".length()));
            return get && doc.isPresent() && sendOk(response, callback, doc.get(), warnings);
        }
        String[] p = path.split("/");
        int i;
        String gv;
        if (p.length >= 3 && p[1].equals("api")) {
            gv = p[2];
            i = 3;
        } else if (p.length >= 3 && p[1].equals("apis")) {
            if (p.length == 3) {
                Optional<ObjectNode> g = discovery.group(p[2]);
                return get && g.isPresent() && sendOk(response, callback, g.get(), warnings);
            }
            gv = p[2] + "/" + p[3];
            i = 4;
        } else {
            return false;
        }
        if (!registry.servesGroupVersion(gv)) {
            return false;
        }
        if (p.length == i) {
            return get && sendOk(response, callback, discovery.resourceList(gv).orElseThrow(), warnings);
        }
        boolean legacyWatch = false;
        if (p[i].equals("watch")) {
            legacyWatch = true;
            i++;
        }
        String namespace = null;
        String plural;
        int rest;
        if (p.length > i + 2 && p[i].equals("namespaces") && registry.find(gv, p[i + 2]).map(ResourceType::namespaced)
                .orElse(false)) {
            namespace = p[i + 1];
            plural = p[i + 2];
            rest = i + 3;
        } else if (p.length > i) {
            plural = p[i];
            rest = i + 1;
        } else {
            return false;
        }
        Optional<ResourceType> found = registry.find(gv, plural);
        if (found.isEmpty()) {
            return false;
        }
        ResourceType type = found.get();
        String name = p.length > rest ? p[rest] : null;
        String sub = p.length > rest + 1 ? p[rest + 1] : null;
        if (p.length > rest + 2) {
            return false;
        }
        if (sub != null && !(sub.equals("status") && type.statusSubresource())) {
            return false;
        }
        if (!type.namespaced() && namespace != null) {
            return false;
        }
        serve(call, type, namespace, name, sub, legacyWatch, response, callback, warnings);
        return true;
    }

    private void serve(Call call, ResourceType type, String namespace, String name, String sub, boolean legacyWatch,
            Response response, Callback callback, List<String> warnings) throws ApiException, IOException {
        checkAccept(call);
        Caller caller = new Caller(call.user(), "All".equals(call.param("dryRun")), call.param("fieldManager"),
                "true".equals(call.param("force")), call.param("fieldValidation"), warnings);
        if (call.param("dryRun") != null && !"All".equals(call.param("dryRun"))) {
            throw ApiException.badRequest("Invalid dryRun value: \"" + call.param("dryRun")
                    + "\": supported values: \"All\"");
        }
        if (!type.verbs().contains("get")) {
            reviews(call, type, response, callback, warnings);
            return;
        }
        switch (call.method()) {
            case "GET", "HEAD" -> {
                boolean watch = legacyWatch || "true".equals(call.param("watch")) || "1".equals(call.param("watch"));
                if (watch) {
                    watch(call, type, namespace, name, response, callback);
                } else if (name == null) {
                    list(call, type, namespace, response, callback, warnings);
                } else {
                    ObjectNode o = ops.store().get(type, type.namespaced() ? namespace : null, name);
                    if (o == null) {
                        throw ApiException.notFound(type, name);
                    }
                    sendObject(call, type, o, 200, response, callback, warnings);
                }
            }
            case "POST" -> {
                if (name != null) {
                    throw ApiException.methodNotAllowed();
                }
                if (type.namespaced() && namespace == null) {
                    throw ApiException.methodNotAllowed();
                }
                ObjectNode created = ops.create(caller, type, namespace, body(call, false));
                sendObject(call, type, created, 201, response, callback, warnings);
            }
            case "PUT" -> {
                if (name == null) {
                    throw ApiException.methodNotAllowed();
                }
                ObjectNode updated = ops.replace(caller, type, namespace, name, sub, body(call, false));
                sendObject(call, type, updated, 200, response, callback, warnings);
            }
            case "PATCH" -> {
                if (name == null) {
                    throw ApiException.methodNotAllowed();
                }
                boolean existed = ops.store().get(type, type.namespaced() ? namespace : null, name) != null;
                ObjectNode patched = ops.patch(caller, type, namespace, name, sub,
                        call.request().getHeaders().get(HttpHeader.CONTENT_TYPE), rawBody(call));
                sendObject(call, type, patched, existed ? 200 : 201, response, callback, warnings);
            }
            case "DELETE" -> {
                if (sub != null) {
                    throw ApiException.methodNotAllowed();
                }
                JsonNode options = body(call, true);
                if (options != null && options.path("dryRun").isArray()
                        && options.path("dryRun").toString().contains("All")) {
                    caller = caller.withDryRun(true);
                }
                Operations.DeleteOptions opts = new Operations.DeleteOptions(
                        call.param("propagationPolicy") != null ? call.param("propagationPolicy")
                                : options == null ? null : options.path("propagationPolicy").asText(null),
                        options == null ? null : options.path("preconditions").path("uid").asText(null),
                        options == null ? null : options.path("preconditions").path("resourceVersion").asText(null));
                if (name == null) {
                    deleteCollection(call, caller, type, namespace, opts, response, callback, warnings);
                } else {
                    ObjectNode deleted = ops.delete(caller, type, namespace, name, opts);
                    sendObject(call, type, deleted, 200, response, callback, warnings);
                }
            }
            default -> throw ApiException.methodNotAllowed();
        }
    }

    private void reviews(Call call, ResourceType type, Response response, Callback callback, List<String> warnings)
            throws ApiException, IOException {
        if (!call.method().equals("POST")) {
            throw ApiException.methodNotAllowed();
        }
        String contentType = String.valueOf(call.request().getHeaders().get(HttpHeader.CONTENT_TYPE));
        JsonNode body = contentType.startsWith(ReviewProtobuf.MEDIA_TYPE)
                ? ReviewProtobuf.decode(rawBody(call)) : body(call, true);
        ObjectNode answer = switch (type.plural()) {
            case "selfsubjectaccessreviews" -> authorizer.review(call.user(), body == null ? F.objectNode() : body);
            case "selfsubjectrulesreviews" -> authorizer.rulesReview(call.user(), body == null ? F.objectNode()
                    : body);
            default -> Authorizer.whoAmI(call.user());
        };
        send(response, callback, 201, answer, warnings);
    }

    private static void checkAccept(Call call) throws ApiException {
        String accept = call.request().getHeaders().get(HttpHeader.ACCEPT);
        if (accept == null || accept.isBlank()) {
            return;
        }
        for (String a : accept.split(",")) {
            String media = a.split(";")[0].trim();
            if (media.equals(JSON) || media.equals("*/*") || media.equals("application/*")
                    || media.equals("application/yaml") || media.equals("application/json-seq")) {
                return;
            }
        }
        throw ApiException.notAcceptable("application/json, application/yaml");
    }

    private static byte[] rawBody(Call call) throws ApiException, IOException {
        InputStream in = Content.Source.asInputStream(call.request());
        byte[] bytes = in.readNBytes(MAX_BODY + 1);
        if (bytes.length > MAX_BODY) {
            throw ApiException.tooLarge("the request body is larger than 3 MiB");
        }
        return bytes;
    }

    private static JsonNode body(Call call, boolean optional) throws ApiException, IOException {
        byte[] bytes = rawBody(call);
        if (bytes.length == 0) {
            if (optional) {
                return null;
            }
            throw ApiException.badRequest("the request has no body");
        }
        String type = call.request().getHeaders().get(HttpHeader.CONTENT_TYPE);
        String media = type == null ? JSON : type.split(";")[0].trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (media.equals(JSON) || media.equals("*/*")) {
                return Json.MAPPER.readTree(bytes);
            }
            if (media.equals("application/yaml")) {
                return Json.YAML.readTree(bytes);
            }
        } catch (IOException e) {
            throw ApiException.badRequest("the body of the request cannot be decoded: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
        throw ApiException.unsupportedMediaType("application/json, application/yaml");
    }

    // ---------------------------------------------------------------- reads

    private record Query(Map<String, String> labelEquals, Predicate<JsonNode> filter, String name) {
    }

    private static Query query(Call call, ResourceType type, String name) throws ApiException {
        Selectors.LabelSelector labels = Selectors.labels(call.param("labelSelector"));
        List<Selectors.FieldRequirement> fields = Selectors.fields(type, call.param("fieldSelector"));
        Map<String, String> equals = new LinkedHashMap<>();
        for (Selectors.Requirement r : labels.requirements()) {
            if ((r.op().equals("=") || (r.op().equals("in") && r.values().size() == 1)) && r.values().size() == 1) {
                equals.put(r.key(), r.values().iterator().next());
            }
        }
        String byName = name;
        for (Selectors.FieldRequirement f : fields) {
            if (f.field().equals("metadata.name") && f.equal()) {
                byName = f.value();
            }
        }
        Predicate<JsonNode> fieldMatch = Selectors.fieldPredicate(fields);
        String exact = byName;
        Predicate<JsonNode> filter = o -> {
            if (exact != null && !exact.equals(o.path("metadata").path("name").asText())) {
                return false;
            }
            Map<String, String> l = new java.util.HashMap<>();
            o.path("metadata").path("labels").properties().forEach(e -> l.put(e.getKey(), e.getValue().asText()));
            return labels.matches(l) && fieldMatch.test(o);
        };
        return new Query(equals, filter, exact);
    }

    private void list(Call call, ResourceType type, String namespace, Response response, Callback callback,
            List<String> warnings) throws ApiException {
        Query q = query(call, type, null);
        int limit = 0;
        if (call.param("limit") != null) {
            try {
                limit = Math.max(0, Integer.parseInt(call.param("limit")));
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("limit: Invalid value: \"" + call.param("limit") + "\": must be an "
                        + "integer");
            }
        }
        String startAfter = null;
        if (call.param("continue") != null && !call.param("continue").isEmpty()) {
            try {
                startAfter = new String(Base64.getUrlDecoder().decode(call.param("continue")), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("continue key is not valid: illegal base64 data");
            }
        }
        Store.Snapshot snap;
        if (q.name() != null) {
            ObjectNode one = ops.store().get(type, type.namespaced() ? namespace : null, q.name());
            List<ObjectNode> items = new ArrayList<>();
            if (one != null && q.filter().test(one) && (namespace == null || !type.namespaced()
                    || namespace.equals(one.path("metadata").path("namespace").asText()))) {
                items.add(one);
            }
            snap = new Store.Snapshot(items, ops.store().revision());
        } else {
            snap = ops.store().list(type, namespace, q.labelEquals(), q.filter(), startAfter, limit);
        }
        List<ObjectNode> items = snap.items();
        String cont = null;
        if (limit > 0 && items.size() > limit) {
            items = items.subList(0, limit);
            ObjectNode last = items.get(items.size() - 1);
            cont = Base64.getUrlEncoder().encodeToString(Store.key(last.path("metadata").path("namespace")
                    .asText(null), last.path("metadata").path("name").asText()).getBytes(StandardCharsets.UTF_8));
        }
        String accept = String.valueOf(call.request().getHeaders().get(HttpHeader.ACCEPT));
        if (accept.contains("as=Table")) {
            ObjectNode table = TableConverter.toTable(type, new ArrayList<>(items), Long.toString(snap.revision()),
                    Instant.now(), !"None".equals(call.param("includeObject")));
            if (cont != null) {
                Json.meta(table).put("continue", cont);
            }
            send(response, callback, 200, table, warnings);
            return;
        }
        ObjectNode list = F.objectNode();
        boolean partial = accept.contains("as=PartialObjectMetadataList");
        list.put("kind", partial ? "PartialObjectMetadataList" : type.kind() + "List");
        list.put("apiVersion", partial ? "meta.k8s.io/v1" : type.groupVersion());
        ObjectNode meta = list.putObject("metadata");
        meta.put("resourceVersion", Long.toString(snap.revision()));
        if (cont != null) {
            meta.put("continue", cont);
        }
        ArrayNode array = list.putArray("items");
        for (ObjectNode o : items) {
            array.add(partial ? partial(o) : o);
        }
        send(response, callback, 200, list, warnings);
    }

    private static ObjectNode partial(ObjectNode o) {
        ObjectNode p = F.objectNode();
        p.put("kind", "PartialObjectMetadata");
        p.put("apiVersion", "meta.k8s.io/v1");
        p.set("metadata", o.path("metadata"));
        return p;
    }

    private void sendObject(Call call, ResourceType type, ObjectNode o, int code, Response response,
            Callback callback, List<String> warnings) {
        String accept = String.valueOf(call.request().getHeaders().get(HttpHeader.ACCEPT));
        if (accept.contains("as=Table") && call.method().equals("GET")) {
            send(response, callback, code, TableConverter.toTable(type, List.of(o), Json.rv(o), Instant.now(), true),
                    warnings);
        } else if (accept.contains("as=PartialObjectMetadata") && call.method().equals("GET")) {
            send(response, callback, code, partial(o), warnings);
        } else {
            send(response, callback, code, o, warnings);
        }
    }

    private void deleteCollection(Call call, Caller caller, ResourceType type, String namespace,
            Operations.DeleteOptions opts, Response response, Callback callback, List<String> warnings)
            throws ApiException {
        Query q = query(call, type, null);
        Store.Snapshot snap = ops.store().list(type, namespace, q.labelEquals(), q.filter(), null, 0);
        ObjectNode list = F.objectNode();
        list.put("kind", type.kind() + "List");
        list.put("apiVersion", type.groupVersion());
        ArrayNode items = list.putArray("items");
        for (ObjectNode o : snap.items()) {
            try {
                items.add(ops.delete(caller, type, o.path("metadata").path("namespace").asText(null),
                        o.path("metadata").path("name").asText(), opts));
            } catch (ApiException e) {
                if (!e.reason().equals("NotFound")) {
                    throw e;
                }
            }
        }
        Json.meta(list).put("resourceVersion", Long.toString(ops.store().revision()));
        send(response, callback, 200, list, warnings);
    }

    // ---------------------------------------------------------------- watch

    private void watch(Call call, ResourceType type, String namespace, String name, Response response,
            Callback callback) throws ApiException, IOException {
        Query q = query(call, type, name);
        String rv = call.param("resourceVersion");
        boolean initialEvents = "true".equals(call.param("sendInitialEvents"));
        Long from = null;
        if (!initialEvents && rv != null && !rv.isEmpty() && !rv.equals("0")) {
            try {
                from = Long.parseLong(rv);
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("resourceVersion: Invalid value: \"" + rv + "\": must be an integer");
            }
        }
        boolean bookmarks = "true".equals(call.param("allowWatchBookmarks"));
        long timeout = 1800;
        if (call.param("timeoutSeconds") != null) {
            try {
                timeout = Long.parseLong(call.param("timeoutSeconds"));
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("timeoutSeconds: must be an integer");
            }
        }
        boolean table = String.valueOf(call.request().getHeaders().get(HttpHeader.ACCEPT)).contains("as=Table");
        WatchStream stream = new WatchStream(type, namespace, q.filter(), from, initialEvents, bookmarks, table,
                System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout));
        String upgrade = call.request().getHeaders().get(HttpHeader.UPGRADE);
        if (upgrade != null && upgrade.toLowerCase(java.util.Locale.ROOT).contains("websocket")) {
            // kube-apiserver serves a watch over WebSocket when asked (one event per text message); fabric8's
            // client asks for that first and, refused, retries for seconds before it falls back to HTTP
            ServerWebSocketContainer container = ServerWebSocketContainer.get(call.request().getContext());
            if (container == null || !container.upgrade((rq, rs, cb) -> new WatchSocket(session -> serveOverWebSocket(stream, session)), call.request(),
                    response, callback)) {
                throw ApiException.badRequest("not a valid WebSocket upgrade request");
            }
            return;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, private");
        // buffered: Jetty's sink stream writes (a chunk and a TLS record) per call; events go out on flush
        try (OutputStream out = new java.io.BufferedOutputStream(Content.Sink.asOutputStream(response), 64 * 1024)) {
            stream.run(new WatchSink() {
                @Override
                public void event(String kind, JsonNode object) throws IOException {
                    out.write(Json.MAPPER.writeValueAsBytes(watchEvent(kind, object)));
                    out.write('\n');
                }

                @Override
                public void item(String kind, Store.Encoded object) throws IOException {
                    // the same line as event(): {"type":...,"object":...}, the object's JSON shared by all streams
                    out.write(EVENT_START);
                    out.write(kind.getBytes(StandardCharsets.US_ASCII));
                    out.write(EVENT_OBJECT);
                    out.write(object.json());
                    out.write(EVENT_END);
                }

                @Override
                public void flush() throws IOException {
                    out.flush();
                }

                @Override
                public boolean open() {
                    return true;
                }
            });
        } catch (IOException e) {
            // the client went away: nothing to answer
        } finally {
            callback.succeeded();
        }
    }

    /** One watch event as kube-apiserver writes it: {@code {"type": ..., "object": ...}}. */
    private static ObjectNode watchEvent(String kind, JsonNode object) {
        ObjectNode e = F.objectNode();
        e.put("type", kind);
        e.set("object", object);
        return e;
    }

    /** Where a watch's events go: lines of an HTTP stream, or messages of a WebSocket. */
    private interface WatchSink {
        void event(String type, JsonNode object) throws IOException;

        /** A stored object's event (written once per event, whichever streams send it). */
        default void item(String type, Store.Encoded object) throws IOException {
            event(type, object.object());
        }

        void flush() throws IOException;

        boolean open();
    }

    /** One watch: the store's queue for it, drained into a sink until the timeout, the client or the server ends it. */
    private final class WatchStream {
        final ResourceType type;
        final String namespace;
        final Predicate<JsonNode> filter;
        final Long from;
        final boolean initialEvents;
        final boolean bookmarks;
        final boolean table;
        final long deadline;

        WatchStream(ResourceType type, String namespace, Predicate<JsonNode> filter, Long from, boolean initialEvents,
                boolean bookmarks, boolean table, long deadline) {
            this.type = type;
            this.namespace = namespace;
            this.filter = filter;
            this.from = from;
            this.initialEvents = initialEvents;
            this.bookmarks = bookmarks;
            this.table = table;
            this.deadline = deadline;
        }

        void run(WatchSink sink) throws IOException {
            Store.Watch w;
            try {
                w = ops.store().watch(type, namespace, filter, from);
            } catch (ApiException e) {
                sink.event("ERROR", e.status());
                sink.flush();
                return;
            }
            long lastBookmark = System.nanoTime();
            boolean first = true;
            try {
                sink.flush(); // commit the 200 and headers: the client's watch is open from here
                if (initialEvents) {
                    // sendInitialEvents: the current state, then a bookmark that marks its end
                    for (Store.WatchItem item = w.queue.poll(); item != null; item = w.queue.poll()) {
                        send(sink, item, first);
                        first = false;
                    }
                    ObjectNode bm = bookmark(type, ops.store().revision());
                    Json.obj(Json.meta(bm), "annotations").put("k8s.io/initial-events-end", "true");
                    sink.event("BOOKMARK", bm);
                    sink.flush();
                }
                while (!closing && sink.open() && System.nanoTime() < deadline) {
                    if (w.overflowed) {
                        sink.event("ERROR", ApiException.gone("the watch fell too far behind; list again").status());
                        sink.flush();
                        break;
                    }
                    long published = ops.store().revision();
                    Store.WatchItem item = w.queue.poll(500, TimeUnit.MILLISECONDS);
                    if (item != null) {
                        send(sink, item, first);
                        first = false;
                        // drain what is queued without a flush per event
                        for (int n = 0; n < 256 && (item = w.queue.poll()) != null; n++) {
                            send(sink, item, false);
                        }
                        sink.flush();
                    } else if (bookmarks && System.nanoTime() - lastBookmark > TimeUnit.SECONDS.toNanos(10)) {
                        sink.event("BOOKMARK", bookmark(type, published));
                        sink.flush();
                        lastBookmark = System.nanoTime();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ops.store().close(w);
            }
        }

        private void send(WatchSink sink, Store.WatchItem item, boolean withDefinitions) throws IOException {
            if (table) {
                sink.event(item.type(), render(type, item.object(), true, withDefinitions));
            } else {
                sink.item(item.type(), item.encoded());
            }
        }
    }

    private static final byte[] EVENT_START = "{\"type\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_OBJECT = "\",\"object\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_END = "}\n".getBytes(StandardCharsets.US_ASCII);

    /** A watch served over WebSocket: its own thread drains the stream into text messages, one event each. */
    private void serveOverWebSocket(WatchStream stream, Session session) {
        Thread t = new Thread(() -> {
            try {
                stream.run(new WatchSink() {
                    @Override
                    public void event(String kind, JsonNode object) throws IOException {
                        send(Json.MAPPER.writeValueAsString(watchEvent(kind, object)));
                    }

                    @Override
                    public void item(String kind, Store.Encoded object) throws IOException {
                        // the same message as event(), the object's JSON shared by all streams
                        send("{\"type\":\"" + kind + "\",\"object\":"
                                + new String(object.json(), StandardCharsets.UTF_8) + "}");
                    }

                    private void send(String message) throws IOException {
                        var sent = new org.eclipse.jetty.websocket.api.Callback.Completable();
                        session.sendText(message, sent);
                        try {
                            sent.get(30, TimeUnit.SECONDS);
                        } catch (InterruptedException ex) {
                            Thread.currentThread().interrupt();
                            throw new IOException("interrupted", ex);
                        } catch (Exception ex) {
                            throw new IOException("the WebSocket peer does not take the event", ex);
                        }
                    }

                    @Override
                    public void flush() {
                        // every message is sent whole
                    }

                    @Override
                    public boolean open() {
                        return session.isOpen();
                    }
                });
            } catch (IOException e) {
                // the client went away
            } finally {
                if (session.isOpen()) {
                    session.close(1000, "watch ended", org.eclipse.jetty.websocket.api.Callback.NOOP);
                }
            }
        }, "local-apiserver-ws-watch");
        t.setDaemon(true);
        t.start();
    }

    private static JsonNode render(ResourceType type, JsonNode object, boolean table, boolean withDefinitions) {
        if (!table) {
            return object;
        }
        return TableConverter.toTable(type, List.of(object), Json.rv(object), Instant.now(), withDefinitions);
    }

    private static ObjectNode bookmark(ResourceType type, long rv) {
        ObjectNode o = F.objectNode();
        o.put("kind", type.kind());
        o.put("apiVersion", type.groupVersion());
        o.putObject("metadata").put("resourceVersion", Long.toString(rv));
        return o;
    }

    // ---------------------------------------------------------------- responses

    private static boolean sendOk(Response response, Callback callback, JsonNode body, List<String> warnings) {
        send(response, callback, 200, body, warnings);
        return true;
    }

    private static void send(Response response, Callback callback, int code, JsonNode body, List<String> warnings) {
        byte[] bytes;
        try {
            bytes = Json.MAPPER.writeValueAsBytes(body);
        } catch (IOException e) {
            bytes = "{}".getBytes(StandardCharsets.UTF_8);
        }
        response.setStatus(code);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
        for (String w : warnings) {
            response.getHeaders().add("Warning", "299 - \"" + w.replace("\"", "'").replace("\n", " ") + "\"");
        }
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }
}
