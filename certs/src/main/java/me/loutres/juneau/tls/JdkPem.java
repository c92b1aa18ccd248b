package me.loutres.juneau.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The PEM a server starts from (certificates; a PKCS#8, SEC1 EC or PKCS#1 RSA key), read with the JDK alone. Why: the
 * BouncyCastle jars are signed, and the first class loaded from them makes the JVM check the signatures of the jar's
 * entries; that was a third of the webhook's start-up CPU (BENCHMARKS.md). This reader only ever answers for input it
 * fully understands and otherwise says nothing ({@link Optional#empty()}): {@link Pem} then reads the text with
 * BouncyCastle as before, which also words every error, so what is accepted and what each refusal says does not change.
 */
final class JdkPem {
    private static final Set<String> KEY_TYPES = Set.of("PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY");
    /** Blocks a key file may carry besides its key (openssl's ecparam writes the curve first; some bundle the chain). */
    private static final Set<String> BESIDE_A_KEY = Set.of("EC PARAMETERS", "CERTIFICATE");
    private static final byte[] OID_RSA = {0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01};
    private static final byte[] OID_EC = {0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};
    private static final byte[] OID_ED25519 = {0x2b, 0x65, 0x70};
    private static final byte[] OID_ED448 = {0x2b, 0x65, 0x71};

    private record Block(String type, byte[] der) {
    }

    private JdkPem() {
    }

    /** Every certificate of a text holding CERTIFICATE blocks only, or empty. */
    static Optional<List<X509Certificate>> certificates(String pem) {
        List<Block> blocks = blocks(pem).orElse(List.of());
        if (blocks.isEmpty() || blocks.stream().anyMatch(b -> !b.type().equals("CERTIFICATE"))) {
            return Optional.empty();
        }
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            List<X509Certificate> certs = new ArrayList<>();
            for (Block b : blocks) {
                X509Certificate cert = (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der()));
                if (!Arrays.equals(cert.getEncoded(), b.der())) {
                    return Optional.empty(); // trailing or re-encoded bytes: let the strict reader judge
                }
                certs.add(cert);
            }
            return Optional.of(List.copyOf(certs));
        } catch (GeneralSecurityException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The one key of a text, or empty (several keys, an encrypted key, another format, damage). */
    static Optional<PrivateKey> privateKey(String pem) {
        List<Block> blocks = blocks(pem).orElse(List.of());
        List<Block> keys = blocks.stream().filter(b -> KEY_TYPES.contains(b.type())).toList();
        if (keys.size() != 1 || blocks.stream().anyMatch(b -> !KEY_TYPES.contains(b.type())
                && !BESIDE_A_KEY.contains(b.type()))) {
            return Optional.empty();
        }
        Block key = keys.get(0);
        try {
            byte[] pkcs8 = switch (key.type()) {
                case "RSA PRIVATE KEY" -> pkcs8(algorithmIdentifier(OID_RSA, new byte[] {0x05, 0x00}), key.der());
                case "EC PRIVATE KEY" -> pkcs8(algorithmIdentifier(OID_EC, sec1Curve(key.der())), key.der());
                default -> key.der();
            };
            String algorithm = pkcs8Algorithm(pkcs8);
            if (algorithm == null) {
                return Optional.empty();
            }
            return Optional.of(KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8)));
        } catch (GeneralSecurityException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The blocks of the text (text between blocks ignored), or empty when one has headers, bad base64 or no end. */
    private static Optional<List<Block>> blocks(String pem) {
        if (pem == null) {
            return Optional.empty();
        }
        List<Block> blocks = new ArrayList<>();
        String type = null;
        StringBuilder body = new StringBuilder();
        for (String raw : pem.split("\r?\n|\r", -1)) {
            String line = raw.strip();
            if (type == null) {
                if (line.startsWith("-----BEGIN ") && line.endsWith("-----") && line.length() > 16) {
                    type = line.substring(11, line.length() - 5);
                    body.setLength(0);
                }
                continue;
            }
            if (line.equals("-----END " + type + "-----")) {
                try {
                    blocks.add(new Block(type, Base64.getDecoder().decode(body.toString())));
                } catch (IllegalArgumentException notBase64) {
                    return Optional.empty();
                }
                type = null;
            } else if (line.startsWith("-----") || line.indexOf(':') >= 0) {
                return Optional.empty(); // a block inside a block, or headers (legacy encryption)
            } else {
                body.append(line);
            }
        }
        return type == null ? Optional.of(blocks) : Optional.empty();
    }

    /** The JCA name of a PKCS#8 key's algorithm, or null for one this reader leaves to BouncyCastle. */
    private static String pkcs8Algorithm(byte[] pkcs8) {
        Der info = new Der(pkcs8, 0).expect(0x30).inside();
        Der algorithmId = info.expect(0x02).next().expect(0x30).inside();
        byte[] oid = algorithmId.expect(0x06).value();
        if (Arrays.equals(oid, OID_RSA)) {
            return "RSA";
        }
        if (Arrays.equals(oid, OID_EC)) {
            return "EC";
        }
        if (Arrays.equals(oid, OID_ED25519)) {
            return "Ed25519";
        }
        return Arrays.equals(oid, OID_ED448) ? "Ed448" : null;
    }

    /** The named curve (the OID's whole encoding) of a SEC1 ECPrivateKey: version, key, [0] parameters. */
    private static byte[] sec1Curve(byte[] sec1) {
        Der parameters = new Der(sec1, 0).expect(0x30).inside().expect(0x02).next().expect(0x04).next().expect(0xa0);
        Der curve = parameters.inside().expect(0x06);
        return curve.whole();
    }

    private static byte[] algorithmIdentifier(byte[] oid, byte[] parameters) {
        return tlv(0x30, concat(tlv(0x06, oid), parameters));
    }

    /** PrivateKeyInfo: version 0, the algorithm, the key in the algorithm's own encoding. */
    private static byte[] pkcs8(byte[] algorithmIdentifier, byte[] key) {
        return tlv(0x30, concat(new byte[] {0x02, 0x01, 0x00}, algorithmIdentifier, tlv(0x04, key)));
    }

    private static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
        out.write(tag);
        int n = value.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(n >>> (8 * i));
            }
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /**
     * One DER element at {@code start} of {@code data} (definite lengths only); anything malformed throws
     * IllegalArgumentException, which the callers turn into "not for this reader".
     */
    private static final class Der {
        private final byte[] data;
        private final int start;
        private final int valueStart;
        private final int end;

        Der(byte[] data, int start) {
            this.data = data;
            this.start = start;
            if (start + 2 > data.length) {
                throw new IllegalArgumentException("truncated");
            }
            int first = data[start + 1] & 0xff;
            int length;
            int at = start + 2;
            if (first < 0x80) {
                length = first;
            } else {
                int bytes = first & 0x7f;
                if (bytes == 0 || bytes > 3 || at + bytes > data.length) {
                    throw new IllegalArgumentException("unsupported length");
                }
                length = 0;
                for (int i = 0; i < bytes; i++) {
                    length = (length << 8) | (data[at++] & 0xff);
                }
            }
            this.valueStart = at;
            this.end = at + length;
            if (end > data.length) {
                throw new IllegalArgumentException("truncated");
            }
        }

        Der expect(int tag) {
            if ((data[start] & 0xff) != tag) {
                throw new IllegalArgumentException("unexpected tag");
            }
            return this;
        }

        /** The first element inside this one. */
        Der inside() {
            return new Der(Arrays.copyOf(data, end), valueStart);
        }

        /** The element after this one (within the same parent). */
        Der next() {
            return new Der(data, end);
        }

        byte[] value() {
            return Arrays.copyOfRange(data, valueStart, end);
        }

        byte[] whole() {
            return Arrays.copyOfRange(data, start, end);
        }
    }
}
