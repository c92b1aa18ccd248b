package me.loutres.juneau.tls;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides, from what exists, whether to create a CA and issue a serving certificate, and builds the CA bundle.
 * Renews only when due (2/3 of the lifetime), when the names changed, or when forced; a CA change keeps the old
 * CA in the bundle. Pure apart from key generation: the clock is a parameter.
 */
public final class CertificateRotation {
    private CertificateRotation() {
    }

    /** What the caller wants. */
    public record Request(String service, String namespace, List<String> extraDnsNames, List<String> extraIps,
                          Duration caLifetime, Duration servingLifetime, KeyAlgorithm algorithm,
                          boolean forceServing, boolean forceCa, String caCommonName) {
        public Request {
            extraDnsNames = List.copyOf(extraDnsNames == null ? List.of() : extraDnsNames);
            extraIps = List.copyOf(extraIps == null ? List.of() : extraIps);
            algorithm = algorithm == null ? KeyAlgorithm.DEFAULT : algorithm;
            caLifetime = caLifetime == null ? CertificateIssuer.DEFAULT_CA_LIFETIME : caLifetime;
            servingLifetime = servingLifetime == null ? CertificateIssuer.DEFAULT_SERVING_LIFETIME : servingLifetime;
            caCommonName = caCommonName == null || caCommonName.isBlank() ? "juneau-webhook-ca" : caCommonName;
        }
    }

    /** What is already there; a missing or unusable part is empty. */
    public record Existing(Optional<CertificateAndKey> ca, Optional<CertificateAndKey> serving, List<X509Certificate> bundle) {
        public Existing {
            bundle = List.copyOf(bundle == null ? List.of() : bundle);
        }

        public static Existing none() {
            return new Existing(Optional.empty(), Optional.empty(), List.of());
        }
    }

    /** The material to keep or write, and why (one human line per decision, never key material). */
    public record Result(CertificateAndKey ca, boolean caCreated, CertificateAndKey serving, boolean servingIssued,
                         List<X509Certificate> bundle, boolean bundleChanged, List<String> reasons) {
        public boolean changed() {
            return caCreated || servingIssued || bundleChanged;
        }

        public String bundlePem() {
            return Pem.certificates(bundle);
        }
    }

    public static Result apply(Existing existing, Request request, Instant now) {
        Set<String> wanted = wantedNames(request); // validates the names before any key is generated
        List<String> reasons = new ArrayList<>();
        CertificateAndKey ca;
        boolean caCreated;
        String caWhy = caRenewalReason(existing.ca(), request, now);
        if (caWhy == null) {
            ca = existing.ca().orElseThrow();
            caCreated = false;
            reasons.add("CA kept: valid until " + ca.leaf().getNotAfter().toInstant() + ", renewal due at "
                    + Renewal.renewAt(ca.leaf()));
        } else {
            ca = CertificateIssuer.createCa(request.caCommonName(), request.caLifetime(), now, request.algorithm());
            caCreated = true;
            reasons.add("CA created: " + caWhy);
        }

        CertificateAndKey serving;
        boolean issued;
        String servingWhy = existing.serving().isEmpty() ? "none found"
                : caCreated ? "the CA changed" : servingRenewalReason(existing.serving(), ca, wanted, request, now);
        if (servingWhy == null) {
            serving = existing.serving().orElseThrow();
            issued = false;
            reasons.add("serving certificate kept: valid until " + serving.leaf().getNotAfter().toInstant()
                    + ", renewal due at " + Renewal.renewAt(serving.leaf()));
        } else {
            serving = CertificateIssuer.issueServing(ca, request.service(), request.namespace(), request.extraDnsNames(),
                    request.extraIps(), request.servingLifetime(), now, request.algorithm());
            issued = true;
            reasons.add("serving certificate issued: " + servingWhy);
        }

        List<X509Certificate> previous = new ArrayList<>(existing.bundle());
        existing.ca().ifPresent(old -> previous.add(old.leaf()));
        List<X509Certificate> bundle = CaBundle.merge(previous, ca.leaf(), now);
        boolean bundleChanged = !sameList(bundle, existing.bundle());
        if (bundle.size() > 1) {
            reasons.add("CA bundle holds " + bundle.size() + " CAs: the active one and "
                    + (bundle.size() - 1) + " previous one(s) until they expire");
        }
        return new Result(ca, caCreated, serving, issued, bundle, bundleChanged, List.copyOf(reasons));
    }

    private static String caRenewalReason(Optional<CertificateAndKey> existing, Request request, Instant now) {
        if (existing.isEmpty()) {
            return "none found";
        }
        X509Certificate c = existing.get().leaf();
        if (request.forceCa()) {
            return "renewal forced";
        }
        if (!KeyStores.keyMatches(c, existing.get().key())) {
            return "the CA key does not match the CA certificate";
        }
        if (Renewal.expired(c, now)) {
            return "the previous CA expired at " + c.getNotAfter().toInstant();
        }
        if (Renewal.due(c, now)) {
            return "the previous CA reached 2/3 of its lifetime at " + Renewal.renewAt(c);
        }
        return null;
    }

    private static String servingRenewalReason(Optional<CertificateAndKey> existing, CertificateAndKey ca,
                                               Set<String> wanted, Request request, Instant now) {
        if (existing.isEmpty()) {
            return "none found";
        }
        X509Certificate c = existing.get().leaf();
        if (request.forceServing()) {
            return "renewal forced";
        }
        if (!KeyStores.keyMatches(c, existing.get().key())) {
            return "the key does not match the certificate";
        }
        if (!signedBy(c, ca.leaf())) {
            return "it was not signed by the current CA";
        }
        if (Renewal.expired(c, now)) {
            return "the previous one expired at " + c.getNotAfter().toInstant();
        }
        if (Renewal.due(c, now)) {
            return "the previous one reached 2/3 of its lifetime at " + Renewal.renewAt(c);
        }
        Set<String> actual = actualNames(c);
        if (!wanted.equals(actual)) {
            return "its names " + actual + " differ from the requested " + wanted;
        }
        return null;
    }

    private static boolean signedBy(X509Certificate cert, X509Certificate ca) {
        try {
            cert.verify(ca.getPublicKey());
            return cert.getIssuerX500Principal().equals(ca.getSubjectX500Principal());
        } catch (Exception e) {
            return false;
        }
    }

    private static Set<String> wantedNames(Request r) {
        Set<String> out = new LinkedHashSet<>();
        CertificateIssuer.serviceDnsNames(r.service(), r.namespace()).forEach(n -> out.add("DNS:" + n));
        r.extraDnsNames().forEach(d -> out.add("DNS:" + CertificateIssuer.dnsName(d)));
        r.extraIps().forEach(ip -> out.add("IP:" + CertificateIssuer.ipLiteral(ip)));
        return out;
    }

    private static Set<String> actualNames(X509Certificate c) {
        Set<String> out = new LinkedHashSet<>();
        try {
            Collection<List<?>> sans = c.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    int type = (Integer) san.get(0);
                    if (type == 2) {
                        out.add("DNS:" + san.get(1));
                    } else if (type == 7) {
                        out.add("IP:" + CertificateIssuer.ipLiteral(String.valueOf(san.get(1))));
                    }
                }
            }
        } catch (Exception e) {
            // unreadable names: treated as different, so the certificate is re-issued
            out.add("unreadable");
        }
        return out;
    }

    private static boolean sameList(List<X509Certificate> a, List<X509Certificate> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!CaBundle.sameCertificate(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
