package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import me.loutres.juneau.rbac.RequestAttributes;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP surface of the local API server, routed as kube-apiserver routes: discovery, {@code /version},
 * {@code /openapi/v3}, health, and {@code /api/v1/...}, {@code /apis/<group>/<version>/...} resource paths (with
 * the legacy {@code /watch/} prefix, see {@link ResourcePath}). Query parameters a path does not use are ignored,
 * never reinterpreted; a path it does not serve is a 404 Status. Requests are served concurrently on Jetty's thread
 * pool. Each verb is a few lines here; lists are {@link ListHandler}'s, watches {@link WatchHandler}'s, writes
 * {@link Operations}'.
 */
final class ApiHandler extends Handler.Abstract {
    private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final Registry registry;
    private final Operations ops;
    private final Discovery discovery;
    private final OpenApi openApi;
    private final Authorizer authorizer;
    private final ObjectNode version;
    private final Supplier<String> address;
    private final ListHandler lists;
    private final WatchHandler watches;
    private volatile RequestHook hook;
    private volatile boolean closing;
    private final Freeze freeze = new Freeze();

    ApiHandler(Registry registry, Operations ops, Authorizer authorizer, ObjectNode version,
            Supplier<String> address) {
        super(InvocationType.BLOCKING);
        this.registry = registry;
        this.ops = ops;
        this.discovery = new Discovery(registry);
        this.openApi = new OpenApi(registry);
        this.authorizer = authorizer;
        this.version = version;
        this.address = address;
        this.lists = new ListHandler(ops);
        this.watches = new WatchHandler(ops.store(), () -> closing, freeze);
    }

    void setHook(RequestHook hook) {
        this.hook = hook;
    }

    void closing() {
        closing = true;
    }

    Freeze freeze() {
        return freeze;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        List<String> warnings = new ArrayList<>();
        try {
            freeze.await();
            String method = request.getMethod();
            UserInfo user = user(request);
            RequestHook h = hook;
            if (h != null) {
                Optional<RequestHook.Refusal> refusal = h.before(new ApiRequest(method,
                        request.getHttpURI().getPathQuery(), request.getHeaders().get(HttpHeader.USER_AGENT),
                        user.getUsername()));
                if (refusal.isPresent()) {
                    RequestHook.Refusal r = refusal.get();
                    throw new ApiException(r.code(), r.reason(), r.message(), null);
                }
            }
            ApiCall call = new ApiCall(method, request.getHttpURI().getDecodedPath(),
                    Request.extractQueryParameters(request, StandardCharsets.UTF_8), user, request);
            authorizer.authorize(user, attributes(call));
            if (route(call, response, callback, warnings)) {
                return true;
            }
            throw ApiException.pathNotFound();
        } catch (ApiException e) {
            ApiCall.discardUnread(request);
            Responses.send(response, callback, e.code(), e.status(), warnings);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Responses.send(response, callback, 503, ApiException.internal("the API server is stopping").status(),
                    warnings);
        } catch (RuntimeException | IOException e) {
            LOG.warn("request {} {} failed: {}", request.getMethod(), request.getHttpURI().getPath(), e.toString());
            ApiException failure = ApiException.internal(e.getClass().getSimpleName() + ": " + e.getMessage());
            Responses.send(response, callback, 500, failure.status(), warnings);
        }
        return true;
    }

    /**
     * Who asks: the bearer token's user (a 401 without one, as kube-apiserver with anonymous authentication off), or
     * the user it impersonates ({@code kubectl --as}) when RBAC lets it.
     */
    private UserInfo user(Request request) throws ApiException {
        UserInfo user = Identities.authenticate(request.getHeaders().get(HttpHeader.AUTHORIZATION))
                .orElseThrow(ApiException::unauthorized);
        String as = request.getHeaders().get("Impersonate-User");
        for (String header : request.getHeaders().getFieldNamesCollection()) {
            // the node-name extra must come from a node's token, and nothing here reads other extras or a uid
            if (header.regionMatches(true, 0, "Impersonate-Extra-", 0, 18)
                    || header.equalsIgnoreCase("Impersonate-Uid")) {
                throw ApiException.badRequest(header + ": not supported by the local API server; accepted:"
                        + " Impersonate-User and Impersonate-Group");
            }
        }
        if (as != null && !as.isEmpty()) {
            List<String> groups = request.getHeaders().getValuesList("Impersonate-Group");
            String[] sa = as.split(":");
            authorizer.authorize(user, as.startsWith("system:serviceaccount:") && sa.length == 4
                    ? RequestAttributes.resource("impersonate", "", "serviceaccounts", "", sa[2], sa[3])
                    : RequestAttributes.resource("impersonate", "", "users", "", "", as));
            for (String g : groups) {
                authorizer.authorize(user, RequestAttributes.resource("impersonate", "", "groups", "", "", g));
            }
            user = Identities.impersonated(as, groups);
        }
        return user;
    }

