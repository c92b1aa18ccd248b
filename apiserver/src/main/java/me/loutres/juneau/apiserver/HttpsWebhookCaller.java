package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Calls the webhook over HTTPS trusting only the given CA (host name checked against the certificate), with the 5 s
 * timeout of the webhook configurations, over kept-alive HTTP/1.1 connections: one request at a time per connection,
 * as many connections as calls run at once, idle ones reused. A blocking exchange on a TLS socket costs a fraction of
 * the CPU java.net.http's asynchronous pipeline spends per call (measured in BENCHMARKS.md, `juneau up` under load),
 * and every Service create costs two reviews.
 */
public final class HttpsWebhookCaller implements WebhookCaller, AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** Idle connections kept beyond this are closed (the webhook's Jetty closes idle ones after its own timeout). */
    private static final int MAX_IDLE = 64;

    private final URI base;
    private final String host;
    private final int port;
    private final SSLSocketFactory sockets;
    private final ConcurrentLinkedDeque<WebhookConnection> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger idleCount = new AtomicInteger();

    public HttpsWebhookCaller(URI base, String caPem) throws GeneralSecurityException, IOException {
        if (!"https".equals(base.getScheme()) || base.getHost() == null) {
            throw new IllegalArgumentException("the webhook's address must be https://host[:port], got " + base);
        }
        this.base = base;
        this.host = base.getHost();
        this.port = base.getPort() < 0 ? 443 : base.getPort();
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        int i = 0;
        for (var cert : CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)))) {
            trust.setCertificateEntry("ca-" + i++, (X509Certificate) cert);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        this.sockets = ssl.getSocketFactory();
    }

    @Override
    public AdmissionReview call(String path, AdmissionReview review) throws IOException {
        JsonNode answer = post(path, Serialization.asJson(review).getBytes(StandardCharsets.UTF_8));
        return Serialization.unmarshal(answer.toString(), AdmissionReview.class);
    }

    /** The review's JSON goes out as it is and the answer is read as a tree (no binding to the fabric8 model). */
    @Override
    public JsonNode callJson(String path, ObjectNode review) throws IOException {
        return post(path, Json.MAPPER.writeValueAsBytes(review));
    }

    private JsonNode post(String path, byte[] body) throws IOException {
        URI uri = base.resolve(path);
        String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            WebhookConnection c = idle.pollFirst();
            boolean reused = c != null;
            if (reused) {
                idleCount.decrementAndGet();
            } else {
                try {
                    c = WebhookConnection.open(sockets, host, port, TIMEOUT);
                } catch (IOException e) {
                    throw new IOException(uri + ": " + e.getMessage(), e);
                }
            }
            WebhookConnection.Response response;
            try {
                response = c.post(target, body, deadline);
            } catch (WebhookConnection.StaleConnectionException e) {
                c.close();
                if (reused) {
                    continue; // closed by the webhook while idle, before it answered a byte: send the review again
                }
                throw new IOException(uri + ": " + e.getMessage(), e);
            } catch (java.net.SocketTimeoutException e) {
                c.close();
                throw new IOException(uri + ": no answer within " + TIMEOUT.toSeconds() + " s (the webhook timeout)", e);
            } catch (IOException e) {
                c.close();
                throw new IOException(uri + ": " + e.getMessage(), e);
            }
            boolean reusable = response.keepAlive() && c.clean();
            if (reusable && idleCount.incrementAndGet() <= MAX_IDLE) {
                idle.offerFirst(c);
            } else {
                if (reusable) {
                    idleCount.decrementAndGet();
                }
                c.close();
            }
            if (response.status() != 200) {
                throw new IOException(uri + " answered HTTP " + response.status() + ": "
                        + new String(response.body(), StandardCharsets.UTF_8).lines().findFirst().orElse(""));
            }
            return Json.MAPPER.readTree(response.body());
        }
    }

    /** Closes the idle connections (a call after this opens a new one). */
    @Override
    public void close() {
        for (WebhookConnection c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
            idleCount.decrementAndGet();
            c.close();
        }
    }
}
