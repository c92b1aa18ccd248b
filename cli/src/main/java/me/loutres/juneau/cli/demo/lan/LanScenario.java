package me.loutres.juneau.cli.demo.lan;


import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;





import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.cli.demo.LocalStack;

/**
 * Layer-2 failover on one machine, for the end-to-end test, the demo and the takeover benchmark: an {@link ArpLab}
 * (a client with a router-like neighbour cache, nodes {@code node-a} and {@code node-b}), the local stack (API
 * server, webhook, controller), one arp Service {@code default/web} with VIP 198.18.0.100 and a backend on each
 * node, and a real agent process per node reaching the API server through an {@link ApiForwarder}.
 */
public final class LanScenario implements AutoCloseable {
    public static final String VIP = "198.18.0.100";
    public static final String NS = LabObjects.NS;
    public static final String SVC = LabObjects.SVC;

    private final ArpLab lab;
    private final ArpLab.Host client;
    private final Map<String, ArpLab.Host> nodes = new LinkedHashMap<>();
    private final List<ApiForwarder> forwarders = new ArrayList<>();
    private final Map<String, AgentProcess> agents = new LinkedHashMap<>();
    private final LocalStack stack;
    private final KubernetesClient admin;
    private final Path work;
    private List<String> agentJvm = me.loutres.juneau.agent.AgentJvm.FLAGS;
    private String agentClassPath = System.getProperty("java.class.path");

    private LanScenario(ArpLab lab) throws Exception {
        this.lab = lab;
        this.client = lab.host("client", 1);
        lab.routerLikeNeighbourCache(client);
        nodes.put("node-a", lab.host("node-a", 11));
        nodes.put("node-b", lab.host("node-b", 12));
        this.stack = LocalStack.startForAgents(0, 0);
        this.admin = stack.api().adminClient();
        this.work = Files.createTempDirectory("juneau-lan-");
    }

    /** Builds the LAN and the stack and creates the objects; the agents are started separately. */
    public static LanScenario start() throws Exception {
        ArpLab lab = ArpLab.create();
        LanScenario s = null;
        try {
            s = new LanScenario(lab);
            if (!s.stack.awaitReady(Duration.ofSeconds(30))) {
                throw new IOException("the local stack did not become ready within 30 s");
            }
            s.objects();
            return s;
        } catch (Exception | Error e) {
            if (s != null) {
                s.close();
            } else {
                lab.close();
            }
            throw e;
        }
    }

    private void objects() {
        LabObjects.nodes(admin, nodes.values());
        AddressPool pool = new AddressPool();
        pool.setMetadata(new ObjectMetaBuilder().withName("lab").build());
        pool.setSpec(new AddressPoolSpec("arp", List.of(VIP + "-" + VIP)));
        admin.resources(AddressPool.class).resource(pool).create();
        ExternalNetwork net = new ExternalNetwork();
        net.setMetadata(new ObjectMetaBuilder().withName("lab").build());
        net.setSpec(new ExternalNetworkSpec("arp", List.of("lab")));
        admin.resources(ExternalNetwork.class).resource(net).create();
        LabObjects.serviceWithBackends(admin);
    }


    /** A client with the controller's identity (the only one allowed to create ARPAdvertisements). */
    public KubernetesClient controllerClient() {
        return stack.api().client(Identities.CONTROLLER_TOKEN);
    }

    public KubernetesClient admin() {
        return admin;
    }

    public ArpLab lab() {
        return lab;
    }

    public ArpLab.Host client() {
        return client;
    }

    public ArpLab.Host node(String name) {
        return nodes.get(name);
    }

    public AgentProcess agent(String node) {
        return agents.get(node);
    }

    public String mac(String node) {
        return nodes.get(node).mac().toString();
    }

    public static String other(String node) {
        return node.equals("node-a") ? "node-b" : "node-a";
    }

    /**
     * The JVM options and class path of the agents started from now on (a benchmark's baseline: other flags, other
     * jars); by default the DaemonSet's flags ({@link me.loutres.juneau.agent.AgentJvm#FLAGS}) and this JVM's class
     * path.
     */
    public void agentJvm(List<String> flags, String classPath) {
        this.agentJvm = List.copyOf(flags);
        this.agentClassPath = classPath;
    }

    public List<String> agentJvm() {
        return agentJvm;
    }

    /** Starts one agent per node (forwarders are opened on first use). */
    public void startAgents(boolean gratuitousArp, List<String> jvmArgs) throws Exception {
        startAgents(gratuitousArp, jvmArgs, List.of());
    }

