package me.loutres.juneau.apiserver;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Calls the webhook over HTTPS trusting only the given CA, with the 5 s timeout of the webhook configurations. */
public final class HttpsWebhookCaller implements WebhookCaller {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final URI base;
    private final HttpClient http;

    public HttpsWebhookCaller(URI base, String caPem) throws GeneralSecurityException, IOException {
        this.base = base;
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
        this.http = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(TIMEOUT).build();
    }

    @Override
    public AdmissionReview call(String path, AdmissionReview review) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Serialization.asJson(review))).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while calling " + request.uri(), e);
        }
        if (response.statusCode() != 200) {
            throw new IOException(request.uri() + " answered HTTP " + response.statusCode() + ": "
                    + response.body().lines().findFirst().orElse(""));
        }
        return Serialization.unmarshal(response.body(), AdmissionReview.class);
    }
}
