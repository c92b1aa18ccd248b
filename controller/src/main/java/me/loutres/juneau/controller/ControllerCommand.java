package me.loutres.juneau.controller;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.runtime.Leadership;
import me.loutres.juneau.runtime.ops.ClientConfig;
import me.loutres.juneau.runtime.ops.Logging;
import me.loutres.juneau.runtime.ops.UntilSignal;
import me.loutres.juneau.tls.JdkCipherSuitesClientFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code juneau controller}: runs the controller until SIGTERM/SIGINT. Also the jar's main class. */
@Command(name = "controller", mixinStandardHelpOptions = true,
        description = {"Run the controller: allocates VIPs, writes ServiceLoadBalancer and Service status, elects the"
                + " ARP node. Only the replica holding the Lease writes; the others stand by.",
                "Uses the in-cluster service account by default, or --kubeconfig."})
public final class ControllerCommand implements Callable<Integer> {
    static final int EXIT_BAD_INPUT = 2;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "kubeconfig to use instead of the in-cluster service account")
    Path kubeconfig;

    @Option(names = "--namespace", defaultValue = JuneauConstants.SYSTEM_NAMESPACE,
            description = "namespace of the leader-election Lease (default: ${DEFAULT-VALUE})")
    String namespace;

    @Option(names = "--lease-name", defaultValue = ControllerOptions.DEFAULT_LEASE_NAME,
            description = "name of the Lease (default: ${DEFAULT-VALUE})")
    String leaseName;

    @Option(names = "--identity", description = "this replica's name in the Lease (default: $POD_NAME, $HOSTNAME or"
            + " the host name)")
    String identity;

    @Option(names = "--metrics-port", defaultValue = "8080",
            description = "port of /healthz, /readyz and /metrics; -1 for none (default: ${DEFAULT-VALUE})")
    int metricsPort;

    @Option(names = "--workers", defaultValue = "4",
            description = "Services reconciled in parallel (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(names = "--lease-duration", defaultValue = "15s", paramLabel = "DURATION",
            description = "how long a Lease is valid without renewal: a standby takes it over this long after it last"
                    + " saw it renewed (default: ${DEFAULT-VALUE}; 15, 15s, 1500ms, 1m)")
    String leaseDuration;

    @Option(names = "--renew-deadline", defaultValue = "10s", paramLabel = "DURATION",
            description = "the leader stops writing when its last successful renew is older than this; shorter than"
                    + " --lease-duration (default: ${DEFAULT-VALUE})")
    String renewDeadline;

    @Option(names = "--retry-period", defaultValue = "2s", paramLabel = "DURATION",
            description = "how often the leader renews and a standby tries to take the Lease; shorter than"
                    + " --renew-deadline (default: ${DEFAULT-VALUE})")
    String retryPeriod;

    @Option(names = "--arp-without-agents", description = "elect nodes without a juneau-agent Lease to answer ARP;"
            + " only where no agent runs by design (a local stack): in a cluster nobody would answer for such a node")
    boolean arpWithoutAgents;

    @Option(names = "--manage-unclassed", description = "also serve type: LoadBalancer Services without"
            + " spec.loadBalancerClass, as MetalLB does; they take the ExternalNetwork marked"
            + " juneau.loutres.me/default-network: \"true\" unless annotated. Give the webhook the same flag"
            + " (overlay manifests/overlays/default-class, docs/install.md)")
    boolean manageUnclassed;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The jar's command line: a wrong flag or value is one line and exit 2, as under {@code juneau}. */
    static CommandLine commandLine() {
        return me.loutres.juneau.runtime.ops.UsageErrors.oneLine(new ControllerCommand());
    }

    @Override
    public Integer call() throws Exception {
        Logging.quietUnlessConfigured();
        Leadership.Timing timing;
        try {
            timing = new Leadership.Timing(duration("--lease-duration", leaseDuration),
                    duration("--renew-deadline", renewDeadline), duration("--retry-period", retryPeriod));
        } catch (IllegalArgumentException e) {
            System.err.println("juneau controller: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        ControllerOptions options;
        try {
            options = ControllerOptions.defaults(identity != null ? identity : defaultIdentity())
                    .withNamespace(namespace).withLeaseName(leaseName).withMetricsPort(metricsPort)
                    .withWorkers(workers).withLease(timing).withArpWithoutAgents(arpWithoutAgents)
                    .withManageUnclassed(manageUnclassed);
        } catch (IllegalArgumentException e) {
            System.err.println("juneau controller: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        Config config;
        try {
            config = ClientConfig.of(kubeconfig);
        } catch (ClientConfig.UnusableException e) {
            System.err.println("juneau controller: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        // every replica runs under one service account: the User-Agent is what tells the API server (its audit log,
        // a test's request hook) which replica sent a request, e.g. a write from a leader whose term had ended
        config.setUserAgent(userAgent(options.identity()));
        // the JDK's cipher suites, ChaCha20-Poly1305 first: this JVM runs C1 only, where AES-GCM is plain Java
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
                .withHttpClientFactory(new JdkCipherSuitesClientFactory()).build()) {
            // SIGTERM: release the Lease so the standby takes over at once, then let main return
            UntilSignal.await(JuneauController.start(client, options), "juneau-shutdown");
        }
        return 0;
    }

    /** {@code 15} (seconds), {@code 2.5s}, {@code 1500ms} or {@code 1m}; more than zero. */
    static Duration duration(String flag, String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)?")
                .matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(flag + " must be a duration such as 15s, 2.5s, 1500ms or 1m, got \""
                    + text + "\"");
        }
        java.math.BigDecimal n = new java.math.BigDecimal(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        java.math.BigDecimal millis = switch (unit) {
            case "ms" -> n;
            case "m" -> n.multiply(java.math.BigDecimal.valueOf(60_000));
            default -> n.multiply(java.math.BigDecimal.valueOf(1000));
        };
        if (millis.signum() <= 0 || millis.compareTo(java.math.BigDecimal.valueOf(86_400_000L)) > 0) {
            throw new IllegalArgumentException(flag + " must be more than 0 and at most 24h, got \"" + text + "\"");
        }
        return Duration.ofMillis(millis.longValue());
    }

    /**
     * {@code juneau-controller/IDENTITY}: the replica's name in the Lease. A header carries printable ASCII only, so
     * anything else in a hand-given identity becomes {@code _} rather than breaking every request.
     */
    static String userAgent(String identity) {
        return "juneau-controller/" + identity.replaceAll("[^\\x21-\\x7e]", "_");
    }

    static String defaultIdentity() {
        for (String env : new String[] {"POD_NAME", "HOSTNAME"}) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        try {
            return InetAddress.getLocalHost().getHostName() + "-" + UUID.randomUUID().toString().substring(0, 8);
        } catch (IOException e) {
            return "juneau-controller-" + UUID.randomUUID().toString().substring(0, 8);
        }
    }
}
