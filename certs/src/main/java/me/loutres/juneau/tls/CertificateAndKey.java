package me.loutres.juneau.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A certificate chain (leaf first) and the private key of its leaf.
 * {@link #toString()} never prints the key.
 */
public record CertificateAndKey(List<X509Certificate> chain, PrivateKey key) {
    public CertificateAndKey {
        if (chain == null || chain.isEmpty()) {
            throw new IllegalArgumentException("a certificate chain needs at least one certificate");
        }
        if (key == null) {
            throw new IllegalArgumentException("a private key is required");
        }
        chain = List.copyOf(chain);
    }

    public X509Certificate leaf() {
        return chain.get(0);
    }

    /** The whole chain as PEM, leaf first. */
    public String certificatePem() {
        return Pem.certificates(chain);
    }

    /** The key as unencrypted PKCS#8 PEM. Callers must keep it out of logs. */
    public String keyPem() {
        return Pem.privateKey(key);
    }

    @Override
    public String toString() {
        return "CertificateAndKey[subject=" + leaf().getSubjectX500Principal().getName()
                + ", notAfter=" + leaf().getNotAfter().toInstant() + ", key=" + key.getAlgorithm() + " (hidden)]";
    }
}