    /** What RBAC decides on for this request (kube-apiserver's reading of its path, verb and query). */
    private static RequestAttributes attributes(ApiCall call) {
        Map<String, String> query = new HashMap<>();
        call.query().forEach(f -> query.put(f.getName(), f.getValue()));
        return RequestAttributes.of(call.method(), call.path(), query);
    }

    /** True when the path is served (answered here); false for a 404. */
    private boolean route(ApiCall call, Response response, Callback callback, List<String> warnings)
            throws ApiException, IOException {
        String path = call.path().length() > 1 && call.path().endsWith("/")
                ? call.path().substring(0, call.path().length() - 1) : call.path();
        boolean get = call.method().equals("GET") || call.method().equals("HEAD");
        Optional<JsonNode> fixed = switch (path) {
            case "/version" -> Optional.of(version);
            case "/api" -> Optional.of(discovery.coreVersions(address.get()));
            case "/apis" -> Optional.of(discovery.groupList());
            case "/openapi/v3" -> Optional.of(openApi.root());
            default -> path.startsWith("/openapi/v3/")
                    ? openApi.documentAt(path.substring("/openapi/v3/".length())).map(JsonNode.class::cast)
                    : Optional.empty();
        };
        if (path.equals("/healthz") || path.equals("/livez") || path.equals("/readyz")) {
            Responses.sendText(response, callback, "ok");
            return true;
        }
        if (fixed.isPresent() || path.startsWith("/openapi/v3")) {
            return get && fixed.isPresent() && Responses.sendOk(response, callback, fixed.get(), warnings);
        }
        String[] p = path.split("/");
        if (p.length < 3 || !(p[1].equals("api") || p[1].equals("apis"))) {
            return false;
        }
        if (p[1].equals("apis") && p.length == 3) {
            Optional<ObjectNode> g = discovery.group(p[2]);
            return get && g.isPresent() && Responses.sendOk(response, callback, g.get(), warnings);
        }
        String gv = p[1].equals("api") ? p[2] : p[2] + "/" + p[3];
        int from = p[1].equals("api") ? 3 : 4;
        if (!registry.servesGroupVersion(gv)) {
            return false;
        }
        if (p.length == from) {
            return get && Responses.sendOk(response, callback, discovery.resourceList(gv).orElseThrow(), warnings);
        }
        Optional<ResourcePath> resource = ResourcePath.parse(registry, gv, p, from);
        if (resource.isEmpty()) {
            return false;
        }
        serve(call, resource.get(), response, callback, warnings);
        return true;
    }

