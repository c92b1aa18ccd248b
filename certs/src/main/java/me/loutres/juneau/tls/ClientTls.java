package me.loutres.juneau.tls;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The client side of a connection to one of our own TLS servers: trust exactly the CA that issued its certificate, not
 * the JDK's public roots (host names are still checked by the HTTP client).
 */
public final class ClientTls {
    private ClientTls() {
    }

    /** A TLS context whose peers must present a chain to {@code ca}. */
    public static SSLContext trusting(X509Certificate ca) throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {trustManager(ca)}, null);
        return context;
    }

    /** The JDK's PKIX trust manager with {@code ca} as its only anchor. */
    public static X509TrustManager trustManager(X509Certificate ca) throws GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try {
            trust.load(null, null);
        } catch (IOException e) {
            // an empty in-memory store reads nothing; kept as the security error callers already handle
            throw new KeyStoreException("cannot create an empty trust store: " + e.getMessage(), e);
        }
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509TrustManager x509) {
                return x509;
            }
        }
        throw new KeyStoreException("the JDK offers no X.509 trust manager");
    }
}
