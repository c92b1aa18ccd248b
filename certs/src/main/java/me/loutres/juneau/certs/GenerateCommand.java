package me.loutres.juneau.certs;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.CertificateRotation;
import me.loutres.juneau.tls.InvalidTlsMaterialException;
import me.loutres.juneau.tls.KeyAlgorithm;
import me.loutres.juneau.tls.Pem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code juneau certs generate}: CA + serving certificate for the webhook Service, renewed only when due. */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = {"Create (or renew when due) a CA and a serving certificate for the webhook Service.",
                "Writes ca.crt (the CA bundle), tls.crt and tls.key (mode 0600) to --out and/or the Secret --secret.",
                "The CA (ca.crt, ca.key) lives in --ca-dir, else in --ca-secret, else in the Secret <secret>-ca, else in <out>/ca.",
                "Certificates are renewed at 2/3 of their lifetime; a new CA keeps the old one in the bundle until it expires."})
public final class GenerateCommand implements Callable<Integer> {
    static final String CA_CRT = "ca.crt";
    static final String CA_KEY = "ca.key";
    static final String TLS_CRT = "tls.crt";
    static final String TLS_KEY = "tls.key";
    private static final Map<String, String> LABELS = Map.of("app.kubernetes.io/name", "juneau",
            "app.kubernetes.io/managed-by", "juneau-certs");

    @Spec
    CommandSpec spec;

