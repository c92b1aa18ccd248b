package me.loutres.juneau.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import me.loutres.juneau.apiserver.Identities;

/**
 * Writes sent the way kubectl sends them (JSON over HTTP, admin token), so the demo sees exactly what kubectl
 * would: status code, the Status message of a rejection and the {@code Warning} headers.
 */
final class ApiCalls {
    /** What the API server answered to one write. */
    record Reply(int code, String reason, String message, List<String> warnings, JsonNode body) {
        boolean ok() {
            return code / 100 == 2;
        }

        /** The line kubectl prints for a failed create/update, e.g. {@code Error from server (Forbidden): ...}. */
        String kubectlError(String verb, String file) {
            return "Error from server (" + reason + "): error when " + verb + " \"" + file + "\": " + message;
        }
    }

    private static final Pattern WARNING = Pattern.compile("^\\d{3} \\S+ \"(.*)\"$");

    private final String base;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();

    ApiCalls(String base, HttpClient http) {
        this.base = base;
        this.http = http;
    }

    /** POST to the collection of the object (kubectl create). */
    Reply create(HasMetadata object) throws IOException {
        return send("POST", collectionPath(object), "application/json", Serialization.asJson(object));
    }

    /** DELETE of the object (kubectl delete). */
    Reply delete(HasMetadata object) throws IOException {
        return send("DELETE", collectionPath(object) + "/" + object.getMetadata().getName(), null, null);
    }

    /** A JSON merge patch (kubectl patch --type=merge [--subresource=status]). */
    Reply mergePatch(HasMetadata object, String subresource, String patch) throws IOException {
        String path = collectionPath(object) + "/" + object.getMetadata().getName()
                + (subresource == null ? "" : "/" + subresource);
        return send("PATCH", path, "application/merge-patch+json", patch);
    }

    static String collectionPath(HasMetadata o) {
        String apiVersion = o.getApiVersion();
        String prefix = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        String ns = o.getMetadata().getNamespace();
        return prefix + (ns == null ? "" : "/namespaces/" + ns) + "/" + HasMetadata.getPlural(o.getClass());
    }

    private Reply send(String method, String path, String contentType, String body) throws IOException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + Identities.ADMIN_TOKEN);
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> r;
        try {
            r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        List<String> warnings = new ArrayList<>();
        for (String h : r.headers().allValues("Warning")) {
            Matcher m = WARNING.matcher(h);
            warnings.add(m.matches() ? m.group(1) : h);
        }
        JsonNode parsed = r.body() == null || r.body().isBlank() ? json.nullNode() : json.readTree(r.body());
        String reason = parsed.path("reason").asText("");
        String message = parsed.path("message").asText("");
        return new Reply(r.statusCode(), reason, message, warnings, parsed);
    }
}
