package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class KeyStoresTest {
    static CertificateAndKey ca;
    static CertificateAndKey serving;
    static CertificateAndKey other;

    @BeforeAll
    static void material() {
        ca = CertificateIssuer.createCa("ca", Duration.ofDays(10), Instant.now());
        serving = CertificateIssuer.issueServing(ca, "web", "ns1", List.of(), List.of(), Duration.ofDays(5), Instant.now());
        other = CertificateIssuer.issueServing(ca, "web", "ns1", List.of(), List.of(), Duration.ofDays(5), Instant.now());
    }

    @Test
    void keyStoreHoldsTheChainAndTheKey() throws Exception {
        char[] pw = "changeit".toCharArray();
        KeyStore ks = KeyStores.fromPem(Pem.certificates(List.of(serving.leaf(), ca.leaf())), serving.keyPem(), pw);
        assertThat(ks.getType()).isEqualToIgnoringCase("PKCS12");
        assertThat(ks.getCertificateChain(KeyStores.ALIAS)).containsExactly(new Certificate[] {serving.leaf(), ca.leaf()});
        assertThat(ks.getKey(KeyStores.ALIAS, pw)).isEqualTo(serving.key());
    }

    @Test
    void mismatchedPairIsRefusedWithoutQuotingTheKey() {
        String keyPem = other.keyPem();
        assertThatThrownBy(() -> KeyStores.fromPem(serving.certificatePem(), keyPem, new char[0]))
                .isInstanceOf(InvalidTlsMaterialException.class)
                .hasMessageContaining("does not match the certificate")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(keyPem.lines().skip(1).findFirst().orElseThrow()));
    }

    @Test
    void keyMatchesOnlyItsOwnCertificate() {
        assertThat(KeyStores.keyMatches(serving.leaf(), serving.key())).isTrue();
        assertThat(KeyStores.keyMatches(serving.leaf(), other.key())).isFalse();
        assertThat(KeyStores.keyMatches(ca.leaf(), serving.key())).isFalse();
        CertificateAndKey rsa = CertificateIssuer.createCa("rsa", Duration.ofDays(1), Instant.now(), KeyAlgorithm.RSA_2048);
        assertThat(KeyStores.keyMatches(serving.leaf(), rsa.key())).isFalse();
        assertThat(KeyStores.keyMatches(rsa.leaf(), rsa.key())).isTrue();
    }
}