    private void serve(ApiCall call, ResourcePath at, Response response, Callback callback, List<String> warnings)
            throws ApiException, IOException {
        boolean watch = at.legacyWatch() || "true".equals(call.param("watch")) || "1".equals(call.param("watch"));
        call.checkAccept(at.type(), at.name() != null && !watch
                || !call.method().equals("GET") && !call.method().equals("HEAD"));
        if (call.param("dryRun") != null && !"All".equals(call.param("dryRun"))) {
            throw ApiException.badRequest("Invalid dryRun value: \"" + call.param("dryRun")
                    + "\": supported values: \"All\"");
        }
        Caller caller = new Caller(call.user(), "All".equals(call.param("dryRun")), call.param("fieldManager"),
                "true".equals(call.param("force")), call.param("fieldValidation"), warnings);
        if (!at.type().verbs().contains("get")) {
            reviews(call, at.type(), response, callback, warnings);
            return;
        }
        ResourceType type = at.type();
        switch (call.method()) {
            case "GET", "HEAD" -> read(call, at, response, callback, warnings);
            case "POST" -> {
                if (at.name() != null || (type.namespaced() && at.namespace() == null)) {
                    throw ApiException.methodNotAllowed();
                }
                ObjectNode created = ops.create(caller, type, at.namespace(), call.body(false));
                Responses.sendWritten(call, type, created, ops.store(), 201, response, callback, warnings);
            }
            case "PUT" -> {
                requireName(at);
                ObjectNode updated = ops.replace(caller, type, at.namespace(), at.name(), at.sub(), call.body(false));
                Responses.sendWritten(call, type, updated, ops.store(), 200, response, callback, warnings);
            }
            case "PATCH" -> {
                requireName(at);
                boolean existed = ops.store().get(type, at.objectNamespace(), at.name()) != null;
                ObjectNode patched = ops.patch(caller, type, at.namespace(), at.name(), at.sub(),
                        call.header(HttpHeader.CONTENT_TYPE), call.rawBody());
                Responses.sendWritten(call, type, patched, ops.store(), existed ? 200 : 201, response, callback,
                        warnings);
            }
            case "DELETE" -> delete(call, caller, at, response, callback, warnings);
            default -> throw ApiException.methodNotAllowed();
        }
    }

    private static void requireName(ResourcePath at) throws ApiException {
        if (at.name() == null) {
            throw ApiException.methodNotAllowed();
        }
    }

    private void read(ApiCall call, ResourcePath at, Response response, Callback callback, List<String> warnings)
            throws ApiException {
        boolean watch = at.legacyWatch() || "true".equals(call.param("watch")) || "1".equals(call.param("watch"));
        if (watch) {
            watches.watch(call, at.type(), at.namespace(), at.name(), response, callback);
        } else if (at.name() == null) {
            lists.list(call, at.type(), at.namespace(), response, callback, warnings);
        } else {
            ObjectNode o = ops.store().get(at.type(), at.objectNamespace(), at.name());
            if (o == null) {
                throw ApiException.notFound(at.type(), at.name());
            }
            Responses.sendObject(call, at.type(), o, 200, response, callback, warnings);
        }
    }

    private void delete(ApiCall call, Caller caller, ResourcePath at, Response response, Callback callback,
            List<String> warnings) throws ApiException, IOException {
        if (at.sub() != null) {
            throw ApiException.methodNotAllowed();
        }
        JsonNode options = call.body(true);
        if (options != null && options.path("dryRun").isArray()
                && options.path("dryRun").toString().contains("All")) {
            caller = caller.withDryRun(true);
        }
        Operations.DeleteOptions opts = new Operations.DeleteOptions(
                call.param("propagationPolicy") != null ? call.param("propagationPolicy")
                        : options == null ? null : options.path("propagationPolicy").asText(null),
                options == null ? null : options.path("preconditions").path("uid").asText(null),
                options == null ? null : options.path("preconditions").path("resourceVersion").asText(null));
        if (at.name() == null) {
            lists.deleteCollection(call, caller, at.type(), at.namespace(), opts, response, callback, warnings);
        } else {
            ObjectNode deleted = ops.delete(caller, at.type(), at.namespace(), at.name(), opts);
            Responses.sendWritten(call, at.type(), deleted, ops.store(), 200, response, callback, warnings);
        }
    }

    /** The review kinds (self-subject access and rules reviews, whoami): POST only, answered at once. */
    private void reviews(ApiCall call, ResourceType type, Response response, Callback callback, List<String> warnings)
            throws ApiException, IOException {
        if (!call.method().equals("POST")) {
            throw ApiException.methodNotAllowed();
        }
        JsonNode body = call.body(true);
        JsonNode asked = body == null ? F.objectNode() : body;
        ObjectNode answer = switch (type.plural()) {
            case "selfsubjectaccessreviews" -> authorizer.review(call.user(), asked);
            case "selfsubjectrulesreviews" -> authorizer.rulesReview(call.user(), asked);
            default -> Authorizer.whoAmI(call.user());
        };
        Responses.send(response, callback, 201, answer, warnings);
    }
}
