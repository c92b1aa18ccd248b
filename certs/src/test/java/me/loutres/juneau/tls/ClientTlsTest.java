package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;

class ClientTlsTest {
    private static final CertificateAndKey CA = CertificateIssuer.createCa("client-tls-test", Duration.ofDays(1),
            Instant.now());

    private static X509Certificate[] servingChain(CertificateAndKey ca) {
        return CertificateIssuer.issueServing(ca, "juneau-webhook", "juneau-system", List.of("localhost"),
                List.of("127.0.0.1"), Duration.ofHours(1), Instant.now()).chain().toArray(X509Certificate[]::new);
    }

    @Test
    void aServerCertificateOfTheCaIsTrusted() throws Exception {
        X509TrustManager tm = ClientTls.trustManager(CA.leaf());

        assertThatCode(() -> tm.checkServerTrusted(servingChain(CA), "UNKNOWN")).doesNotThrowAnyException();
        assertThat(tm.getAcceptedIssuers()).containsExactly(CA.leaf());
    }

    @Test
    void aServerCertificateOfAnotherCaIsRefused() throws Exception {
        CertificateAndKey other = CertificateIssuer.createCa("client-tls-test-other", Duration.ofDays(1), Instant.now());
        X509TrustManager tm = ClientTls.trustManager(CA.leaf());

        assertThatThrownBy(() -> tm.checkServerTrusted(servingChain(other), "UNKNOWN"))
                .isInstanceOf(CertificateException.class);
    }
}
