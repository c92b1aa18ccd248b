package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK-only reader answers for every well-formed encoding a server is given (so the webhook starts without loading
 * BouncyCastle), reads the same key openssl does, and stays silent on anything else, leaving it to the strict reader.
 */
class JdkPemTest {
    static CertificateAndKey ca;
    static CertificateAndKey serving;

    @BeforeAll
    static void material() {
        PemTest.material();
        ca = PemTest.ca;
        serving = PemTest.serving;
    }

    static Stream<Arguments> opensslKeys() {
        return Stream.of(
                Arguments.of("EC PKCS#8", List.of("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"), List.<String>of()),
                Arguments.of("EC P-384 SEC1", List.of("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"),
                        List.of("ec", "-outform", "PEM")),
                Arguments.of("EC SEC1 with parameters first", List.of("ecparam", "-name", "prime256v1", "-genkey"), List.<String>of()),
                Arguments.of("RSA PKCS#8", List.of("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"), List.<String>of()),
                Arguments.of("RSA PKCS#1", List.of("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"),
                        List.of("rsa", "-traditional")),
                Arguments.of("Ed25519 PKCS#8", List.of("genpkey", "-algorithm", "ED25519"), List.<String>of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("opensslKeys")
    void readsEveryKeyEncodingOpensslWritesAsOpensslDoes(String label, List<String> gen, List<String> convert,
                                                         @TempDir Path dir) throws Exception {
        Path key = dir.resolve("key.pem");
        List<String> genArgs = new ArrayList<>(gen);
        genArgs.addAll(List.of("-out", key.toString()));
        OpenSsl.ok(genArgs.toArray(String[]::new));
        if (!convert.isEmpty()) {
            Path converted = dir.resolve("converted.pem");
            List<String> conv = new ArrayList<>(convert);
            conv.addAll(List.of("-in", key.toString(), "-out", converted.toString()));
            OpenSsl.ok(conv.toArray(String[]::new));
            key = converted;
        }
        PrivateKey parsed = JdkPem.privateKey(Files.readString(key)).orElseThrow();
        Path ours = OpenSsl.write(dir, "ours.pem", Pem.privateKey(parsed));
        assertThat(OpenSsl.ok("pkey", "-in", ours.toString(), "-pubout"))
                .isEqualTo(OpenSsl.ok("pkey", "-in", key.toString(), "-pubout"));
    }

    @Test
    void readsTheKeysAndChainsThisProjectWrites() {
        assertThat(JdkPem.privateKey(serving.keyPem())).contains(serving.key());
        assertThat(JdkPem.certificates(Pem.certificates(List.of(serving.leaf(), ca.leaf()))))
                .hasValueSatisfying(chain -> assertThat(chain).containsExactly(serving.leaf(), ca.leaf()));
        // text around the blocks and CRLF line ends, as editors and Secrets leave them
        String decorated = "subject=web\r\n" + serving.certificatePem().replace("\n", "\r\n") + "trailing words\n";
        assertThat(JdkPem.certificates(decorated)).hasValueSatisfying(chain -> assertThat(chain).containsExactly(serving.leaf()));
        assertThat(JdkPem.privateKey(serving.certificatePem() + serving.keyPem())).contains(serving.key());
    }

    static Stream<Arguments> leftToTheStrictReader() {
        String key = serving.keyPem();
        String body = key.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
        return Stream.of(
                Arguments.of("two keys", key + ca.keyPem()),
                Arguments.of("no key", ca.certificatePem()),
                Arguments.of("damaged base64", key.replace(body, body.substring(0, 20) + "!!" + body.substring(22))),
                Arguments.of("a block without its end", key.substring(0, key.indexOf("-----END"))),
                Arguments.of("legacy encryption headers", key.replace("-----\n", "-----\nProc-Type: 4,ENCRYPTED\n\n")
                        .replace("BEGIN PRIVATE KEY-----\nProc", "BEGIN PRIVATE KEY-----\nProc")),
                Arguments.of("an encrypted PKCS#8 key", key.replace("PRIVATE KEY", "ENCRYPTED PRIVATE KEY")),
                Arguments.of("a truncated key", key.replace(body, body.substring(0, 40))),
                Arguments.of("empty", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("leftToTheStrictReader")
    void staysSilentOnKeysItDoesNotFullyUnderstand(String label, String text) {
        assertThat(JdkPem.privateKey(text)).isEmpty();
    }

    @Test
    void staysSilentOnCertificateTextItDoesNotFullyUnderstand() {
        String cert = serving.certificatePem();
        String body = cert.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
        assertThat(JdkPem.certificates("")).isEmpty();
        assertThat(JdkPem.certificates("hello")).isEmpty();
        assertThat(JdkPem.certificates("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")).isEmpty();
        assertThat(JdkPem.certificates(cert.replace(body, body.substring(0, 30)))).isEmpty();
        assertThat(JdkPem.certificates(cert + serving.keyPem())).isEmpty();
        assertThat(JdkPem.certificates(cert.replace("CERTIFICATE", "X509 CERTIFICATE"))).isEmpty();
    }
}
