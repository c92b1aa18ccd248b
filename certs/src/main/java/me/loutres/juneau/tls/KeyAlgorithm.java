package me.loutres.juneau.tls;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Locale;

/** Key types Juneau generates. ECDSA P-256 is the default: small, fast, accepted by every API server. */
public enum KeyAlgorithm {
    ECDSA_P256("SHA256withECDSA"),
    RSA_2048("SHA256withRSA");

    private final String signatureAlgorithm;

    KeyAlgorithm(String signatureAlgorithm) {
        this.signatureAlgorithm = signatureAlgorithm;
    }

    public static final KeyAlgorithm DEFAULT = ECDSA_P256;

    KeyPair generate() {
        try {
            KeyPairGenerator g;
            if (this == ECDSA_P256) {
                g = KeyPairGenerator.getInstance("EC");
                g.initialize(new ECGenParameterSpec("secp256r1"));
            } else {
                g = KeyPairGenerator.getInstance("RSA");
                g.initialize(2048);
            }
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot generate " + this + " keys", e);
        }
    }

    /** The signature algorithm a certificate signed with a key of this kind uses. */
    public String signatureAlgorithm() {
        return signatureAlgorithm;
    }

    /** The kind of an existing key (e.g. a CA loaded from disk), so we sign with what it supports. */
    public static KeyAlgorithm of(PrivateKey key) {
        return switch (key.getAlgorithm().toUpperCase(Locale.ROOT)) {
            case "EC", "ECDSA" -> ECDSA_P256;
            case "RSA" -> RSA_2048;
            default -> throw new IllegalArgumentException("unsupported key algorithm " + key.getAlgorithm()
                    + "; EC or RSA keys are accepted");
        };
    }

    /** Parses {@code ecdsa-p256} / {@code rsa-2048} (case-insensitive) as used on the command line. */
    public static KeyAlgorithm parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "ecdsa-p256", "ecdsa", "ec", "p256", "p-256" -> ECDSA_P256;
            case "rsa-2048", "rsa" -> RSA_2048;
            default -> throw new IllegalArgumentException("key algorithm '" + text + "' is not supported; use ecdsa-p256 or rsa-2048");
        };
    }
}
