package me.loutres.juneau.tls;

import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The CA bundle clients trust (the webhook configurations' caBundle, the Secret's ca.crt). During a CA change
 * both the new and the old CA stay in it, so servers still presenting a certificate of the old CA are trusted
 * until they reload; a CA leaves the bundle once it has expired.
 */
public final class CaBundle {
    private CaBundle() {
    }

    /** The active CA first, then every other CA of {@code previous} not yet expired at {@code now}, without duplicates. */
    public static List<X509Certificate> merge(List<X509Certificate> previous, X509Certificate activeCa, Instant now) {
        List<X509Certificate> out = new ArrayList<>();
        out.add(activeCa);
        for (X509Certificate c : previous) {
            if (!Renewal.expired(c, now) && out.stream().noneMatch(o -> sameCertificate(o, c))) {
                out.add(c);
            }
        }
        return List.copyOf(out);
    }

    static boolean sameCertificate(X509Certificate a, X509Certificate b) {
        try {
            return Arrays.equals(a.getEncoded(), b.getEncoded());
        } catch (CertificateEncodingException e) {
            return false;
        }
    }
}
