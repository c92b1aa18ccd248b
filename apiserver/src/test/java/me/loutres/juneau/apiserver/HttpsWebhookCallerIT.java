package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.CertificateIssuer;
import me.loutres.juneau.tls.KeyStores;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The API server's webhook client against a real Jetty HTTPS server: answers read by Content-Length and by chunks,
 * one kept-alive connection for calls in a row, a connection the server closed while idle replaced without the
 * caller noticing, and the failures a webhook configuration turns into a refused write (untrusted certificate,
 * a non-200 answer, no answer within the timeout).
 */
class HttpsWebhookCallerIT {
    private static final Instant NOW = Instant.now();
    private static final CertificateAndKey CA = CertificateIssuer.createCa("webhook-test-ca", Duration.ofDays(1), NOW);

    private Server server;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicReference<String> lastBody = new AtomicReference<>();

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** An answer handler: what the test server writes for each POST. */
    private interface Answer {
        void write(Response response, Callback callback) throws Exception;
    }

    private URI serve(long idleTimeoutMillis, Answer answer) throws Exception {
        CertificateAndKey serving = CertificateIssuer.issueServing(CA, "webhook", "test", List.of("localhost"),
                List.of("127.0.0.1"), Duration.ofDays(1), NOW);
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(KeyStores.of(serving, "test".toCharArray()));
        ssl.setKeyStorePassword("test");
        server = new Server();
        server.setStopTimeout(0); // no graceful wait: the caller keeps its connections open
        ServerConnector connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"),
                new HttpConnectionFactory(new HttpConfiguration()));
        connector.setHost("127.0.0.1");
        connector.setIdleTimeout(idleTimeoutMillis);
        connector.addEventListener(new Connection.Listener() {
            @Override
            public void onOpened(Connection connection) {
                if (connection instanceof org.eclipse.jetty.io.ssl.SslConnection) {
                    connections.incrementAndGet();
                }
            }
        });
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                lastBody.set(Content.Source.asString(request, StandardCharsets.UTF_8));
                answer.write(response, callback);
                return true;
            }
        });
        server.start();
        return URI.create("https://127.0.0.1:" + connector.getLocalPort());
    }

    private static Answer allowing(boolean chunked) {
        return (response, callback) -> {
            byte[] body = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"response\":{\"uid\":\"u\",\"allowed\":true}}"
                    .getBytes(StandardCharsets.UTF_8);
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            if (!chunked) {
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
                response.write(true, ByteBuffer.wrap(body), callback);
                return;
            }
            // two writes before the end: Jetty sends the answer in chunks
            int half = body.length / 2;
            response.write(false, ByteBuffer.wrap(body, 0, half), Callback.from(
                    () -> response.write(true, ByteBuffer.wrap(body, half, body.length - half), callback),
                    callback::failed));
        };
    }

    private static ObjectNode review() {
        ObjectNode review = Json.MAPPER.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                .put("kind", "AdmissionReview");
        review.putObject("request").put("uid", "u").put("operation", "CREATE");
        return review;
    }

    @Test
    void callsInARowShareOneKeptAliveConnectionAndTheReviewArrivesAsSent() throws Exception {
        HttpsWebhookCaller caller = new HttpsWebhookCaller(serve(30_000, allowing(false)), CA.certificatePem());
        for (int i = 0; i < 5; i++) {
            JsonNode answer = caller.callJson("/validate/services", review());
            assertThat(answer.path("response").path("allowed").asBoolean()).isTrue();
        }
        assertThat(connections).hasValue(1);
        assertThat(Json.MAPPER.readTree(lastBody.get())).isEqualTo(review());
    }

    @Test
    void aChunkedAnswerIsReadWhole() throws Exception {
        HttpsWebhookCaller caller = new HttpsWebhookCaller(serve(30_000, allowing(true)), CA.certificatePem());
        JsonNode first = caller.callJson("/mutate/services", review());
        JsonNode second = caller.callJson("/mutate/services", review());
        assertThat(first.path("response").path("uid").asText()).isEqualTo("u");
        assertThat(second).isEqualTo(first);
        assertThat(connections).hasValue(1);
    }

    @Test
    void aConnectionTheWebhookClosedWhileIdleIsReplacedWithoutAFailure() throws Exception {
        HttpsWebhookCaller caller = new HttpsWebhookCaller(serve(200, allowing(false)), CA.certificatePem());
        caller.callJson("/validate/services", review());
        Thread.sleep(1_000); // past the server's idle timeout: it closed the connection
        JsonNode answer = caller.callJson("/validate/services", review());
        assertThat(answer.path("response").path("allowed").asBoolean()).isTrue();
        assertThat(connections).hasValue(2);
    }

    @Test
    void aServerWhoseCertificateTheCaDidNotSignIsRefused() throws Exception {
        URI base = serve(30_000, allowing(false));
        CertificateAndKey other = CertificateIssuer.createCa("another-ca", Duration.ofDays(1), NOW);
        HttpsWebhookCaller caller = new HttpsWebhookCaller(base, other.certificatePem());
        assertThatThrownBy(() -> caller.callJson("/validate/services", review())).isInstanceOf(IOException.class)
                .hasMessageContaining(base.toString());
    }

    @Test
    void aNon200AnswerIsAnErrorNamingTheStatusAndItsFirstLine() throws Exception {
        HttpsWebhookCaller caller = new HttpsWebhookCaller(serve(30_000, (response, callback) -> {
            response.setStatus(503);
            response.write(true, ByteBuffer.wrap("overloaded\nmore".getBytes(StandardCharsets.UTF_8)), callback);
        }), CA.certificatePem());
        assertThatThrownBy(() -> caller.callJson("/validate/services", review())).isInstanceOf(IOException.class)
                .hasMessageContaining("answered HTTP 503: overloaded").hasMessageNotContaining("more");
    }

    @Test
    void noAnswerWithinTheTimeoutFailsTheCall() throws Exception {
        HttpsWebhookCaller caller = new HttpsWebhookCaller(serve(30_000, (response, callback) -> {
            // never answers
        }), CA.certificatePem());
        assertThatThrownBy(() -> caller.callJson("/validate/services", review())).isInstanceOf(IOException.class)
                .hasMessageContaining("no answer within 5 s");
    }
}
