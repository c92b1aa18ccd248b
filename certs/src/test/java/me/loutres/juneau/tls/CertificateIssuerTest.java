package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class CertificateIssuerTest {
    static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    static CertificateAndKey ca;

    @BeforeAll
    static void createCa() {
        ca = CertificateIssuer.createCa("juneau-webhook-ca", Duration.ofDays(3650), Instant.now());
    }

    @Test
    void servingCertificateVerifiesAgainstItsCaWithOpenssl(@TempDir Path dir) throws Exception {
        CertificateAndKey serving = CertificateIssuer.issueServing(ca, "juneau-webhook", "juneau-system",
                List.of("webhook.example.org"), List.of("10.0.0.5", "fd00::5"), Duration.ofDays(90), Instant.now());
        Path caFile = OpenSsl.write(dir, "ca.crt", ca.certificatePem());
        Path crt = OpenSsl.write(dir, "tls.crt", serving.certificatePem());

        String verify = OpenSsl.ok("verify", "-CAfile", caFile.toString(), "-purpose", "sslserver", crt.toString());
        assertThat(verify).contains(": OK");

        String text = OpenSsl.ok("x509", "-in", crt.toString(), "-noout", "-text");
        assertThat(text)
                .contains("DNS:juneau-webhook, DNS:juneau-webhook.juneau-system, DNS:juneau-webhook.juneau-system.svc, "
                        + "DNS:juneau-webhook.juneau-system.svc.cluster.local, DNS:webhook.example.org, "
                        + "IP Address:10.0.0.5, IP Address:FD00:0:0:0:0:0:0:5")
                .contains("ASN1 OID: prime256v1")
                .contains("TLS Web Server Authentication")
                .contains("CA:FALSE");
        String caText = OpenSsl.ok("x509", "-in", caFile.toString(), "-noout", "-text");
        assertThat(caText).contains("CA:TRUE, pathlen:0").contains("Certificate Sign, CRL Sign");
    }

    @Test
    void opensslHostnameCheckAcceptsEachOfTheFourServiceNames(@TempDir Path dir) throws Exception {
        CertificateAndKey serving = CertificateIssuer.issueServing(ca, "web", "ns1", List.of(), List.of(),
                Duration.ofDays(30), Instant.now());
        Path caFile = OpenSsl.write(dir, "ca.crt", ca.certificatePem());
        Path crt = OpenSsl.write(dir, "tls.crt", serving.certificatePem());
        for (String host : List.of("web", "web.ns1", "web.ns1.svc", "web.ns1.svc.cluster.local")) {
            OpenSsl.ok("verify", "-CAfile", caFile.toString(), "-verify_hostname", host, crt.toString());
        }
        OpenSsl.Result wrong = OpenSsl.run("verify", "-CAfile", caFile.toString(), "-verify_hostname", "web.other",
                crt.toString());
        assertThat(wrong.exitCode()).isNotZero();
        assertThat(wrong.output()).contains("hostname mismatch");
    }

    @Test
    void opensslRejectsServingCertificateAgainstAnotherCa(@TempDir Path dir) throws Exception {
        CertificateAndKey otherCa = CertificateIssuer.createCa("other", Duration.ofDays(10), Instant.now());
        CertificateAndKey serving = CertificateIssuer.issueServing(ca, "web", "ns1", List.of(), List.of(),
                Duration.ofDays(30), Instant.now());
        OpenSsl.Result r = OpenSsl.run("verify", "-CAfile", OpenSsl.write(dir, "other.crt", otherCa.certificatePem()).toString(),
                OpenSsl.write(dir, "tls.crt", serving.certificatePem()).toString());
        assertThat(r.exitCode()).isNotZero();
    }

    @Test
    void opensslReadsOurPkcs8KeyAndFindsTheSamePublicKey(@TempDir Path dir) throws Exception {
        CertificateAndKey serving = CertificateIssuer.issueServing(ca, "web", "ns1", List.of(), List.of(),
                Duration.ofDays(30), Instant.now());
        Path key = OpenSsl.write(dir, "tls.key", serving.keyPem());
        Path crt = OpenSsl.write(dir, "tls.crt", serving.certificatePem());
        String fromKey = OpenSsl.ok("pkey", "-in", key.toString(), "-pubout");
        String fromCert = OpenSsl.ok("x509", "-in", crt.toString(), "-noout", "-pubkey");
        assertThat(fromKey).isEqualTo(fromCert);
        assertThat(serving.keyPem()).startsWith("-----BEGIN PRIVATE KEY-----\n");
    }

    @ParameterizedTest
    @EnumSource(KeyAlgorithm.class)
    void everyKeyAlgorithmProducesAVerifiableChain(KeyAlgorithm algorithm, @TempDir Path dir) throws Exception {
        CertificateAndKey myCa = CertificateIssuer.createCa("ca-" + algorithm, Duration.ofDays(10), Instant.now(), algorithm);
        CertificateAndKey serving = CertificateIssuer.issueServing(myCa, "web", "ns1", List.of(), List.of(),
                Duration.ofDays(5), Instant.now(), algorithm);
        OpenSsl.ok("verify", "-CAfile", OpenSsl.write(dir, "ca.crt", myCa.certificatePem()).toString(),
                OpenSsl.write(dir, "tls.crt", serving.certificatePem()).toString());
        assertThat(serving.leaf().getPublicKey().getAlgorithm()).isEqualTo(algorithm == KeyAlgorithm.RSA_2048 ? "RSA" : "EC");
        assertThat(KeyStores.keyMatches(serving.leaf(), serving.key())).isTrue();
    }

    @Test
    void lifetimeIsConfigurableAndNotBeforeIsBackdatedForClockSkew() {
        CertificateAndKey c = CertificateIssuer.issueServing(ca, "web", "ns1", List.of(), List.of(), Duration.ofHours(6), NOW);
        X509Certificate leaf = c.leaf();
        assertThat(leaf.getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofHours(6)));
        assertThat(leaf.getNotBefore().toInstant()).isEqualTo(NOW.minus(CertificateIssuer.CLOCK_SKEW_ALLOWANCE));
    }

    @Test
    void servingCertificateNeverOutlivesItsCa() {
        CertificateAndKey shortCa = CertificateIssuer.createCa("short", Duration.ofDays(2), NOW);
        CertificateAndKey c = CertificateIssuer.issueServing(shortCa, "web", "ns1", List.of(), List.of(), Duration.ofDays(365), NOW);
        assertThat(c.leaf().getNotAfter()).isEqualTo(shortCa.leaf().getNotAfter());
    }

    @Test
    void subjectAlternativeNamesAreTheFourServiceNamesFirst() throws Exception {
        CertificateAndKey c = CertificateIssuer.issueServing(ca, "web", "ns1", List.of("Web", "extra.example"), List.of(),
                Duration.ofDays(1), NOW);
        Collection<List<?>> sans = c.leaf().getSubjectAlternativeNames();
        assertThat(sans.stream().map(l -> (Object) l.get(1)).toList())
                .containsExactly((Object[]) new String[] {"web", "web.ns1", "web.ns1.svc", "web.ns1.svc.cluster.local", "extra.example"});
        assertThat(c.chain()).hasSize(1);
        assertThat(c.leaf().getIssuerX500Principal()).isEqualTo(ca.leaf().getSubjectX500Principal());
    }

    static Stream<Arguments> badInputs() {
        return Stream.of(
                Arguments.of("Web", "ns1", List.of(), List.of(), Duration.ofDays(1), "service 'Web' is not a DNS-1123 label"),
                Arguments.of("web", "ns_1", List.of(), List.of(), Duration.ofDays(1), "namespace 'ns_1' is not a DNS-1123 label"),
                Arguments.of("web", "ns1", List.of("bad name"), List.of(), Duration.ofDays(1), "extra DNS name 'bad name'"),
                Arguments.of("web", "ns1", List.of(), List.of("10.0.0.256"), Duration.ofDays(1), "extra IP '10.0.0.256'"),
                Arguments.of("web", "ns1", List.of(), List.of("example.org"), Duration.ofDays(1), "extra IP 'example.org'"),
                Arguments.of("web", "ns1", List.of(), List.of(), Duration.ofSeconds(10), "lifetime 'PT10S' is too short"),
                Arguments.of("web", "ns1", List.of(), List.of(), Duration.ofDays(-1), "is too short"));
    }

    @ParameterizedTest
    @MethodSource("badInputs")
    void badInputIsRefusedWithAMessageNamingTheField(String svc, String ns, List<String> dns, List<String> ips,
                                                      Duration lifetime, String message) {
        assertThatThrownBy(() -> CertificateIssuer.issueServing(ca, svc, ns, dns, ips, lifetime, NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void expiredCaCannotIssue() {
        CertificateAndKey old = CertificateIssuer.createCa("old", Duration.ofDays(1), NOW.minus(Duration.ofDays(3)));
        assertThatThrownBy(() -> CertificateIssuer.issueServing(old, "web", "ns1", List.of(), List.of(), Duration.ofDays(1), NOW))
                .hasMessageContaining("expired").hasMessageContaining("create a new CA");
    }

    @Test
    void toStringHidesTheKey() {
        CertificateAndKey c = CertificateIssuer.issueServing(ca, "web", "ns1", List.of(), List.of(), Duration.ofDays(1), NOW);
        String body = c.keyPem().lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
        assertThat(c.toString()).contains("hidden").doesNotContain(body);
    }
}
