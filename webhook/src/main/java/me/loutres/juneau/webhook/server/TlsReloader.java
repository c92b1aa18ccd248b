package me.loutres.juneau.webhook.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.InvalidTlsMaterialException;
import me.loutres.juneau.tls.KeyStores;
import me.loutres.juneau.tls.Pem;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the served certificate in step with the PEM files: polls their content, and when it changes loads the new
 * pair into Jetty (existing connections keep their session; new handshakes get the new certificate). A pair that
 * cannot be parsed, or whose key does not match its certificate (e.g. caught half-written), is refused with one log
 * line and the last good pair keeps serving; it is tried again as soon as the files change again.
 */
public final class TlsReloader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TlsReloader.class);

    /** A pair that loaded: the key store Jetty serves, what it is, and the content it came from. */
    public record Loaded(KeyStore keyStore, X509Certificate leaf, byte[] fingerprint) {
        String describe() {
            return "subject '" + leaf.getSubjectX500Principal().getName() + "', serial "
                    + leaf.getSerialNumber().toString(16) + ", expires " + leaf.getNotAfter().toInstant();
        }
    }

    private final Path certFile;
    private final Path keyFile;
    private final char[] password;
    private final SslContextFactory.Server sslContextFactory;
    private ScheduledExecutorService poller;
    private volatile Loaded current;
    private volatile byte[] refused;

    public TlsReloader(Path certFile, Path keyFile, char[] password, SslContextFactory.Server sslContextFactory, Loaded initial) {
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.password = password.clone();
        this.sslContextFactory = sslContextFactory;
        this.current = initial;
    }

    /** Reads and checks a pair; the message of the exception is one line naming the file and the problem. */
    public static Loaded load(Path certFile, Path keyFile, char[] password) throws InvalidTlsMaterialException {
        return loadUnchecked(certFile, keyFile, password).checked();
    }

    /**
     * A pair read and stored whose key has not yet been checked against its certificate ({@link #checked}): the check
     * is a signature and its verification, which the server's start runs beside Jetty's and serves nothing until it
     * passed.
     */
    public record Unchecked(Loaded loaded, CertificateAndKey material) {
        /** The pair once its key matches its certificate; the exception names the certificate otherwise. */
        public Loaded checked() throws InvalidTlsMaterialException {
            KeyStores.checkKeyMatches(material);
            return loaded;
        }
    }

    /** Reads and stores a pair, all checks but the key's match done ({@link Unchecked#checked}). */
    public static Unchecked loadUnchecked(Path certFile, Path keyFile, char[] password) throws InvalidTlsMaterialException {
        byte[] cert = read(certFile, "certificate");
        byte[] key = read(keyFile, "key");
        try {
            CertificateAndKey material = new CertificateAndKey(Pem.readCertificates(new String(cert, StandardCharsets.UTF_8)),
                    Pem.readPrivateKey(new String(key, StandardCharsets.UTF_8)));
            KeyStore keyStore = KeyStores.unchecked(material, password);
            X509Certificate leaf = (X509Certificate) keyStore.getCertificate(KeyStores.ALIAS);
            return new Unchecked(new Loaded(keyStore, leaf, fingerprint(cert, key)), material);
        } catch (KeyStoreException e) {
            throw new InvalidTlsMaterialException("cannot read back the key store built from " + certFile + " (" + e.getClass().getSimpleName() + ")");
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    private static byte[] read(Path file, String what) throws InvalidTlsMaterialException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new InvalidTlsMaterialException("the TLS " + what + " file " + file + " does not exist");
        } catch (IOException e) {
            throw new InvalidTlsMaterialException("cannot read the TLS " + what + " file " + file + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static byte[] fingerprint(byte[] cert, byte[] key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(cert);
            sha.update((byte) 0);
            sha.update(key);
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    public Loaded current() {
        return current;
    }

    /** Polls every {@code interval} on a daemon thread. */
    public synchronized void start(Duration interval) {
        if (poller != null) {
            return;
        }
        poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "webhook-tls-reloader");
            t.setDaemon(true);
            return t;
        });
        long millis = Math.max(10, interval.toMillis());
        poller.scheduleWithFixedDelay(this::checkQuietly, millis, millis, TimeUnit.MILLISECONDS);
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) {
            LOG.warn("checking the TLS files for a change failed: {}", e.toString());
        }
    }

    /**
     * One poll: true when a new pair was loaded. Cheap when nothing changed (two small reads and a hash); the files
     * are compared by content because a Secret volume swaps a symlink and keeps old modification times.
     */
    public synchronized boolean check() {
        byte[] cert;
        byte[] key;
        try {
            cert = Files.readAllBytes(certFile);
            key = Files.readAllBytes(keyFile);
        } catch (IOException e) {
            // mid-swap or removed: keep serving, report once per distinct situation
            byte[] marker = ("unreadable:" + e.getClass().getName()).getBytes(StandardCharsets.UTF_8);
            if (!Arrays.equals(marker, refused)) {
                refused = marker;
                LOG.warn("refused the TLS files {} / {}: cannot read them ({}); still serving {}", certFile, keyFile,
                        e.getClass().getSimpleName(), current.describe());
            }
            return false;
        }
        byte[] fp = fingerprint(cert, key);
        Arrays.fill(key, (byte) 0);
        if (Arrays.equals(fp, current.fingerprint()) || Arrays.equals(fp, refused)) {
            return false;
        }
        Loaded next;
        try {
            next = load(certFile, keyFile, password);
        } catch (InvalidTlsMaterialException e) {
            refused = fp;
            LOG.warn("refused the new TLS certificate and key ({} / {}): {}; still serving {}", certFile, keyFile,
                    e.getMessage(), current.describe());
            return false;
        }
        if (!Arrays.equals(next.fingerprint(), fp)) {
            // the files changed again between the two reads; the next poll settles it
            return false;
        }
        try {
            sslContextFactory.reload(f -> f.setKeyStore(next.keyStore()));
        } catch (Exception e) {
            refused = fp;
            restore();
            LOG.warn("refused the new TLS certificate and key ({} / {}): the TLS engine did not accept them ({}); still serving {}",
                    certFile, keyFile, e.getClass().getSimpleName(), current.describe());
            return false;
        }
        current = next;
        refused = null;
        LOG.info("reloaded the TLS certificate from {}: {}", certFile, next.describe());
        return true;
    }

    private void restore() {
        Loaded good = current;
        try {
            sslContextFactory.reload(f -> f.setKeyStore(good.keyStore()));
        } catch (Exception e) {
            LOG.error("could not restore the previous TLS certificate after a failed reload ({})", e.getClass().getSimpleName());
        }
    }

    @Override
    public synchronized void close() {
        if (poller != null) {
            poller.shutdownNow();
            poller = null;
        }
    }
}
