package me.loutres.juneau.tls;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;

/** When a certificate is renewed: once 2/3 of its lifetime has passed, so a failed renewal leaves 1/3 to retry. */
public final class Renewal {
    private Renewal() {
    }

    /** notBefore + 2/3 of (notAfter - notBefore). */
    public static Instant renewAt(X509Certificate cert) {
        Instant notBefore = cert.getNotBefore().toInstant();
        Instant notAfter = cert.getNotAfter().toInstant();
        Duration lifetime = Duration.between(notBefore, notAfter);
        return notBefore.plus(lifetime.multipliedBy(2).dividedBy(3));
    }

    public static boolean due(X509Certificate cert, Instant now) {
        return !now.isBefore(renewAt(cert));
    }

    public static boolean expired(X509Certificate cert, Instant now) {
        return !now.isBefore(cert.getNotAfter().toInstant());
    }
}