    @Option(names = "--service", required = true, description = "Name of the webhook Service.")
    String service;
    @Option(names = "--namespace", required = true, description = "Namespace of the webhook Service.")
    String namespace;
    @Option(names = "--out", paramLabel = "DIR", description = "Directory for ca.crt, tls.crt and tls.key.")
    Path out;
    @Option(names = "--ca-dir", paramLabel = "DIR", description = "Directory holding (or receiving) the CA: ca.crt and ca.key.")
    Path caDir;
    @Option(names = "--lifetime", converter = Lifetimes.class, defaultValue = "8760h",
            description = "Serving certificate lifetime, e.g. 2160h, 90d, 1y (default: ${DEFAULT-VALUE}).")
    Duration lifetime;
    @Option(names = "--ca-lifetime", converter = Lifetimes.class, defaultValue = "87600h",
            description = "CA lifetime (default: ${DEFAULT-VALUE}).")
    Duration caLifetime;
    @Option(names = "--dns", paramLabel = "NAME", description = "Extra DNS name in the certificate (repeatable).")
    List<String> extraDns = new ArrayList<>();
    @Option(names = "--ip", paramLabel = "IP", description = "Extra IP address in the certificate (repeatable).")
    List<String> extraIps = new ArrayList<>();
    @Option(names = "--key-algorithm", defaultValue = "ecdsa-p256", description = "ecdsa-p256 (default) or rsa-2048.")
    String keyAlgorithm;
    @Option(names = "--force", description = "Issue a new serving certificate even if the current one is not due.")
    boolean force;
    @Option(names = "--renew-ca", description = "Create a new CA even if the current one is not due (the old one stays in the bundle).")
    boolean renewCa;
    @Option(names = "--secret", paramLabel = "NAME", description = "Also read and write the serving material in this kubernetes.io/tls Secret.")
    String secret;
    @Option(names = "--ca-secret", paramLabel = "NAME", description = "Keep the CA in this Secret (tls.crt, tls.key).")
    String caSecret;
    @Option(names = "--secret-namespace", paramLabel = "NS", description = "Namespace of the Secrets (default: --namespace).")
    String secretNamespace;
    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "kubeconfig for --secret/--ca-secret (default: in-cluster, then ~/.kube/config).")
    Path kubeconfig;

    private final ClientFactory clients;
    private final Clock clock;

    public GenerateCommand() {
        this(ClientFactory.DEFAULT, Clock.systemUTC());
    }

    GenerateCommand(ClientFactory clients, Clock clock) {
        this.clients = clients;
        this.clock = clock;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        try {
            run(spec.commandLine().getOut());
            return 0;
        } catch (UsageException e) {
            err.println("juneau certs generate: " + e.getMessage());
            return 2;
        } catch (CommandFailedException e) {
            err.println("juneau certs generate: " + e.getMessage());
            return 1;
        }
    }

    private void run(PrintWriter out) throws UsageException, CommandFailedException {
        if (this.out == null && secret == null) {
            throw new UsageException("say where to write: --out DIR and/or --secret NAME");
        }
        checkLifetimes(clock.instant());
        KeyAlgorithm algorithm;
        try {
            algorithm = KeyAlgorithm.parse(keyAlgorithm);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--key-algorithm: " + e.getMessage());
        }
        String ns = secretNamespace == null ? namespace : secretNamespace;
        boolean needsClient = secret != null || (caDir == null && caSecret != null);
        try (KubernetesClient client = needsClient ? clients.create(kubeconfig) : null) {
            CaStore caStore = caStore(client, ns);
            SecretMaterial tlsSecret = secret == null ? null : new SecretMaterial(client, ns, secret);

            Optional<CertificateAndKey> ca = caStore.read();
            ServingState serving = readServing(tlsSecret, out);
            CertificateRotation.Request request = new CertificateRotation.Request(service, namespace, extraDns, extraIps,
                    caLifetime, lifetime, algorithm, force, renewCa, null);
            CertificateRotation.Result result;
            try {
                result = CertificateRotation.apply(new CertificateRotation.Existing(ca, serving.material(), serving.bundle()),
                        request, clock.instant());
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            result.reasons().forEach(r -> out.println(r));

            caStore.write(result.ca(), out);
            String bundle = result.bundlePem();
            String crt = result.serving().certificatePem();
            String key = result.serving().keyPem();
            if (this.out != null) {
                MaterialFiles.ensureDirectory(this.out, false);
                for (var f : List.of(Map.entry(CA_CRT, bundle), Map.entry(TLS_CRT, crt), Map.entry(TLS_KEY, key))) {
                    Path p = this.out.resolve(f.getKey());
                    if (MaterialFiles.write(p, f.getValue(), f.getKey().equals(TLS_KEY))) {
                        out.println("wrote " + p + (f.getKey().equals(TLS_KEY) ? " (mode 0600)" : ""));
                    }
                }
            }
            if (tlsSecret != null) {
                boolean changed = tlsSecret.write(Map.of(CA_CRT, bundle, TLS_CRT, crt, TLS_KEY, key), LABELS);
                out.println(changed ? "wrote " + tlsSecret.describe() : tlsSecret.describe() + " unchanged");
            }
            out.println(result.changed() ? "done: inject the CA bundle with 'juneau certs inject --ca-file "
                    + (this.out != null ? this.out.resolve(CA_CRT) : "<ca.crt>") + "'" : "done: nothing was due");
            out.flush();
        }
    }

    /** RFC 5280: the last instant a certificate validity can express (GeneralizedTime 99991231235959Z). */
    static final Instant LAST_EXPRESSIBLE = Instant.parse("9999-12-31T23:59:59Z");

    /**
     * Both lifetimes are whole numbers in range before anything is read or written: at least a minute, ending before
     * the year 10000, and the serving certificate no longer-lived than the CA (it would otherwise be cut to the CA's
     * end without a word).
     */
    private void checkLifetimes(Instant now) throws UsageException {
        for (String option : List.of("--lifetime", "--ca-lifetime")) {
            Duration d = option.equals("--lifetime") ? lifetime : caLifetime;
            if (d.compareTo(Duration.ofMinutes(1)) < 0) {
                throw new UsageException(option + " " + given(option) + " is too short; use at least 1m");
            }
            if (d.compareTo(Duration.between(now, LAST_EXPRESSIBLE)) > 0) {
                throw new UsageException(option + " " + given(option) + " would end after the year 9999, the last date a "
                        + "certificate can carry; use a shorter lifetime");
            }
        }
        if (lifetime.compareTo(caLifetime) > 0) {
            throw new UsageException("--lifetime " + given("--lifetime") + " is longer than --ca-lifetime "
                    + given("--ca-lifetime") + "; a certificate cannot outlive the CA that signs it: shorten --lifetime or "
                    + "lengthen --ca-lifetime");
        }
    }

    /** The value as the user wrote it (or the default), for messages. */
    private String given(String option) {
        picocli.CommandLine.Model.OptionSpec o = spec.findOption(option);
        List<String> values = o.originalStringValues();
        return values.isEmpty() ? String.valueOf(o.defaultValue()) : values.get(values.size() - 1);
    }

    private record ServingState(Optional<CertificateAndKey> material, List<X509Certificate> bundle) {
    }

    private ServingState readServing(SecretMaterial tlsSecret, PrintWriter out) throws UsageException, CommandFailedException {
        Optional<String> crt;
        Optional<String> key;
        Optional<String> bundle;
        String where;
        if (tlsSecret != null) {
            Map<String, String> data = tlsSecret.read().orElse(Map.of());
            crt = Optional.ofNullable(data.get(TLS_CRT));
            key = Optional.ofNullable(data.get(TLS_KEY));
            bundle = Optional.ofNullable(data.get(CA_CRT));
            where = tlsSecret.describe();
        } else {
            crt = MaterialFiles.read(this.out.resolve(TLS_CRT));
            key = MaterialFiles.read(this.out.resolve(TLS_KEY));
            bundle = MaterialFiles.read(this.out.resolve(CA_CRT));
            where = this.out.toString();
        }
        List<X509Certificate> bundleCerts = List.of();
        if (bundle.isPresent() && !bundle.get().isBlank()) {
            try {
                bundleCerts = Pem.readCertificates(bundle.get());
            } catch (InvalidTlsMaterialException e) {
                // the bundle is rebuilt from the CA; an unreadable one only loses old CAs
                out.println("ignoring the unreadable " + CA_CRT + " in " + where + ": " + e.getMessage());
            }
        }
        if (crt.isEmpty() || key.isEmpty()) {
            return new ServingState(Optional.empty(), bundleCerts);
        }
        try {
            return new ServingState(Optional.of(new CertificateAndKey(Pem.readCertificates(crt.get()),
                    Pem.readPrivateKey(key.get()))), bundleCerts);
        } catch (InvalidTlsMaterialException e) {
            out.println("replacing the unreadable serving certificate in " + where + ": " + e.getMessage());
            return new ServingState(Optional.empty(), bundleCerts);
        }
    }

    private CaStore caStore(KubernetesClient client, String ns) {
        if (caDir != null) {
            return new DirectoryCaStore(caDir);
        }
        if (caSecret != null || secret != null) {
            return new SecretCaStore(new SecretMaterial(client, ns, caSecret != null ? caSecret : secret + "-ca"));
        }
        return new DirectoryCaStore(out.resolve("ca"));
    }

    /** Where the CA certificate and key are kept between runs. */
    private interface CaStore {
        Optional<CertificateAndKey> read() throws UsageException, CommandFailedException;

        void write(CertificateAndKey ca, PrintWriter out) throws UsageException, CommandFailedException;
    }

    private static Optional<CertificateAndKey> parseCa(Optional<String> crt, Optional<String> key, String where)
            throws UsageException {
        if (crt.isEmpty() && key.isEmpty()) {
            return Optional.empty();
        }
        if (crt.isEmpty() || key.isEmpty()) {
            throw new UsageException(where + " holds only half of a CA (" + (crt.isEmpty() ? "certificate missing" : "key missing")
                    + "); add the missing part or remove both to create a new CA");
        }
        try {
            List<X509Certificate> certs = Pem.readCertificates(crt.get());
            PrivateKey k = Pem.readPrivateKey(key.get());
            return Optional.of(new CertificateAndKey(List.of(certs.get(0)), k));
        } catch (InvalidTlsMaterialException e) {
            // never replace a CA silently: every client trusting it would break
            throw new UsageException("the CA in " + where + " is unusable: " + e.getMessage()
                    + "; fix it, or remove it to create a new CA");
        }
    }

    private static final class DirectoryCaStore implements CaStore {
        private final Path dir;

        DirectoryCaStore(Path dir) {
            this.dir = dir;
        }

        @Override
        public Optional<CertificateAndKey> read() throws UsageException {
            return parseCa(MaterialFiles.read(dir.resolve(CA_CRT)), MaterialFiles.read(dir.resolve(CA_KEY)), dir.toString());
        }

        @Override
        public void write(CertificateAndKey ca, PrintWriter out) throws UsageException {
            MaterialFiles.ensureDirectory(dir, true);
            if (MaterialFiles.write(dir.resolve(CA_CRT), Pem.certificates(List.of(ca.leaf())), false)) {
                out.println("wrote " + dir.resolve(CA_CRT));
            }
            if (MaterialFiles.write(dir.resolve(CA_KEY), ca.keyPem(), true)) {
                out.println("wrote " + dir.resolve(CA_KEY) + " (mode 0600)");
            }
        }
    }

    private static final class SecretCaStore implements CaStore {
        private final SecretMaterial secret;

        SecretCaStore(SecretMaterial secret) {
            this.secret = secret;
        }

        @Override
        public Optional<CertificateAndKey> read() throws UsageException, CommandFailedException {
            Map<String, String> data = secret.read().orElse(Map.of());
            return parseCa(Optional.ofNullable(data.get(TLS_CRT)), Optional.ofNullable(data.get(TLS_KEY)), secret.describe());
        }

        @Override
        public void write(CertificateAndKey ca, PrintWriter out) throws CommandFailedException {
            if (secret.write(Map.of(TLS_CRT, Pem.certificates(List.of(ca.leaf())), TLS_KEY, ca.keyPem()), LABELS)) {
                out.println("wrote " + secret.describe() + " (CA)");
            }
        }
    }
}
