package me.loutres.juneau.webhook.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.webhook.view.ClusterViewSource;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code juneau webhook}: the admission webhook over HTTPS until interrupted (SIGTERM stops it gracefully). */
@Command(name = "webhook", mixinStandardHelpOptions = true, version = "juneau webhook 0.1.0",
        description = {"Run the admission webhook over HTTPS (TLS 1.2+, HTTP/1.1).",
                "The certificate and key files are reloaded within 10 s of a change; a broken pair is refused and the "
                        + "last good one keeps serving.",
                "Endpoints: /validate/*, /mutate/services, /healthz, /readyz, /metrics."})
public final class WebhookCommand implements Callable<Integer> {
    /** Exit code when the server cannot start (bad files or flags). */
    public static final int EXIT_CANNOT_START = 2;

    @Option(names = "--tls-cert-file", required = true, paramLabel = "FILE",
            description = "PEM certificate chain, leaf first (e.g. tls.crt of the mounted Secret).")
    Path certFile;

    @Option(names = "--tls-key-file", required = true, paramLabel = "FILE",
            description = "PEM private key (PKCS#8, EC or RSA).")
    Path keyFile;

    /** The defaults picocli fills in, and WebhookArgs too when it reads the arguments without picocli. */
    static final String DEFAULT_PORT = "9443";
    static final String DEFAULT_BIND_ADDRESS = "0.0.0.0";
    static final String DEFAULT_SHUTDOWN_GRACE = "10s";

    @Option(names = "--port", defaultValue = DEFAULT_PORT, paramLabel = "PORT", description = "HTTPS port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind-address", defaultValue = DEFAULT_BIND_ADDRESS, paramLabel = "ADDRESS",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bindAddress;

    @ArgGroup(exclusive = true)
    ViewChoice view;

    static final class ViewChoice {
        @Option(names = "--kubeconfig", paramLabel = "FILE",
                description = "Read the cluster through this kubeconfig (default: in-cluster service account).")
        Path kubeconfig;

        @Option(names = "--cluster-state", paramLabel = "FILE",
                description = "Offline: read the cluster view from this YAML (kubectl get -o yaml output).")
        Path clusterState;
    }

    @Option(names = "--controller-username", paramLabel = "USER",
            description = "userInfo.username of the controller, the only writer of ServiceLoadBalancers and "
                    + "ARPAdvertisements (repeatable; default " + JuneauConstants.DEFAULT_CONTROLLER_USERNAME + ").")
    List<String> controllerUsernames = new ArrayList<>();

    @Option(names = "--agent-username", paramLabel = "USER",
            description = "userInfo.username of the node agent, which may update only the status of an "
                    + "ARPAdvertisement of its own node (repeatable; default " + JuneauConstants.DEFAULT_AGENT_USERNAME
                    + ").")
    List<String> agentUsernames = new ArrayList<>();

    @Option(names = "--reserved-cidr", paramLabel = "CIDR",
            description = "Address block no AddressPool may overlap: Service and Pod CIDRs, gateways (repeatable).")
    List<String> reservedCidrs = new ArrayList<>();

    @Option(names = "--manage-unclassed",
            description = "Also review type: LoadBalancer Services without spec.loadBalancerClass as Juneau's, as the "
                    + "controller does with the same flag; the webhook configuration must send them too (overlay "
                    + "manifests/overlays/default-class, docs/install.md).")
    boolean manageUnclassed;

    @Option(names = "--shutdown-grace", defaultValue = DEFAULT_SHUTDOWN_GRACE, paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long a stop waits for in-flight requests (default: ${DEFAULT-VALUE}).")
    Duration shutdownGrace;

    @Override
    public Integer call() {
        WebhookLogging.configureUnlessConfigured();
        WebhookConfig config;
        try {
            config = config();
        } catch (IllegalArgumentException e) {
            System.err.println("juneau webhook: " + e.getMessage());
            return EXIT_CANNOT_START;
        }
        WebhookServer server = new WebhookServer();
        try {
            int bound = server.start(config);
            System.err.println("juneau webhook: serving HTTPS on " + bindAddress + ":" + bound);
        } catch (WebhookServer.WebhookStartException e) {
            System.err.println("juneau webhook: cannot start: " + e.getMessage());
            return EXIT_CANNOT_START;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            stopped.countDown();
        }, "webhook-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.stop();
        }
        return 0;
    }

    WebhookConfig config() {
        ClusterViewSource source = view == null ? new ClusterViewSource.InCluster()
                : view.clusterState != null ? new ClusterViewSource.StateFile(view.clusterState)
                : new ClusterViewSource.Kubeconfig(view.kubeconfig);
        AdmissionSettings settings = new AdmissionSettings(new LinkedHashSet<>(controllerUsernames), reservedCidrs,
                new LinkedHashSet<>(agentUsernames), ManagedServices.of(manageUnclassed));
        return WebhookConfig.builder(certFile, keyFile).port(port).bindAddress(bindAddress).settings(settings)
                .viewSource(source).shutdownGrace(shutdownGrace).build();
    }

    /** Accepts {@code 10s}, {@code 500ms}, {@code 1m} or an ISO-8601 duration. */
    static final class DurationConverter implements picocli.CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.strip().toLowerCase(java.util.Locale.ROOT);
            try {
                if (v.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
                }
                if (v.endsWith("s")) {
                    return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
                }
                if (v.endsWith("m")) {
                    return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
                }
                return Duration.parse(value.strip());
            } catch (RuntimeException e) {
                throw new picocli.CommandLine.TypeConversionException("'" + value
                        + "' is not a duration; use e.g. 10s, 500ms, 1m");
            }
        }
    }
}
