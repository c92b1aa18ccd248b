package me.loutres.juneau.webhook.server;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import me.loutres.juneau.tls.InvalidTlsMaterialException;
import me.loutres.juneau.webhook.WebhookContextListener;
import me.loutres.juneau.webhook.WebhookApp;
import me.loutres.juneau.webhook.WebhookAssembly;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.http.MimeTypes;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded launcher: the same webapp as the WAR ({@link WebhookContextListener}) in Jetty 12 over HTTPS, with the
 * certificate reloaded from its PEM files and a graceful stop (stop accepting, let in-flight requests finish).
 * Programmatic use: {@code int port = server.start(config); ... server.stop();}.
 */
public final class WebhookServer {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
    public static final String TLS_LOADED = "TLS material loaded";

    private Server jetty;
    private volatile GracefulHandler graceful;
    private ServerConnector connector;
    private TlsReloader reloader;
    private WebhookApp app;

    /**
     * Starts serving and returns the bound port.
     *
     * @throws WebhookStartException with a one-line reason (unreadable or mismatched TLS files, bad cluster state,
     *                               port in use)
     */
    public synchronized int start(WebhookConfig config) throws WebhookStartException {
        if (jetty != null) {
            throw new IllegalStateException("the webhook server is already started");
        }
        long startNanos = System.nanoTime();
        warmUpOnAnotherCore();
        // the view opens (a YAML file read, or a client built and informers started) while TLS and Jetty start
        WebhookAssembly.Opening opening = WebhookAssembly.opening(config.settings(), config.viewSource(),
                config.maxBodyBytes());
        app = opening.app();
        char[] password = randomPassword();
        TlsReloader.Unchecked read;
        try {
            read = TlsReloader.loadUnchecked(config.certFile(), config.keyFile(), password);
        } catch (InvalidTlsMaterialException e) {
            app.close();
            app = null;
            throw new WebhookStartException(e.getMessage());
        }
        // the key's check against the certificate (a signature and its verification, a tenth to a fifth of the main
        // thread's work before the first /readyz) runs beside Jetty's start; nothing is ready, and start() does not
        // return, until it passed, and a key that does not match fails the start as before
        CompletableFuture<TlsReloader.Loaded> keyChecked = onAnotherThread("webhook-tls-check", read);
        TlsReloader.Loaded tls = read.loaded();
        SslContextFactory.Server ssl = HttpsConnectors.sslContextFactory(tls.keyStore(), password);
        reloader = new TlsReloader(config.certFile(), config.keyFile(), password, ssl, tls);
        app.readiness().require(TLS_LOADED, () -> keyChecked.isDone() && !keyChecked.isCompletedExceptionally()
                && reloader != null && reloader.current() != null);

        skipJettysMBeanServerProbe();
        QueuedThreadPool threads = new QueuedThreadPool(200, 8);
        threads.setName("webhook");
        jetty = new Server(threads);
        jetty.setErrorHandler(HttpsConnectors.quietServerErrorHandler());
        connector = HttpsConnectors.create(jetty, ssl, config.bindAddress(), config.port());
        jetty.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler("/", ServletContextHandler.NO_SESSIONS);
        context.setErrorHandler(HttpsConnectors.quietErrorHandler());
        context.addEventListener(new WebhookContextListener(app));
        graceful = new GracefulHandler(context);
        jetty.setHandler(graceful);
        jetty.setStopTimeout(config.shutdownGrace().toMillis());
        try {
            jetty.start();
        } catch (Exception e) {
            String reason = e instanceof IOException && e.getMessage() != null
                    ? "cannot listen on " + config.bindAddress() + ":" + config.port() + " (" + e.getMessage() + ")"
                    : "the HTTPS server did not start (" + e + ")";
            stopQuietly();
            throw new WebhookStartException(reason);
        }
        try {
            keyChecked.join();
        } catch (java.util.concurrent.CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            stopQuietly();
            throw new WebhookStartException(cause.getMessage() == null ? cause.toString() : cause.getMessage());
        }
        try {
            opening.opened().join();
        } catch (java.util.concurrent.CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            stopQuietly();
            throw new WebhookStartException(cause.getMessage() == null ? cause.toString() : cause.getMessage());
        }
        reloader.start(config.reloadInterval());
        LOG.info("webhook serving HTTPS on {}:{} ({}); started in {} ms", config.bindAddress(),
                connector.getLocalPort(), tls.describe(), (System.nanoTime() - startNanos) / 1_000_000);
        return connector.getLocalPort();
    }

    /** The bound port, or -1 when not started. */
    public synchronized int port() {
        return connector == null ? -1 : connector.getLocalPort();
    }

