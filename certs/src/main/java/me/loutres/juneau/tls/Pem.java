package me.loutres.juneau.tls;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Reads and writes PEM text: X.509 certificates, and private keys in PKCS#8, SEC1 (EC) or PKCS#1 (RSA). Well-formed
 * text is read with the JDK alone ({@link JdkPem}: a server starts without loading BouncyCastle); anything else goes
 * through BouncyCastle's parser, which decides and words the refusal.
 */
public final class Pem {
    private static final Base64.Encoder MIME = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));

    private Pem() {
    }

    /** Every CERTIFICATE block of the text, in order; other blocks are ignored. At least one is required. */
    public static List<X509Certificate> readCertificates(String pem) throws InvalidTlsMaterialException {
        if (pem == null || pem.isBlank()) {
            throw new InvalidTlsMaterialException("no PEM certificate found: the text is empty");
        }
        Optional<List<X509Certificate>> plain = JdkPem.certificates(pem);
        if (plain.isPresent()) {
            return plain.get();
        }
        List<X509Certificate> certs = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object o;
            while ((o = parser.readObject()) != null) {
                if (o instanceof X509CertificateHolder holder) {
                    certs.add(converter.getCertificate(holder));
                }
            }
        } catch (IOException | CertificateException | RuntimeException e) {
            throw new InvalidTlsMaterialException("unreadable PEM certificate: expected BEGIN CERTIFICATE blocks with"
                    + " base64 DER content (" + e.getClass().getSimpleName() + ")", e);
        }
        if (certs.isEmpty()) {
            throw new InvalidTlsMaterialException("no PEM certificate found: expected at least one"
                    + " '-----BEGIN CERTIFICATE-----' block");
        }
        return List.copyOf(certs);
    }

    /** The one private key of the text: PKCS#8 ("PRIVATE KEY"), SEC1 ("EC PRIVATE KEY") or PKCS#1 ("RSA PRIVATE KEY"). */
    public static PrivateKey readPrivateKey(String pem) throws InvalidTlsMaterialException {
        if (pem == null || pem.isBlank()) {
            throw new InvalidTlsMaterialException("no PEM private key found: the text is empty");
        }
        Optional<PrivateKey> plain = JdkPem.privateKey(pem);
        if (plain.isPresent()) {
            return plain.get();
        }
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        PrivateKey found = null;
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object o;
            while ((o = parser.readObject()) != null) {
                PrivateKey key;
                if (o instanceof PEMKeyPair pair) {
                    key = converter.getPrivateKey(pair.getPrivateKeyInfo());
                } else if (o instanceof PrivateKeyInfo info) {
                    key = converter.getPrivateKey(info);
                } else if (o instanceof PEMEncryptedKeyPair || o instanceof PKCS8EncryptedPrivateKeyInfo) {
                    throw new InvalidTlsMaterialException("the PEM private key is encrypted; an unencrypted"
                            + " PKCS#8, SEC1 EC or PKCS#1 RSA key is required");
                } else {
                    continue;
                }
                if (found != null) {
                    throw new InvalidTlsMaterialException("more than one PEM private key found; exactly one is required");
                }
                found = key;
            }
        } catch (InvalidTlsMaterialException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // never include the exception message: parsers may quote the (secret) input
            throw new InvalidTlsMaterialException("unreadable PEM private key: expected PKCS#8 'PRIVATE KEY',"
                    + " SEC1 'EC PRIVATE KEY' or PKCS#1 'RSA PRIVATE KEY' (" + e.getClass().getSimpleName() + ")");
        }
        if (found == null) {
            throw new InvalidTlsMaterialException("no PEM private key found: expected a '-----BEGIN PRIVATE KEY-----',"
                    + " '-----BEGIN EC PRIVATE KEY-----' or '-----BEGIN RSA PRIVATE KEY-----' block");
        }
        return found;
    }

    /** PEM text of the certificates, in the given order, each ending with a newline. */
    public static String certificates(List<X509Certificate> certs) {
        StringBuilder sb = new StringBuilder();
        for (X509Certificate c : certs) {
            try {
                block(sb, "CERTIFICATE", c.getEncoded());
            } catch (CertificateEncodingException e) {
                throw new IllegalStateException("cannot encode certificate " + c.getSubjectX500Principal().getName(), e);
            }
        }
        return sb.toString();
    }

    /** Unencrypted PKCS#8 PEM of the key. */
    public static String privateKey(PrivateKey key) {
        byte[] der = key.getEncoded();
        if (der == null || !"PKCS#8".equals(key.getFormat())) {
            throw new IllegalArgumentException("the private key cannot be exported as PKCS#8 (format " + key.getFormat() + ")");
        }
        return block(new StringBuilder(), "PRIVATE KEY", der).toString();
    }

    private static StringBuilder block(StringBuilder sb, String type, byte[] der) {
        sb.append("-----BEGIN ").append(type).append("-----\n");
        sb.append(MIME.encodeToString(der)).append('\n');
        sb.append("-----END ").append(type).append("-----\n");
        return sb;
    }
}
