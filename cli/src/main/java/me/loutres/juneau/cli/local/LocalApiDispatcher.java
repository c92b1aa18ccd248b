package me.loutres.juneau.cli.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Instant;
import java.util.Optional;

/** Discovery and admission in front of the mock server's CRUD storage. */
final class LocalApiDispatcher extends Dispatcher {
    private final Dispatcher storage;
    private final Discovery discovery;
    private final VersionInfo version;
    private final TableConverter tables = new TableConverter();
    private final ObjectMapper json = new ObjectMapper();
    private volatile AdmissionGate gate;

    LocalApiDispatcher(Dispatcher storage, Discovery discovery, VersionInfo version) {
        this.storage = storage;
        this.discovery = discovery;
        this.version = version;
    }

    void setGate(AdmissionGate gate) {
        this.gate = gate;
    }

    @Override
    public MockResponse dispatch(RecordedRequest original) {
        RecordedRequest request = withoutIgnoredParameters(original);
        String path = request.getPath();
        int q = path.indexOf('?');
        String bare = q < 0 ? path : path.substring(0, q);
        if ("GET".equals(request.getMethod())) {
            Optional<Object> doc = discoveryDocument(bare);
            if (doc.isPresent()) {
                return json(200, doc.get());
            }
            if (bare.startsWith("/openapi/")) {
                return AdmissionGate.status(404, "NotFound",
                        "the local API server serves no OpenAPI documents; use kubectl --validate=false");
            }
        }
        if ("GET".equals(request.getMethod()) && wantsTable(request) && !path.contains("watch=")) {
            Optional<ResourcePath> target = ResourcePath.parse(bare);
            MockResponse stored = storage.dispatch(request);
            if (target.isPresent() && stored.code() == 200 && stored.getBody() != null) {
                try {
                    JsonNode body = json.readTree(stored.getBody().getBytes());
                    return json(200, tables.toTable(target.get().resource(), body, Instant.now()));
                } catch (java.io.IOException e) {
                    return stored;
                }
            }
            return stored;
        }
        AdmissionGate current = gate;
        if (current != null) {
            Optional<MockResponse> admitted = current.admit(request);
            if (admitted.isPresent()) {
                return admitted.get();
            }
        }
        return storage.dispatch(request);
    }

    /**
     * kubectl adds {@code fieldManager} and {@code fieldValidation} to every write; the mock server then no longer
     * recognises a {@code /status} path and silently drops status changes. They mean nothing without server-side
     * apply or schemas, so they are removed before storage sees the request.
     */
    static RecordedRequest withoutIgnoredParameters(RecordedRequest request) {
        String path = request.getPath();
        int q = path.indexOf('?');
        if (q < 0 || "GET".equals(request.getMethod())) {
            return request;
        }
        StringBuilder kept = new StringBuilder();
        for (String param : path.substring(q + 1).split("&")) {
            if (param.startsWith("fieldManager=") || param.startsWith("fieldValidation=")
                    || param.startsWith("pretty=") || param.isEmpty()) {
                continue;
            }
            kept.append(kept.length() == 0 ? "?" : "&").append(param);
        }
        String newPath = path.substring(0, q) + kept;
        if (newPath.equals(path)) {
            return request;
        }
        byte[] body = request.getBody() == null ? new byte[0] : request.getBody().readByteArray();
        return new RecordedRequest("HTTP/1.1", request.method(), newPath, request.getHeaders(),
                new io.fabric8.mockwebserver.http.Buffer(body));
    }

    /** kubectl get asks for server-side printing; other clients ask for plain JSON. */
    private static boolean wantsTable(RecordedRequest request) {
        String accept = request.getHeader("Accept");
        return accept != null && accept.contains("as=Table");
    }

    private Optional<Object> discoveryDocument(String path) {
        if (path.equals("/version") || path.equals("/version/")) {
            return Optional.of(version);
        }
        if (path.equals("/api") || path.equals("/api/")) {
            return Optional.of(discovery.coreVersions());
        }
        if (path.equals("/apis") || path.equals("/apis/")) {
            return Optional.of(discovery.groups());
        }
        if (path.equals("/api/v1")) {
            return discovery.resourceList("v1").map(Object.class::cast);
        }
        String[] p = path.split("/");
        if (p.length == 4 && p[1].equals("apis")) {
            return discovery.resourceList(p[2] + "/" + p[3]).map(Object.class::cast);
        }
        return Optional.empty();
    }

    private MockResponse json(int code, Object body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(Serialization.asJson(body));
    }

    /** Straight to storage, for the admission gate's reads and forwarded writes. */
    MockResponse storage(RecordedRequest request) {
        return storage.dispatch(request);
    }

    @Override
    public void shutdown() {
        storage.shutdown();
    }
}
