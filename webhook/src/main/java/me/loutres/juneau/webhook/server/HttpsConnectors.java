package me.loutres.juneau.webhook.server;

import java.security.KeyStore;
import org.eclipse.jetty.ee10.servlet.ErrorHandler;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/** The one way this project listens: HTTPS only, TLS 1.2 or 1.3, HTTP/1.1, error pages without stack traces. */
public final class HttpsConnectors {
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private HttpsConnectors() {
    }

    public static SslContextFactory.Server sslContextFactory(KeyStore keyStore, char[] password) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(keyStore);
        ssl.setKeyStorePassword(new String(password));
        ssl.setIncludeProtocols(PROTOCOLS);
        // ChaCha20 first in a JVM without C2 (juneau up): AES-GCM is slow there (see CipherOrder)
        me.loutres.juneau.tls.CipherOrder.forThisJvm().ifPresent(ssl::setCipherComparator);
        // the API server reaches us by Service DNS name or IP; no SNI needed
        ssl.setSniRequired(false);
        // no client certificate is asked for, so nothing is ever verified against a trust store; without one of its
        // own the TLS engine would parse the JDK's whole CA list (about 140 certificates) at every start
        ssl.setTrustStore(emptyTrustStore());
        return ssl;
    }

    private static KeyStore emptyTrustStore() {
        try {
            KeyStore empty = KeyStore.getInstance("PKCS12");
            empty.load(null, null);
            return empty;
        } catch (java.security.GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("every Java runtime has an in-memory PKCS12 key store", e);
        }
    }

    public static ServerConnector create(Server server, SslContextFactory.Server ssl, String bindAddress, int port) {
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setSecureScheme("https");
        // clients connect by IP or any SAN: do not 400 a Host that differs from the certificate's names
        http.addCustomizer(new SecureRequestCustomizer(false));
        ServerConnector connector = new ServerConnector(server,
                new SslConnectionFactory(ssl, HttpVersion.HTTP_1_1.asString()),
                new HttpConnectionFactory(http));
        connector.setHost(bindAddress);
        connector.setPort(port);
        connector.setIdleTimeout(60_000);
        return connector;
    }

    /** Error pages (404, Jetty's own 400s) that never show a stack trace or the servlet's name. */
    public static ErrorHandler quietErrorHandler() {
        ErrorHandler handler = new ErrorHandler();
        handler.setShowStacks(false);
        handler.setShowCauses(false);
        handler.setShowMessageInTitle(false);
        handler.setShowOrigin(false);
        return handler;
    }

    public static org.eclipse.jetty.server.handler.ErrorHandler quietServerErrorHandler() {
        org.eclipse.jetty.server.handler.ErrorHandler handler = new org.eclipse.jetty.server.handler.ErrorHandler();
        handler.setShowStacks(false);
        handler.setShowCauses(false);
        handler.setShowMessageInTitle(false);
        handler.setShowOrigin(false);
        return handler;
    }
}
