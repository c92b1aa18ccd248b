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

    @Option(names = "--lease-duration", defaultValue = "15", paramLabel = "SECONDS",
            description = "how long a Lease is valid without renewal; a standby takes over within it"
                    + " (default: ${DEFAULT-VALUE})")
    int leaseSeconds;

    @Option(names = "--arp-without-agents", description = "elect nodes without a juneau-agent Lease to answer ARP;"
            + " only where no agent runs by design (a local stack): in a cluster nobody would answer for such a node")
    boolean arpWithoutAgents;

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
        if (leaseSeconds < 3) {
            System.err.println("juneau controller: --lease-duration must be at least 3 seconds, got " + leaseSeconds);
            return EXIT_BAD_INPUT;
        }
        Duration lease = Duration.ofSeconds(leaseSeconds);
        Leadership.Timing timing = new Leadership.Timing(lease, lease.multipliedBy(2).dividedBy(3),
                lease.dividedBy(7));
        ControllerOptions options;
        try {
            options = ControllerOptions.defaults(identity != null ? identity : defaultIdentity())
                    .withNamespace(namespace).withLeaseName(leaseName).withMetricsPort(metricsPort)
                    .withWorkers(workers).withLease(timing).withArpWithoutAgents(arpWithoutAgents);
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
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            // SIGTERM: release the Lease so the standby takes over at once, then let main return
            UntilSignal.await(JuneauController.start(client, options), "juneau-shutdown");
        }
        return 0;
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
