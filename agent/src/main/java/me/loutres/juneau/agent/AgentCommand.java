package me.loutres.juneau.agent;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import me.loutres.juneau.agent.arp.AnnounceSchedule;
import me.loutres.juneau.agent.kube.AgentHttpClient;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.agent.net.Interfaces;
import me.loutres.juneau.agent.net.JnaPacketSockets;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.runtime.ops.ClientConfig;
import me.loutres.juneau.runtime.ops.Logging;
import me.loutres.juneau.runtime.ops.UntilSignal;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code juneau agent}: the node agent, until SIGTERM/SIGINT. Also the agent jar's main class. */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"Run the node agent: answers ARP for the VIPs this node owns (ARPAdvertisements labelled"
                + " juneau.loutres.me/node=<node>), sends gratuitous ARP on takeover, keeps the Lease"
                + " juneau-agent-<node> in juneau-system; announces the node's BGP routes through a BIRD 2 child"
                + " process.",
                "Needs CAP_NET_RAW and the host's network. Uses the in-cluster service account by default, or"
                        + " --kubeconfig."})
public final class AgentCommand implements Callable<Integer> {
    static final int EXIT_BAD_INPUT = 2;

    @Option(names = "--node", paramLabel = "NAME", defaultValue = "${env:NODE_NAME}",
            description = "the Node this agent runs on (default: $NODE_NAME, set from spec.nodeName by the DaemonSet)")
    String node;

    @Option(names = "--interface", paramLabel = "IF",
            description = "interface that may answer (repeatable); default: the one whose IPv4 prefix contains the VIP")
    List<String> interfaces = new ArrayList<>();

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "kubeconfig to use instead of the in-cluster service account")
    Path kubeconfig;

    @Option(names = "--namespace", defaultValue = JuneauConstants.SYSTEM_NAMESPACE,
            description = "namespace of the agent's Lease (default: ${DEFAULT-VALUE})")
    String namespace;

    @Option(names = "--metrics-bind", defaultValue = "0.0.0.0",
            description = "address of /healthz, /readyz and /metrics (default: ${DEFAULT-VALUE})")
    String metricsBind;

    @Option(names = "--metrics-port", defaultValue = "7473",
            description = "port of /healthz, /readyz and /metrics; 0 for any, -1 for none (default: ${DEFAULT-VALUE})")
    int metricsPort;

    @Option(names = "--garp-interval-ms", defaultValue = "1100", paramLabel = "MS",
            description = "time between gratuitous ARP rounds after a takeover (default: ${DEFAULT-VALUE})")
    long garpIntervalMs;

    @Option(names = "--garp-window-ms", defaultValue = "5000", paramLabel = "MS",
            description = "gratuitous ARP rounds start while less than this has passed since the takeover;"
                    + " 0 sends none (default: ${DEFAULT-VALUE})")
    long garpWindowMs;

    @Option(names = "--bird", paramLabel = "PATH",
            description = "the BIRD 2 daemon that announces the node's BGP routes (default: bird on the PATH, else"
                    + " /usr/sbin/bird); started only when the node has BGP peers or routes")
    Path bird;

    @Option(names = "--bird-dir", paramLabel = "DIR", defaultValue = "/run/juneau/bird",
            description = "BIRD's configuration and control socket, made mode 0700: it holds MD5 passwords"
                    + " (default: ${DEFAULT-VALUE})")
    Path birdDir;

    @Option(names = "--router-id", paramLabel = "IP",
            description = "the BGP router id (default: the Node's InternalIP)")
    String routerId;

    @Option(names = "--no-gratuitous-arp",
            description = "send no gratuitous ARP at all (only answer requests); neighbour caches then keep a moved"
                    + " VIP's old MAC until they expire it: for tests and troubleshooting only")
    boolean noGratuitousArp;

    private static void warn(String message) {
        org.slf4j.LoggerFactory.getLogger(AgentCommand.class).warn(message);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The jar's command line: a wrong flag or value is one line and exit 2, as under {@code juneau}. */
    static CommandLine commandLine() {
        return me.loutres.juneau.runtime.ops.UsageErrors.oneLine(new AgentCommand());
    }

    @Override
    public Integer call() throws Exception {
        Logging.quietUnlessConfigured();
        AgentOptions options;
        try {
            AnnounceSchedule schedule = noGratuitousArp ? AnnounceSchedule.NONE
                    : new AnnounceSchedule(Duration.ofMillis(garpIntervalMs), Duration.ofMillis(garpWindowMs));
            String holder = System.getenv("POD_NAME");
            options = AgentOptions.defaults(node).withInterfaces(interfaces).withNamespace(namespace)
                    .withHolder(holder == null || holder.isBlank() ? node : holder)
                    .withMetrics(metricsBind, metricsPort).withAnnounce(schedule).withLease(LeaseKeeper.Timing.DEFAULT);
        } catch (IllegalArgumentException e) {
            System.err.println("juneau agent: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        if (routerId != null && !me.loutres.juneau.ip.Ipv4.isValid(routerId)) {
            System.err.println("juneau agent: --router-id: '" + routerId + "' is not an IPv4 address");
            return EXIT_BAD_INPUT;
        }
        BgpOptions bgp = new BgpOptions(bird != null ? bird : BgpOptions.locate("bird"), birdDir, routerId,
                java.util.List.of());
        Config config;
        try {
            config = ClientConfig.of(kubeconfig);
        } catch (ClientConfig.UnusableException e) {
            System.err.println("juneau agent: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        try (AgentHttpClient http = AgentHttpClient.open(config)) {
            KubernetesClient client = http.client();
            NodeAgent agent;
            try {
                agent = NodeAgent.start(client, options, bgp, java.time.Clock.systemUTC(), new JnaPacketSockets(),
                        Interfaces::list);
            } catch (IOException e) {
                System.err.println("juneau agent: cannot start: " + e.getMessage());
                return EXIT_BAD_INPUT;
            }
            // the node's interfaces, prefixes and gateways on its NodeNetwork (docs/api-reference.md, NodeNetwork)
            me.loutres.juneau.agent.kube.NodeNetworkReporter network = new me.loutres.juneau.agent.kube
                    .NodeNetworkReporter(client, node, new me.loutres.juneau.agent.net.ProcNetwork("self")::read).start();
            try {
                UntilSignal.await(agent, "juneau-agent-shutdown");
            } finally {
                network.close();
            }
        }
        return 0;
    }
}
