package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * One local API server per test class and raw HTTPS calls as kubectl makes them, so tests see the exact status
 * codes and bodies. Each test uses its own object names.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ApiServerFixture {
    static final ObjectMapper JSON = new ObjectMapper();
    LocalApiServer server;
    HttpClient http;

    record Reply(int code, JsonNode body, HttpResponse<String> raw) {
        String message() {
            return body.path("message").asText();
        }
    }

    @BeforeAll
    void startServer() {
        server = LocalApiServer.start(0);
        http = server.httpClient();
    }

    @AfterAll
    void stopServer() {
        server.close();
    }

    Reply call(String method, String path, String contentType, String body) {
        return call(method, path, contentType, body, null);
    }

    Reply call(String method, String path, String contentType, String body, String accept) {
        return callAs(Identities.ADMIN_TOKEN, method, path, contentType, body, accept);
    }

    /** A call with this bearer token (null: none, an anonymous request). */
    Reply callAs(String token, String method, String path, String contentType, String body, String accept) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
                    .timeout(Duration.ofSeconds(20))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            if (contentType != null) {
                b.header("Content-Type", contentType);
            }
            if (accept != null) {
                b.header("Accept", accept);
            }
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode parsed = r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
            return new Reply(r.statusCode(), parsed, r);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Reply get(String path) {
        return call("GET", path, null, null);
    }

    Reply post(String path, String json) {
        return call("POST", path, "application/json", json);
    }

    Reply put(String path, String json) {
        return call("PUT", path, "application/json", json);
    }

    Reply patch(String path, String type, String json) {
        return call("PATCH", path, type, json);
    }

    Reply delete(String path) {
        return call("DELETE", path, null, null);
    }

    static String svc(String name) {
        return svc(name, "{\"name\":\"http\",\"port\":80,\"protocol\":\"TCP\"}");
    }

    static String svc(String name, String ports) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"" + name
                + "\",\"labels\":{\"app\":\"" + name + "\"}},\"spec\":{\"ports\":[" + ports + "]}}";
    }

    static final String SERVICES = "/api/v1/namespaces/default/services";

    /** Polls until the condition holds (the garbage collector works in the background, as in a cluster). */
    static void eventually(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new AssertionError("not reached within 20 s: " + what);
    }
}
