package me.loutres.juneau.webhook.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.security.cert.X509Certificate;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.InvalidTlsMaterialException;
import me.loutres.juneau.tls.KeyStores;
import me.loutres.juneau.webhook.TestPki;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class TlsReloaderTest {
    private static final char[] PASSWORD = "test".toCharArray();

    @TempDir
    java.nio.file.Path dir;

    private TestPki pki;
    private CertificateAndKey first;
    private SslContextFactory.Server ssl;
    private TlsReloader reloader;
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void setUp() throws Exception {
        pki = new TestPki(dir);
        first = pki.install();
        TlsReloader.Loaded loaded = TlsReloader.load(pki.certFile, pki.keyFile, PASSWORD);
        ssl = HttpsConnectors.sslContextFactory(loaded.keyStore(), PASSWORD);
        ssl.start();
        reloader = new TlsReloader(pki.certFile, pki.keyFile, PASSWORD, ssl, loaded);
        log.start();
        ((Logger) LoggerFactory.getLogger(TlsReloader.class)).addAppender(log);
    }

    @AfterEach
    void tearDown() throws Exception {
        ((Logger) LoggerFactory.getLogger(TlsReloader.class)).detachAppender(log);
        reloader.close();
        ssl.stop();
    }

    private X509Certificate served() throws Exception {
        return (X509Certificate) ssl.getKeyStore().getCertificate(KeyStores.ALIAS);
    }

    private long warnings() {
        return log.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN).count();
    }

    @Test
    void unchangedFilesAreNotReloaded() throws Exception {
        assertThat(reloader.check()).isFalse();
        assertThat(served()).isEqualTo(first.leaf());
        assertThat(log.list).isEmpty();
    }

    @Test
    void aNewValidPairIsServedFromTheNextCheck() throws Exception {
        CertificateAndKey second = pki.install();
        assertThat(reloader.check()).isTrue();
        assertThat(served()).isEqualTo(second.leaf());
        assertThat(reloader.current().leaf()).isEqualTo(second.leaf());
        assertThat(reloader.check()).isFalse();
    }

    @Test
    void aKeyThatDoesNotMatchIsRefusedOnceAndTheOldPairKeepsServing() throws Exception {
        CertificateAndKey other = pki.issue();
        pki.write(other.certificatePem(), first.keyPem());
        assertThat(reloader.check()).isFalse();
        assertThat(reloader.check()).isFalse();
        assertThat(served()).isEqualTo(first.leaf());
        assertThat(warnings()).isEqualTo(1);
        String line = log.list.get(0).getFormattedMessage();
        assertThat(line).contains("refused").contains("does not match").contains("still serving")
                .doesNotContain("PRIVATE KEY").doesNotContain("\n");
    }

    @Test
    void unparsableFilesAreRefusedAndAFixedPairIsTakenAfterwards() throws Exception {
        pki.write("-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n", "garbage");
        assertThat(reloader.check()).isFalse();
        assertThat(served()).isEqualTo(first.leaf());
        assertThat(warnings()).isEqualTo(1);

        CertificateAndKey fixed = pki.install();
        assertThat(reloader.check()).isTrue();
        assertThat(served()).isEqualTo(fixed.leaf());
    }

    @Test
    void missingFilesAreRefusedWithOneLine() throws Exception {
        Files.delete(pki.keyFile);
        assertThat(reloader.check()).isFalse();
        assertThat(reloader.check()).isFalse();
        assertThat(served()).isEqualTo(first.leaf());
        assertThat(warnings()).isEqualTo(1);
        assertThat(log.list.get(0).getFormattedMessage()).contains("cannot read");
    }

    @Test
    void goingBackToTheServedPairAfterARefusalIsQuiet() throws Exception {
        pki.write(pki.issue().certificatePem(), first.keyPem());
        reloader.check();
        pki.write(first.certificatePem(), first.keyPem());
        assertThat(reloader.check()).isFalse();
        assertThat(served()).isEqualTo(first.leaf());
    }

    @Test
    void loadNamesTheMissingFile() {
        assertThatThrownBy(() -> TlsReloader.load(dir.resolve("nope.crt"), pki.keyFile, PASSWORD))
                .isInstanceOf(InvalidTlsMaterialException.class)
                .hasMessageContaining("nope.crt").hasMessageContaining("does not exist");
    }
}
