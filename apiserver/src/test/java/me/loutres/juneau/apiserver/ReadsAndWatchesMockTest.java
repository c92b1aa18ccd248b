package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Lists, selectors and watches. Sources: "Labels and Selectors" (set-based requirements), "Field Selectors"
 * (supported fields per kind; an unsupported one is an error), "API Concepts" (Efficient detection of changes:
 * watch, resourceVersion semantics, 410 Gone, bookmarks, sendInitialEvents; Retrieving large results in chunks).
 */
class ReadsAndWatchesMockTest extends ApiServerFixture {
    private static final String CM = "/api/v1/namespaces/default/configmaps";

    private List<String> names(String query) {
        Reply r = get(CM + "?" + query);
        assertThat(r.code()).as(r.body().toString()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        r.body().path("items").forEach(i -> out.add(i.path("metadata").path("name").asText()));
        return out;
    }

    /** A client's mistake in a read's query is a 400 naming the parameter, never a 500. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "?limit=ten | limit: Invalid value: \"ten\"",
            "?continue=%21%21 | continue key is not valid",
            "?fieldSelector=spec.nothing%3Dx | spec.nothing",
            "?watch=true&resourceVersion=abc | resourceVersion: Invalid value: \"abc\"",
            "?watch=true&timeoutSeconds=soon | timeoutSeconds: must be an integer"})
    void aBadReadParameterIsABadRequest(String query, String said) {
        Reply r = get(CM + query);
        assertThat(r.code()).as(query + " " + r.body()).isEqualTo(400);
        assertThat(r.body().path("kind").asText()).isEqualTo("Status");
        assertThat(r.body().path("message").asText()).contains(said);
    }

    @Test
    void setBasedLabelSelectorsFilter() {
        post(CM, "{\"metadata\":{\"name\":\"sel-a\",\"labels\":{\"sel\":\"1\",\"env\":\"prod\"}}}");
        post(CM, "{\"metadata\":{\"name\":\"sel-b\",\"labels\":{\"sel\":\"1\",\"env\":\"dev\"}}}");
        post(CM, "{\"metadata\":{\"name\":\"sel-c\",\"labels\":{\"sel\":\"1\"}}}");
        assertThat(names("labelSelector=sel%3D1,env%20in%20(prod,qa)")).containsExactly("sel-a");
        assertThat(names("labelSelector=sel%3D1,env%20notin%20(prod)")).containsExactly("sel-b", "sel-c");
        assertThat(names("labelSelector=sel%3D1,!env")).containsExactly("sel-c");
        assertThat(names("labelSelector=sel%3D1,env")).containsExactly("sel-a", "sel-b");
        assertThat(names("labelSelector=sel%3D1,env!%3Ddev")).containsExactly("sel-a", "sel-c");
        assertThat(get(CM + "?labelSelector=a%20in%20(").code()).isEqualTo(400);
    }

    @Test
    void fieldSelectorsOnNameAndEventsInvolvedObject() {
        post(CM, "{\"metadata\":{\"name\":\"field-x\"}}");
        assertThat(names("fieldSelector=metadata.name%3Dfield-x")).containsExactly("field-x");
        String events = "/api/v1/namespaces/default/events";
        post(events, "{\"metadata\":{\"name\":\"e1\"},\"involvedObject\":{\"kind\":\"Service\",\"name\":\"web\","
                + "\"namespace\":\"default\"},\"reason\":\"IPAllocated\",\"type\":\"Normal\"}");
        post(events, "{\"metadata\":{\"name\":\"e2\"},\"involvedObject\":{\"kind\":\"Service\",\"name\":\"db\","
                + "\"namespace\":\"default\"},\"reason\":\"IPAllocated\",\"type\":\"Normal\"}");
        Reply r = get(events + "?fieldSelector=involvedObject.name%3Dweb,involvedObject.kind%3DService");
        assertThat(r.body().path("items")).hasSize(1);
        assertThat(r.body().path("items").get(0).path("metadata").path("name").asText()).isEqualTo("e1");
        Reply unsupported = get(CM + "?fieldSelector=data.x%3Dy");
        assertThat(unsupported.code()).isEqualTo(400);
        assertThat(unsupported.message()).isEqualTo("field label not supported: data.x");
    }

    @Test
    void listsComeInChunksWithAContinueToken() {
        for (int i = 0; i < 5; i++) {
            post(CM, "{\"metadata\":{\"name\":\"chunk-" + i + "\",\"labels\":{\"chunk\":\"y\"}}}");
        }
        Reply first = get(CM + "?labelSelector=chunk%3Dy&limit=3");
        assertThat(first.body().path("items")).hasSize(3);
        String cont = first.body().path("metadata").path("continue").asText();
        assertThat(cont).isNotEmpty();
        Reply second = get(CM + "?labelSelector=chunk%3Dy&limit=3&continue=" + cont);
        assertThat(second.body().path("items")).hasSize(2);
        assertThat(second.body().path("metadata").has("continue")).isFalse();
    }

    /** Reads watch lines until {@code count} events arrived. */
    private List<JsonNode> watch(String query, int count, Runnable afterOpen) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(server.url() + CM + "?watch=true&" + query))
                .header("Authorization", "Bearer " + Identities.ADMIN_TOKEN).timeout(Duration.ofSeconds(30)).build();
        HttpResponse<InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        List<JsonNode> events = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            afterOpen.run();
            String line;
            while (events.size() < count && (line = in.readLine()) != null) {
                events.add(JSON.readTree(line));
            }
        }
        return events;
    }

    @Test
    void anHttpWatchStreamsEventsAfterTheResourceVersionGiven() throws Exception {
        String rv = post(CM, "{\"metadata\":{\"name\":\"w-1\",\"labels\":{\"w\":\"t\"}}}").body().path("metadata")
                .path("resourceVersion").asText();
        List<JsonNode> events = watch("labelSelector=w%3Dt&resourceVersion=" + rv, 3, () -> {
            post(CM, "{\"metadata\":{\"name\":\"w-2\",\"labels\":{\"w\":\"t\"}}}");
            patch(CM + "/w-1", "application/merge-patch+json", "{\"data\":{\"k\":\"v\"}}");
            delete(CM + "/w-2");
        });
        assertThat(events).extracting(e -> e.path("type").asText() + " " + e.path("object").path("metadata")
                .path("name").asText()).containsExactly("ADDED w-2", "MODIFIED w-1", "DELETED w-2");
    }

    @Test
    void aWatchWithoutResourceVersionStartsWithTheCurrentObjectsAndSeesLabelChangesAsAddOrDelete()
            throws Exception {
        post(CM, "{\"metadata\":{\"name\":\"wl-1\",\"labels\":{\"wl\":\"in\"}}}");
        List<JsonNode> events = watch("labelSelector=wl%3Din", 3, () -> {
            patch(CM + "/wl-1", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"wl\":\"out\"}}}");
            patch(CM + "/wl-1", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"wl\":\"in\"}}}");
        });
        assertThat(events).extracting(e -> e.path("type").asText()).containsExactly("ADDED", "DELETED", "ADDED");
    }

    /**
     * kube-apiserver serves a watch over WebSocket when the request asks for the upgrade (one JSON event per
     * message); client libraries such as fabric8's ask for that first.
     */
    @Test
    void aWatchAskedOverWebSocketStreamsOneEventPerMessageIncludingSelectorTransitions() throws Exception {
        post(CM, "{\"metadata\":{\"name\":\"ws-1\",\"labels\":{\"ws\":\"in\"}}}");
        java.util.concurrent.BlockingQueue<String> messages = new java.util.concurrent.LinkedBlockingQueue<>();
        StringBuilder partial = new StringBuilder();
        java.net.http.WebSocket socket = http.newWebSocketBuilder()
                .header("Authorization", "Bearer " + Identities.ADMIN_TOKEN)
                .buildAsync(URI.create(server.url().replace("https:", "wss:") + CM + "?watch=true&labelSelector=ws%3Din"),
                        new java.net.http.WebSocket.Listener() {
                            @Override
                            public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket ws,
                                    CharSequence data, boolean last) {
                                partial.append(data);
                                if (last) {
                                    messages.add(partial.toString());
                                    partial.setLength(0);
                                }
                                ws.request(1);
                                return null;
                            }
                        }).get(20, java.util.concurrent.TimeUnit.SECONDS);
        try {
            List<String> seen = new ArrayList<>();
            seen.add(next(messages));
            patch(CM + "/ws-1", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"ws\":\"out\"}}}");
            seen.add(next(messages));
            patch(CM + "/ws-1", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"ws\":\"in\"}}}");
            seen.add(next(messages));
            patch(CM + "/ws-1", "application/merge-patch+json", "{\"data\":{\"k\":\"v\"}}");
            seen.add(next(messages));
            assertThat(seen).extracting(m -> {
                JsonNode e = JSON.readTree(m);
                return e.path("type").asText() + " " + e.path("object").path("metadata").path("name").asText();
            }).containsExactly("ADDED ws-1", "DELETED ws-1", "ADDED ws-1", "MODIFIED ws-1");
        } finally {
            socket.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "done");
        }
    }

    private static String next(java.util.concurrent.BlockingQueue<String> messages) throws InterruptedException {
        String m = messages.poll(20, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(m).as("a watch event within 20 s").isNotNull();
        return m;
    }

    @Test
    void sendInitialEventsEndsTheInitialListWithABookmark() throws Exception {
        post(CM, "{\"metadata\":{\"name\":\"init-1\",\"labels\":{\"init\":\"y\"}}}");
        List<JsonNode> events = watch("labelSelector=init%3Dy&sendInitialEvents=true&allowWatchBookmarks=true"
                + "&resourceVersionMatch=NotOlderThan", 2, () -> {
                });
        assertThat(events.get(0).path("type").asText()).isEqualTo("ADDED");
        assertThat(events.get(1).path("type").asText()).isEqualTo("BOOKMARK");
        assertThat(events.get(1).path("object").path("metadata").path("annotations")
                .path("k8s.io/initial-events-end").asText()).isEqualTo("true");
    }

    @Test
    void requestsAreServedWhileWatchesAreOpenAndInParallel() throws Exception {
        // an open watch holds one thread; other requests go on (the stock mock served one request at a time)
        HttpRequest req = HttpRequest.newBuilder(URI.create(server.url() + CM + "?watch=true&timeoutSeconds=30"))
                .header("Authorization", "Bearer " + Identities.ADMIN_TOKEN).build();
        List<java.util.concurrent.CompletableFuture<HttpResponse<InputStream>>> open = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            open.add(http.sendAsync(req, HttpResponse.BodyHandlers.ofInputStream()));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Integer>> creates = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int n = i;
                creates.add(() -> post(CM, "{\"metadata\":{\"name\":\"par-" + n + "\"}}").code());
            }
            List<Integer> codes = new ArrayList<>();
            for (Future<Integer> f : pool.invokeAll(creates)) {
                codes.add(f.get());
            }
            assertThat(codes).containsOnly(201);
        } finally {
            pool.shutdownNow();
            open.forEach(f -> f.thenAccept(r -> {
                try {
                    r.body().close();
                } catch (java.io.IOException ignored) {
                    // closing the test's own watch streams
                }
            }));
        }
        assertThat(names("").stream().filter(n -> n.startsWith("par-"))).hasSize(40);
    }
}
