package me.loutres.juneau.cli.local;

import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Optional;

/** Discovery and admission in front of the mock server's CRUD storage. */
final class LocalApiDispatcher extends Dispatcher {
    private final Dispatcher storage;
    private final Discovery discovery;
    private final VersionInfo version;
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
    public MockResponse dispatch(RecordedRequest request) {
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
        AdmissionGate current = gate;
        if (current != null) {
            Optional<MockResponse> admitted = current.admit(request);
            if (admitted.isPresent()) {
                return admitted.get();
            }
        }
        return storage.dispatch(request);
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

    private static MockResponse json(int code, Object body) {
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
