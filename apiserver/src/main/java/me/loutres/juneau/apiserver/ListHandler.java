package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Lists (with {@code limit}/{@code continue} pages, as a Table or as metadata only) and delete-collection, as
 * kube-apiserver answers them.
 */
final class ListHandler {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final Operations ops;

    ListHandler(Operations ops) {
        this.ops = ops;
    }

    /** A page request: at most {@code limit} items (0: all) after the key {@code startAfter} (null: from the start). */
    private record Page(int limit, String startAfter) {
        static Page of(ApiCall call) throws ApiException {
            int limit = 0;
            if (call.param("limit") != null) {
                try {
                    limit = Math.max(0, Integer.parseInt(call.param("limit")));
                } catch (NumberFormatException e) {
                    throw ApiException.badRequest("limit: Invalid value: \"" + call.param("limit")
                            + "\": must be an integer");
                }
            }
            String startAfter = null;
            String token = call.param("continue");
            if (token != null && !token.isEmpty()) {
                try {
                    startAfter = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("continue key is not valid: illegal base64 data");
                }
            }
            return new Page(limit, startAfter);
        }
    }

    void list(ApiCall call, ResourceType type, String namespace, Response response, Callback callback,
            List<String> warnings) throws ApiException {
        ListQuery q = ListQuery.of(call, type, null);
        Page page = Page.of(call);
        Store.Snapshot snap = q.name() != null ? one(type, namespace, q)
                : ops.store().list(type, namespace, q.labelEquals(), q.filter(), page.startAfter(), page.limit());
        List<ObjectNode> items = snap.items();
        String cont = null;
        if (page.limit() > 0 && items.size() > page.limit()) {
            items = items.subList(0, page.limit());
            ObjectNode last = items.get(items.size() - 1);
            cont = Base64.getUrlEncoder().encodeToString(Store.key(last.path("metadata").path("namespace")
                    .asText(null), last.path("metadata").path("name").asText()).getBytes(StandardCharsets.UTF_8));
        }
        Responses.send(response, callback, 200, render(call, type, items, snap.revision(), cont), warnings);
    }

    /** A list selected by name reads that one object, not the kind. */
    private Store.Snapshot one(ResourceType type, String namespace, ListQuery q) {
        ObjectNode one = ops.store().get(type, type.namespaced() ? namespace : null, q.name());
        List<ObjectNode> items = new ArrayList<>();
        if (one != null && q.filter().test(one) && (namespace == null || !type.namespaced()
                || namespace.equals(one.path("metadata").path("namespace").asText()))) {
            items.add(one);
        }
        return new Store.Snapshot(items, ops.store().revision());
    }

    private static ObjectNode render(ApiCall call, ResourceType type, List<ObjectNode> items, long revision,
            String cont) {
        if (call.accepts("as=Table")) {
            ObjectNode table = TableConverter.toTable(type, new ArrayList<>(items), Long.toString(revision),
                    Instant.now(), !"None".equals(call.param("includeObject")));
            if (cont != null) {
                Json.meta(table).put("continue", cont);
            }
            return table;
        }
        ObjectNode list = F.objectNode();
        boolean partial = call.accepts("as=PartialObjectMetadataList");
        list.put("kind", partial ? "PartialObjectMetadataList" : type.kind() + "List");
        list.put("apiVersion", partial ? "meta.k8s.io/v1" : type.groupVersion());
        ObjectNode meta = list.putObject("metadata");
        meta.put("resourceVersion", Long.toString(revision));
        if (cont != null) {
            meta.put("continue", cont);
        }
        ArrayNode array = list.putArray("items");
        for (ObjectNode o : items) {
            array.add(partial ? Responses.partial(o) : o);
        }
        return list;
    }

    void deleteCollection(ApiCall call, Caller caller, ResourceType type, String namespace,
            Operations.DeleteOptions opts, Response response, Callback callback, List<String> warnings)
            throws ApiException {
        ListQuery q = ListQuery.of(call, type, null);
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
        Responses.send(response, callback, 200, list, warnings);
    }
}
