package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PemTest {
    static CertificateAndKey ca;
    static CertificateAndKey serving;

    @BeforeAll
    static void material() {
        ca = CertificateIssuer.createCa("ca", Duration.ofDays(10), Instant.now());
        serving = CertificateIssuer.issueServing(ca, "web", "ns1", List.of(), List.of(), Duration.ofDays(5), Instant.now());
    }

    @Test
    void certificatesRoundTripInOrder() throws Exception {
        String pem = Pem.certificates(List.of(serving.leaf(), ca.leaf()));
        assertThat(Pem.readCertificates(pem)).containsExactly(serving.leaf(), ca.leaf());
    }

    @Test
    void readsCertificatesOpensslWrote(@TempDir Path dir) throws Exception {
        Path in = OpenSsl.write(dir, "in.crt", ca.certificatePem());
        Path der = dir.resolve("ca.der");
        OpenSsl.ok("x509", "-in", in.toString(), "-outform", "DER", "-out", der.toString());
        Path back = dir.resolve("back.pem");
        OpenSsl.ok("x509", "-in", der.toString(), "-inform", "DER", "-out", back.toString());
        assertThat(Pem.readCertificates(Files.readString(back))).containsExactly(ca.leaf());
    }

    /** Keys openssl generates in each accepted encoding, so the reader is checked against a foreign writer. */
    static Stream<Arguments> opensslKeys() {
        return Stream.of(
                Arguments.of("EC PKCS#8", List.of("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"), List.<String>of(), "BEGIN PRIVATE KEY"),
                Arguments.of("EC SEC1", List.of("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"),
                        List.of("ec", "-outform", "PEM"), "BEGIN EC PRIVATE KEY"),
                Arguments.of("RSA PKCS#8", List.of("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"), List.<String>of(), "BEGIN PRIVATE KEY"),
                Arguments.of("RSA PKCS#1", List.of("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"),
                        List.of("rsa", "-traditional"), "BEGIN RSA PRIVATE KEY"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("opensslKeys")
    void readsPrivateKeysInEveryEncodingOpensslWrites(String label, List<String> gen, List<String> convert, String header,
                                                      @TempDir Path dir) throws Exception {
        Path key = dir.resolve("key.pem");
        var genArgs = new java.util.ArrayList<>(gen);
        genArgs.addAll(List.of("-out", key.toString()));
        OpenSsl.ok(genArgs.toArray(String[]::new));
        if (!convert.isEmpty()) {
            Path converted = dir.resolve("converted.pem");
            var conv = new java.util.ArrayList<>(convert);
            conv.addAll(List.of("-in", key.toString(), "-out", converted.toString()));
            OpenSsl.ok(conv.toArray(String[]::new));
            key = converted;
        }
        String text = Files.readString(key);
        assertThat(text).contains(header);
        PrivateKey parsed = Pem.readPrivateKey(text);
        // writing it back as PKCS#8 must give openssl the same public key
        Path ours = OpenSsl.write(dir, "ours.pem", Pem.privateKey(parsed));
        assertThat(OpenSsl.ok("pkey", "-in", ours.toString(), "-pubout"))
                .isEqualTo(OpenSsl.ok("pkey", "-in", key.toString(), "-pubout"));
    }

    static Stream<Arguments> badCertificates() {
        return Stream.of(
                Arguments.of("", "the text is empty"),
                Arguments.of("hello", "no PEM certificate found"),
                Arguments.of("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "unreadable PEM certificate"),
                Arguments.of("-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n", "unreadable PEM certificate"),
                Arguments.of("-----BEGIN CERTIFICATE-----\nMIIB\n", "unreadable PEM certificate"));
    }

    @ParameterizedTest
    @MethodSource("badCertificates")
    void badCertificateTextGivesOneLine(String text, String message) {
        assertThatThrownBy(() -> Pem.readCertificates(text))
                .isInstanceOf(InvalidTlsMaterialException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void keyFileWithTwoKeysIsRefused() {
        String two = serving.keyPem() + ca.keyPem();
        assertThatThrownBy(() -> Pem.readPrivateKey(two)).hasMessageContaining("more than one PEM private key");
    }

    @Test
    void certificateGivenAsKeyIsRefused() {
        assertThatThrownBy(() -> Pem.readPrivateKey(ca.certificatePem())).hasMessageContaining("no PEM private key found");
    }

    @Test
    void encryptedKeyIsRefused(@TempDir Path dir) throws Exception {
        Path plain = OpenSsl.write(dir, "k.pem", serving.keyPem());
        Path enc = dir.resolve("enc.pem");
        OpenSsl.ok("pkcs8", "-topk8", "-in", plain.toString(), "-out", enc.toString(), "-passout", "pass:secret");
        assertThatThrownBy(() -> Pem.readPrivateKey(Files.readString(enc))).hasMessageContaining("encrypted");
    }

    @Test
    void corruptKeyMessageNeverQuotesTheKey() {
        String key = serving.keyPem();
        String body = key.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
        String corrupt = key.replace(body, body.substring(0, 20) + "!!" + body.substring(22));
        assertThatThrownBy(() -> Pem.readPrivateKey(corrupt))
                .isInstanceOf(InvalidTlsMaterialException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(body.substring(0, 20)).doesNotContain("\n"));
    }
}
