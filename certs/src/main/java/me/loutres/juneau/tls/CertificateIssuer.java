package me.loutres.juneau.tls;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Creates a self-signed CA and serving certificates signed by it, for the webhook Service (docs/install.md).
 * Pure apart from key generation: the caller passes the clock.
 */
public final class CertificateIssuer {
    /** Backdating notBefore tolerates clocks of the API server a little behind ours. */
    static final Duration CLOCK_SKEW_ALLOWANCE = Duration.ofMinutes(5);
    public static final Duration DEFAULT_CA_LIFETIME = Duration.ofDays(3650);
    public static final Duration DEFAULT_SERVING_LIFETIME = Duration.ofDays(365);

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DNS_NAME = Pattern.compile(
            "(\\*\\.)?[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*");
    private static final SecureRandom RANDOM = new SecureRandom();

    private CertificateIssuer() {
    }

    public static CertificateAndKey createCa(String commonName, Duration lifetime, Instant now) {
        return createCa(commonName, lifetime, now, KeyAlgorithm.DEFAULT);
    }

    public static CertificateAndKey createCa(String commonName, Duration lifetime, Instant now, KeyAlgorithm algorithm) {
        if (commonName == null || commonName.isBlank()) {
            throw new IllegalArgumentException("CA common name must not be empty");
        }
        checkLifetime("CA lifetime", lifetime);
        KeyPair pair = algorithm.generate();
        X500Principal subject = new X500Principal("CN=" + escape(commonName.trim()));
        Instant notBefore = now.truncatedTo(ChronoUnit.SECONDS).minus(CLOCK_SKEW_ALLOWANCE);
        Instant notAfter = now.truncatedTo(ChronoUnit.SECONDS).plus(lifetime);
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, serial(),
                    Date.from(notBefore), Date.from(notAfter), subject, pair.getPublic())
                    // pathLen 0: this CA signs serving certificates only, never another CA
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(pair.getPublic()));
            return new CertificateAndKey(List.of(sign(b, pair.getPrivate())), pair.getPrivate());
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot create the CA certificate", e);
        }
    }

    /** The four DNS names of docs/install.md for a Service, in this order. */
    public static List<String> serviceDnsNames(String service, String namespace) {
        checkLabel("service", service);
        checkLabel("namespace", namespace);
        return List.of(service, service + "." + namespace, service + "." + namespace + ".svc",
                service + "." + namespace + ".svc.cluster.local");
    }

    public static CertificateAndKey issueServing(CertificateAndKey ca, String service, String namespace,
                                                 List<String> extraDnsNames, List<String> extraIps,
                                                 Duration lifetime, Instant now) {
        return issueServing(ca, service, namespace, extraDnsNames, extraIps, lifetime, now, KeyAlgorithm.DEFAULT);
    }

    public static CertificateAndKey issueServing(CertificateAndKey ca, String service, String namespace,
                                                 List<String> extraDnsNames, List<String> extraIps,
                                                 Duration lifetime, Instant now, KeyAlgorithm algorithm) {
        checkLifetime("serving certificate lifetime", lifetime);
        Set<String> dnsNames = new LinkedHashSet<>(serviceDnsNames(service, namespace));
        for (String d : extraDnsNames == null ? List.<String>of() : extraDnsNames) {
            dnsNames.add(dnsName(d));
        }
        List<GeneralName> sans = new ArrayList<>();
        dnsNames.forEach(n -> sans.add(new GeneralName(GeneralName.dNSName, n)));
        for (String ip : extraIps == null ? List.<String>of() : extraIps) {
            sans.add(new GeneralName(GeneralName.iPAddress, ipLiteral(ip)));
        }

        X509Certificate caCert = ca.leaf();
        Instant notBefore = now.truncatedTo(ChronoUnit.SECONDS).minus(CLOCK_SKEW_ALLOWANCE);
        Instant notAfter = now.truncatedTo(ChronoUnit.SECONDS).plus(lifetime);
        Instant caNotAfter = caCert.getNotAfter().toInstant();
        if (!notAfter.isBefore(caNotAfter)) {
            // a certificate outliving its CA would fail verification after the CA expires anyway
            notAfter = caNotAfter;
        }
        if (!notAfter.isAfter(now)) {
            throw new IllegalArgumentException("the CA '" + caCert.getSubjectX500Principal().getName()
                    + "' expired at " + caNotAfter + "; create a new CA");
        }
        KeyPair pair = algorithm.generate();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            int usage = KeyUsage.digitalSignature | (algorithm == KeyAlgorithm.RSA_2048 ? KeyUsage.keyEncipherment : 0);
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(caCert.getSubjectX500Principal(), serial(),
                    Date.from(notBefore), Date.from(notAfter),
                    new X500Principal("CN=" + escape(service + "." + namespace + ".svc")),
                    pair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(usage))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans.toArray(GeneralName[]::new)))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCert));
            return new CertificateAndKey(List.of(sign(b, ca.key())), pair.getPrivate());
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot issue the serving certificate", e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer) throws GeneralSecurityException {
        try {
            var contentSigner = new JcaContentSignerBuilder(KeyAlgorithm.of(signer).signatureAlgorithm()).build(signer);
            return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("cannot sign with a " + signer.getAlgorithm() + " key", e);
        }
    }

    /** Positive, 127 random bits: unique enough and within the 20-octet limit of RFC 5280. */
    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE);
    }

    private static void checkLifetime(String what, Duration lifetime) {
        if (lifetime == null || lifetime.isNegative() || lifetime.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException(what + " '" + lifetime + "' is too short; use at least 1 minute");
        }
    }

    private static void checkLabel(String field, String value) {
        if (value == null || value.length() > 63 || !DNS_LABEL.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " '" + value + "' is not a DNS-1123 label"
                    + " (lower-case letters, digits and '-', at most 63, starting and ending alphanumeric)");
        }
    }

    /**
     * Validates an IP literal and returns its canonical text. Only literals are accepted: InetAddress would
     * otherwise resolve a host name over the network.
     */
    static String ipLiteral(String ip) {
        String t = ip == null ? "" : ip.trim();
        boolean v4 = t.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean v6 = t.contains(":") && t.matches("[0-9a-fA-F:.]+");
        if (v4 && java.util.Arrays.stream(t.split("\\.")).allMatch(p -> Integer.parseInt(p) <= 255) || v6) {
            try {
                return InetAddress.getByName(t).getHostAddress();
            } catch (UnknownHostException e) {
                // fall through to the message below
            }
        }
        throw new IllegalArgumentException("extra IP '" + ip + "' is not an IPv4 or IPv6 literal (e.g. 10.0.0.5)");
    }

    /** Validates an extra DNS name and returns it lower-cased. */
    static String dnsName(String d) {
        String name = d == null ? "" : d.trim().toLowerCase(java.util.Locale.ROOT);
        if (name.length() > 253 || !DNS_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("extra DNS name '" + d + "' is not a valid DNS name"
                    + " (lower-case labels of letters, digits and '-', separated by '.', optional leading '*.')");
        }
        return name;
    }

    private static String escape(String cn) {
        return cn.replace("\\", "\\\\").replace(",", "\\,").replace("+", "\\+").replace("=", "\\=")
                .replace("\"", "\\\"").replace("<", "\\<").replace(">", "\\>").replace(";", "\\;");
    }
}
