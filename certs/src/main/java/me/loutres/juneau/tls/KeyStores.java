package me.loutres.juneau.tls;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.crypto.spec.PBEParameterSpec;

/** Builds the in-memory key store a TLS server (Jetty) serves from PEM material. */
public final class KeyStores {
    /** Alias of the one entry of the key stores built here. */
    public static final String ALIAS = "juneau";

    private KeyStores() {
    }

    /**
     * In-memory PKCS12 key store (never write it out: its key protection is minimal) holding the chain and key; verifies first that the key belongs to the leaf, so a
     * half-written or mismatched pair is refused instead of served.
     */
    public static KeyStore fromPem(String certificatePem, String keyPem, char[] password) throws InvalidTlsMaterialException {
        List<X509Certificate> chain = Pem.readCertificates(certificatePem);
        PrivateKey key = Pem.readPrivateKey(keyPem);
        return of(new CertificateAndKey(chain, key), password);
    }

    /** Same as {@link #fromPem} for material already parsed. */
    public static KeyStore of(CertificateAndKey material, char[] password) throws InvalidTlsMaterialException {
        checkKeyMatches(material);
        return unchecked(material, password);
    }

    /**
     * Refuses a key that is not the private half of the leaf's public key, with the one-line reason {@link #of} gives.
     * A signature and its verification: the dearest step of building a store, which a server's start may run beside
     * its other work ({@link #unchecked}).
     */
    public static void checkKeyMatches(CertificateAndKey material) throws InvalidTlsMaterialException {
        X509Certificate leaf = material.leaf();
        if (!keyMatches(leaf, material.key())) {
            throw new InvalidTlsMaterialException("the private key does not match the certificate '"
                    + leaf.getSubjectX500Principal().getName() + "' (serial " + leaf.getSerialNumber().toString(16) + ")");
        }
    }

    /**
     * The key store of {@link #of} without {@link #checkKeyMatches}: only for a caller that runs that check itself
     * and serves nothing from the store until it passed.
     */
    public static KeyStore unchecked(CertificateAndKey material, char[] password) throws InvalidTlsMaterialException {
        X509Certificate leaf = material.leaf();
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, password);
            ks.setEntry(ALIAS, new KeyStore.PrivateKeyEntry(material.key(), material.chain().toArray(Certificate[]::new)),
                    inMemoryProtection(password));
            return ks;
        } catch (GeneralSecurityException | IOException e) {
            throw new InvalidTlsMaterialException("cannot build a key store from the certificate '"
                    + leaf.getSubjectX500Principal().getName() + "' (" + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * The key's protection inside the store: one derivation round instead of PKCS12's default 10,000. The store never
     * leaves memory and its password is random, so the rounds protected nothing, and they were paid twice at every
     * start and certificate reload (once to store the key, once when the TLS engine reads it back).
     */
    private static KeyStore.PasswordProtection inMemoryProtection(char[] password) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return new KeyStore.PasswordProtection(password, "PBEWithHmacSHA256AndAES_256", new PBEParameterSpec(salt, 1));
    }

    /** True when {@code key} is the private half of the certificate's public key (sign and verify a challenge). */
    public static boolean keyMatches(X509Certificate cert, PrivateKey key) {
        String certAlg = cert.getPublicKey().getAlgorithm();
        if (!certAlg.equalsIgnoreCase(key.getAlgorithm())) {
            return false;
        }
        String sigAlg = switch (certAlg.toUpperCase(java.util.Locale.ROOT)) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            case "ED25519", "ED448", "EDDSA" -> certAlg;
            default -> null;
        };
        if (sigAlg == null) {
            return false;
        }
        try {
            byte[] challenge = new byte[32];
            new SecureRandom().nextBytes(challenge);
            Signature signer = Signature.getInstance(sigAlg);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(sigAlg);
            verifier.initVerify(cert.getPublicKey());
            verifier.update(challenge);
            return verifier.verify(signature);
        } catch (InvalidKeyException e) {
            // e.g. an EC key on another curve than the certificate's
            return false;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