    public void startAgents(boolean gratuitousArp, List<String> jvmArgs, List<String> agentArgs) throws Exception {
        if (forwarders.isEmpty()) {
            for (ArpLab.Host n : nodes.values()) {
                forwarders.add(ApiForwarder.open(n.namespace(), stack.api().port()));
            }
        }
        for (ArpLab.Host n : nodes.values()) {
            agents.put(n.name(), AgentProcess.start(n.namespace(), n.name(),
                    agentKubeconfig(n.name()), work, gratuitousArp, agentJvm,
                    agentClassPath, jvmArgs, agentArgs));
        }
    }

    public void stopAgents() throws InterruptedException {
        for (AgentProcess a : agents.values()) {
            a.stop();
        }
        agents.clear();
    }

    /** The node's backend turns ready or not ready (what a failing readiness probe does). */
    public void setReady(String node, boolean ready) {
        LabObjects.setReady(admin, node, ready);
    }

    public ARPAdvertisement advertisement() {
        return admin.resources(ARPAdvertisement.class).withName(JuneauConstants.arpAdvertisementName(NS, SVC)).get();
    }

    public String elected() {
        ARPAdvertisement a = advertisement();
        return a == null || a.getSpec() == null ? null : a.getSpec().getNodeName();
    }

    /**
     * Waits until the agent of {@code node} (any node when null) reports that it answers, in a status written after
     * {@code since} (a status left by an earlier agent process does not count); returns that node.
     */
    public String awaitAnnouncedBy(String node, Instant since, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            ARPAdvertisement a = advertisement();
            if (a != null && a.getStatus() != null && a.getStatus().getNode() != null
                    && a.getStatus().getNode().equals(a.getSpec().getNodeName())
                    && (node == null || node.equals(a.getStatus().getNode()))
                    && a.getStatus().getAnnouncedAt() != null
                    && !Instant.parse(a.getStatus().getAnnouncedAt()).isBefore(since.minusSeconds(1))
                    && a.getStatus().getConditions().stream()
                    .anyMatch(c -> "Announced".equals(c.getType()) && "True".equals(c.getStatus()))) {
                return a.getStatus().getNode();
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the agent of " + (node == null ? "the elected node" : node)
                + " did not report Announced within " + timeout.toSeconds() + " s; advertisement: " + advertisement()
                + logs());
    }

    /** Makes the client's kernel resolve {@code ip} (one UDP datagram to it, as any first packet would). */
    public void clientSendsTo(String ip) throws Exception {
        Netns.inside(client.namespace(), () -> {
            try (DatagramSocket s = new DatagramSocket()) {
                s.send(new DatagramPacket(new byte[] {1}, 1, InetAddress.getByName(ip), 9));
            }
            return null;
        });
    }

    /** The MAC in the client's neighbour cache for the VIP, or null. */
    public String clientEntry() throws IOException, InterruptedException {
        return lab.neighbour(client, VIP);
    }

    /**
     * Polls the client's neighbour entry for the VIP until it shows {@code mac}.
     *
     * @return the time from {@code sinceNanos}, or null when it did not within {@code timeout}
     */
    public Duration awaitClientEntry(String mac, long sinceNanos, Duration timeout) throws Exception {
        long deadline = sinceNanos + timeout.toNanos();
        do {
            if (mac.equals(clientEntry())) {
                return Duration.ofNanos(System.nanoTime() - sinceNanos);
            }
            Thread.sleep(2);
        } while (System.nanoTime() < deadline);
        return mac.equals(clientEntry()) ? Duration.ofNanos(System.nanoTime() - sinceNanos) : null;
    }

    public String clientTable() throws IOException, InterruptedException {
        return lab.neighbourTable(client);
    }

    public String logs() {
        StringBuilder b = new StringBuilder();
        agents.values().forEach(a -> b.append("\n--- agent ").append(a.node()).append(" ---\n").append(a.logTail()));
        return b.toString();
    }

    /** Stops the agents (only ours, by pid), the forwarders and the stack, and deletes every namespace. */
    @Override
    public void close() {
        agents.values().forEach(AgentProcess::close);
        agents.clear();
        forwarders.forEach(ApiForwarder::close);
        forwarders.clear();
        stack.close();
        lab.close();
        try (Stream<Path> files = Files.walk(work)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory with a local-only kubeconfig and agent logs
        }
    }
    /**
     * The agent of one node has its own kubeconfig (its node's token, as a pod's service-account token names its
     * node), so the webhook refuses its writes about the other node, as in a cluster.
     */
    private Path agentKubeconfig(String node) throws IOException {
        return stack.api().writeKubeconfig(work.resolve("agent-" + node + ".kubeconfig"), "juneau-agent",
                stack.api().agentToken(node));
    }
}
