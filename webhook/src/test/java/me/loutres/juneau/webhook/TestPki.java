package me.loutres.juneau.webhook;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.CertificateIssuer;
import me.loutres.juneau.tls.ClientTls;

/** Fresh certificates for tests: one CA, serving pairs for localhost, written to PEM files like a mounted Secret. */
public final class TestPki {
    public final CertificateAndKey ca = CertificateIssuer.createCa("juneau-test-ca", Duration.ofDays(1), Instant.now());
    public final Path certFile;
    public final Path keyFile;

    public TestPki(Path dir) {
        this.certFile = dir.resolve("tls.crt");
        this.keyFile = dir.resolve("tls.key");
    }

    public CertificateAndKey issue() {
        return CertificateIssuer.issueServing(ca, "juneau-webhook", "juneau-system", List.of("localhost"),
                List.of("127.0.0.1"), Duration.ofHours(1), Instant.now());
    }

    /** Issues a pair and writes it; returns it. */
    public CertificateAndKey install() throws IOException {
        CertificateAndKey pair = issue();
        write(pair.certificatePem(), pair.keyPem());
        return pair;
    }

    /** Replaces both files, each atomically (a reader sees the old or the new content, never a half-written file). */
    public void write(String certPem, String keyPem) throws IOException {
        replace(certFile, certPem);
        replace(keyFile, keyPem);
    }

    private static void replace(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** A client context that trusts this CA only. */
    public SSLContext clientContext() throws GeneralSecurityException {
        return ClientTls.trusting(ca.leaf());
    }
}