    /** Requests being handled right now (what a graceful stop waits for). */
    public long inFlightRequests() {
        GracefulHandler g = graceful;
        return g == null ? 0 : g.getCurrentRequestCount();
    }

    /** The app being served (metrics, readiness), or null when not started. */
    public synchronized WebhookApp app() {
        return app;
    }

    /** The certificate reloader, for an immediate check instead of waiting for the next poll (tests, tooling). */
    public synchronized TlsReloader tlsReloader() {
        return reloader;
    }

    /** Stops accepting connections, waits up to the grace period for in-flight requests, then releases everything. */
    public synchronized void stop() {
        if (jetty == null) {
            return;
        }
        stopQuietly();
        LOG.info("webhook stopped");
    }

    private void stopQuietly() {
        if (reloader != null) {
            reloader.close();
        }
        try {
            jetty.stop();
        } catch (Exception e) {
            LOG.warn("stopping the HTTPS server: {}", e.toString());
        }
        if (app != null) {
            app.close();
        }
        jetty = null;
        graceful = null;
        connector = null;
        reloader = null;
        app = null;
    }

    /**
     * Class initialisation the main thread would otherwise wait for, started now on other threads while TLS loads:
     * Jetty's MimeTypes lists every locale the JDK knows (about a tenth of the main thread's start-up), and the JDK's
     * TLS engine (its protocol and cipher suite tables, checked against the security providers, and the EC classes a
     * handshake uses) would otherwise be set up on the main thread by Jetty's start. A class is initialised once;
     * whoever needs it first while it runs waits for it instead of doing it again.
     */
    private static void warmUpOnAnotherCore() {
        Thread warm = new Thread(() -> {
            if (MimeTypes.DEFAULTS == null) {
                LOG.debug("Jetty has no default MIME types");
            }
        }, "webhook-warm-up");
        warm.setDaemon(true);
        warm.start();
        Thread tls = new Thread(WebhookServer::warmUpTls, "webhook-warm-up-tls");
        tls.setDaemon(true);
        tls.start();
    }

    /**
     * An engine of a throw-away TLS context: empty key and trust managers, so nothing is read (no CA list), and
     * nothing of it is kept. A failure only means the main thread does this work itself, as before.
     */
    static void warmUpTls() {
        try {
            javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
            context.init(new javax.net.ssl.KeyManager[0], new javax.net.ssl.TrustManager[0], null);
            javax.net.ssl.SSLEngine engine = context.createSSLEngine();
            engine.setUseClientMode(false);
            engine.setEnabledProtocols(HttpsConnectors.PROTOCOLS);
            java.security.KeyPairGenerator.getInstance("EC");
            java.security.Signature.getInstance("SHA256withECDSA");
            javax.crypto.KeyAgreement.getInstance("ECDH");
            javax.crypto.KeyAgreement.getInstance("XDH");
        } catch (java.security.GeneralSecurityException | RuntimeException e) {
            LOG.debug("warming up TLS: {}", e.toString());
        }
    }

    private static CompletableFuture<TlsReloader.Loaded> onAnotherThread(String name, TlsReloader.Unchecked read) {
        CompletableFuture<TlsReloader.Loaded> checked = new CompletableFuture<>();
        Thread check = new Thread(() -> {
            try {
                checked.complete(read.checked());
            } catch (InvalidTlsMaterialException | RuntimeException e) {
                checked.completeExceptionally(e);
            }
        }, name);
        check.setDaemon(true);
        check.start();
        return checked;
    }

    /** Jetty's system property that spares it the probe (a positive number of references per 64-byte cache line). */
    static final String REFERENCES_PER_CACHE_LINE = "org.eclipse.jetty.util.referencesPerCacheLine";

    /**
     * Jetty pads its thread pool's queue by the number of object references per cache line and, unless told, asks the
     * JVM whether references are compressed through the platform MBean server, which the probe creates with every
     * platform MBean in it: about a tenth of the main thread's work before the first {@code /readyz} (BENCHMARKS.md,
     * "Webhook steady and cold"). References are 4 bytes with a heap below 32 GB (the webhook's is 230 MiB), so 16;
     * were they 8, the padding would span two lines instead of one, which costs nothing but a few bytes. An operator's
     * own value wins.
     */
    static void skipJettysMBeanServerProbe() {
        if (System.getProperty(REFERENCES_PER_CACHE_LINE) == null) {
            System.setProperty(REFERENCES_PER_CACHE_LINE, "16");
        }
    }

    private static char[] randomPassword() {
        // the key store lives in memory only; the password just satisfies the KeyStore API
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes).toCharArray();
    }

    /** The server could not start; the message is one line meant for the operator. */
    public static final class WebhookStartException extends Exception {
        private static final long serialVersionUID = 1L;

        public WebhookStartException(String message) {
            super(message, null, false, false);
        }
    }
}
