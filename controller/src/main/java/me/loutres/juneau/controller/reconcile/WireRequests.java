package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.runtime.Term;

/**
 * {@link KubeWriter}'s writes as one request each through fabric8's own HTTP client (its authentication, TLS,
 * retries and connections), without fabric8's resource DSL, which builds an operation chain for every call: about
 * 0.16 ms of CPU less per write, measured in one JVM (BENCHMARKS.md, "The controller's CPU per new Service, third
 * pass"). The body is the object as fabric8 serialises it, carrying the resourceVersion
 * the caller read it at; the answer is read into the kind's class; a refusal becomes the same
 * {@link KubernetesClientException} (code and Status) the DSL throws, so every caller's handling stays as it was.
 * Each request is bounded by the time left in the term, as {@code BoundedCalls} bounds the DSL's.
 */
final class WireRequests {
    static final String JSON = "application/json";
    static final String MERGE_PATCH = "application/merge-patch+json";
    /** Beyond this a term has no deadline (per-node work): the client's own request timeout applies. */
    private static final Duration UNBOUNDED = Duration.ofDays(1);

    private final HttpClient http;
    private final KubernetesSerialization json;
    private final String server;
    private final long defaultTimeoutMs;

    WireRequests(KubernetesClient client) {
        this.http = client.getHttpClient();
        this.json = client.getKubernetesSerialization();
        String url = client.getMasterUrl().toString();
        this.server = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        Integer timeout = client.getConfiguration().getRequestTimeout();
        this.defaultTimeoutMs = timeout == null ? 0 : timeout;
    }

    /** POST to the kind's collection in the object's namespace. */
    <T extends HasMetadata> T create(Term term, WrittenKind<T> kind, T object) {
        return send(term, kind, "POST", collection(kind, object), JSON, json.asJson(object));
    }

    /** PUT of the whole object at the resourceVersion it carries. */
    <T extends HasMetadata> T update(Term term, WrittenKind<T> kind, T object) {
        return send(term, kind, "PUT", item(kind, object), JSON, json.asJson(object));
    }

    /** PUT through the status subresource, at the resourceVersion the body carries. */
    <T extends HasMetadata> T updateStatus(Term term, WrittenKind<T> kind, T body) {
        return send(term, kind, "PUT", item(kind, body) + "/status", JSON, json.asJson(body));
    }

    /** A JSON merge patch of the object named by {@code target}, sent as is. */
    <T extends HasMetadata> T mergePatch(Term term, WrittenKind<T> kind, T target, String patch) {
        return send(term, kind, "PATCH", item(kind, target), MERGE_PATCH, patch);
    }

    /** {@code /api/v1/namespaces/NS/PLURAL}, {@code /apis/GROUP/VERSION/PLURAL} for a cluster-scoped kind. */
    String collection(WrittenKind<?> kind, HasMetadata object) {
        Class<? extends HasMetadata> type = kind.type();
        String group = HasMetadata.getGroup(type);
        StringBuilder url = new StringBuilder(server.length() + 96).append(server);
        if (group == null || group.isEmpty()) {
            url.append("/api/").append(HasMetadata.getVersion(type));
        } else {
            url.append("/apis/").append(group).append('/').append(HasMetadata.getVersion(type));
        }
        if (kind.namespaced()) {
            url.append("/namespaces/").append(required(object.getMetadata().getNamespace(), "namespace"));
        }
        return url.append('/').append(HasMetadata.getPlural(type)).toString();
    }

    String item(WrittenKind<?> kind, HasMetadata object) {
        return collection(kind, object) + "/" + required(object.getMetadata().getName(), "name");
    }

    private static String required(String part, String what) {
        if (part == null || part.isEmpty()) {
            throw new IllegalArgumentException("an object to write has no " + what);
        }
        return part;
    }

    private <T extends HasMetadata> T send(Term term, WrittenKind<T> kind, String verb, String url,
            String contentType, String body) {
        term.ensureActive(); // checked again right before the request: nothing is sent once the term has ended
        Duration left = term.remaining();
        long timeoutMs = left.compareTo(UNBOUNDED) > 0 ? defaultTimeoutMs : Math.max(1, left.toMillis());
        HttpRequest.Builder builder = http.newHttpRequestBuilder().uri(url).method(verb, contentType, body);
        if (timeoutMs > 0) {
            builder.timeout(timeoutMs, TimeUnit.MILLISECONDS);
        }
        HttpRequest request = builder.build();
        HttpResponse<byte[]> response = await(request, http.sendAsync(request, byte[].class));
        if (!response.isSuccessful()) {
            throw OperationSupport.requestFailure(request, OperationSupport.createStatus(response, json));
        }
        return read(response.body(), kind.type());
    }

    /** The answer's body as the kind's class; none (which kube-apiserver never sends) is null. */
    <T> T read(byte[] body, Class<T> type) {
        return body == null || body.length == 0 ? null : json.unmarshal(new ByteArrayInputStream(body), type);
    }

    /** Waits as fabric8's DSL waits: its exceptions as they are, any other failure or an interrupt wrapped. */
    private static <R> R await(HttpRequest request, CompletableFuture<R> answer) {
        try {
            return answer.get();
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw OperationSupport.requestException(request, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof KubernetesClientException k) {
                throw k;
            }
            throw OperationSupport.requestException(request, cause instanceof Exception x ? x : e);
        }
    }
}
