package me.loutres.juneau.cli.demo.lan;


import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;





import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import me.loutres.juneau.agent.BgpOptions;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPPeerSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkBgp;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.cli.demo.LocalStack;

/**
 * BGP on one machine, for the end-to-end test and the demo (docs/bgp.md): a LAN of namespaces ({@link ArpLab}) with
 * a router (198.18.0.1, AS 65000) running its own BIRD, which installs what it learns into its kernel table with
 * ECMP ({@code merge paths}), and nodes {@code node-a} (.11) and {@code node-b} (.12); the local stack (API server,
 * webhook, controller); one BGP network {@code lab} with community 65000:100, one BGPPeer {@code tor}, one Service
 * {@code default/web} with VIP {@value #VIP} and a backend on each node; and a real agent process per node, whose
 * BIRD runs in that node's namespace.
 */
public final class BgpLanScenario implements AutoCloseable {
    public static final String VIP = "198.18.100.1";
    public static final String COMMUNITY = "65000:100";
    public static final String NS = LabObjects.NS;
    public static final String SVC = LabObjects.SVC;
    public static final Path BIRD = BgpOptions.locate("bird");
    public static final Path BIRDC = BgpOptions.locate("birdc");
    /**
     * The router's second address: sessions there require TCP MD5 with {@value #ROUTER_MD5_PASSWORD}, learn nothing
     * and only listen, so a BGPPeer pointed at it (the end-to-end test's) adds a session without touching the VIP's
     * route.
     */
    public static final String ROUTER_MD5_IP = ArpLab.SUBNET + "2";
    public static final String ROUTER_MD5_PASSWORD = "r1ght-pass";

    private final ArpLab lab;
    private final ArpLab.Host router;
    private final Map<String, ArpLab.Host> nodes = new LinkedHashMap<>();
    private final List<ApiForwarder> forwarders = new ArrayList<>();
    private final Map<String, AgentProcess> agents = new LinkedHashMap<>();
    private final LocalStack stack;
    private final KubernetesClient admin;
    private final Path work;
    private Process routerBird;

    private BgpLanScenario(ArpLab lab) throws Exception {
        this.lab = lab;
        this.work = Files.createTempDirectory("juneau-bgp-lan-");
        this.router = lab.host("router", 1);
        nodes.put("node-a", lab.host("node-a", 11));
        nodes.put("node-b", lab.host("node-b", 12));
        this.stack = LocalStack.startForAgents(0, 0);
        this.admin = stack.api().adminClient();
    }

    /** Why this cannot run here (not root, no namespaces, no BIRD), or null when it can. */
    public static String unavailableReason() {
        String reason = ArpLab.unavailableReason();
        if (reason != null) {
            return reason;
        }
        if (!Files.isExecutable(BIRD) || !Files.isExecutable(BIRDC)) {
            return "no BIRD 2 (" + BIRD + ", " + BIRDC + "): run .ci/install-bird (Debian's bird2)";
        }
        return null;
    }

    /** Builds the LAN, the router's BIRD and the stack and creates the objects; the agents are started separately. */
    public static BgpLanScenario start() throws Exception {
        ArpLab lab = ArpLab.create();
        BgpLanScenario s = null;
        try {
            s = new BgpLanScenario(lab);
            s.startRouter();
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

    /**
     * The router: one session per node, retried within seconds rather than BIRD's minute, each bound to its own
     * address ({@code strict bind}: two addresses, two sessions per node) and with BFD at 300 ms x 3 for the nodes
     * whose peer asks for it (a node without BFD still peers: BIRD 2.0 waits for no BFD session); its kernel table
     * takes both nodes' routes to a VIP as one multipath route. On {@link #ROUTER_MD5_IP} each node has a passive,
     * MD5-protected session that imports nothing (port 1179 for the node: BIRD locks one session per neighbour
     * address and port).
     */
    static String routerConfig(Map<String, ArpLab.Host> nodes, String routerIp) {
        StringBuilder b = new StringBuilder("router id " + routerIp + ";\n"
                + "protocol device { }\n"
                + "protocol bfd { interface \"*\" { min rx interval 300 ms; min tx interval 300 ms; multiplier 3; }; }\n"
                + "protocol kernel { ipv4 { import none; export all; }; merge paths on; }\n");
        String timers = "  hold time 9;\n  strict bind;\n  connect delay time 1;\n  connect retry time 2;\n"
                + "  error wait time 1, 5;\n";
        for (ArpLab.Host n : nodes.values()) {
            b.append("protocol bgp ").append(protocol(n.name())).append(" {\n")
                    .append("  local ").append(routerIp).append(" as 65000;\n")
                    .append("  neighbor ").append(n.ip()).append(" as 65001;\n")
                    .append(timers).append("  bfd on;\n")
                    .append("  ipv4 { import all; export none; };\n}\n");
            b.append("protocol bgp ").append(md5Protocol(n.name())).append(" {\n")
                    .append("  local ").append(ROUTER_MD5_IP).append(" as 65000;\n")
                    .append("  neighbor ").append(n.ip()).append(" port 1179 as 65001;\n")
                    .append(timers).append("  passive;\n")
                    .append("  password \"").append(ROUTER_MD5_PASSWORD).append("\";\n")
                    .append("  ipv4 { import none; export none; };\n}\n");
        }
        return b.toString();
    }

    /** The router's BIRD protocol name for a node's session on {@link #ROUTER_MD5_IP}. */
    public static String md5Protocol(String node) {
        return protocol(node) + "_md5";
    }

    /** The router's BIRD protocol name for a node ({@code node_a} for {@code node-a}). */
    public static String protocol(String node) {
        return node.replace('-', '_');
    }

    private void startRouter() throws IOException, InterruptedException {
        Netns.ip(router.namespace(), "addr", "add", ROUTER_MD5_IP + "/24", "dev", "eth0");
        Path conf = work.resolve("router.conf");
        Files.writeString(conf, routerConfig(nodes, router.ip()), StandardCharsets.UTF_8);
        routerBird = new ProcessBuilder("ip", "netns", "exec", router.namespace(), BIRD.toString(), "-f", "-c",
                conf.toString(), "-s", routerSocket().toString())
                .redirectErrorStream(true).redirectOutput(work.resolve("router.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(routerSocket()) && routerBird.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        if (!routerBird.isAlive() || !Files.exists(routerSocket())) {
            throw new IOException("the router's BIRD did not start: " + Files.readString(work.resolve("router.log")));
        }
    }

    private Path routerSocket() {
        return work.resolve("router.ctl");
    }

    private void objects() {
        LabObjects.nodes(admin, nodes.values());
        AddressPool pool = new AddressPool();
        pool.setMetadata(new ObjectMetaBuilder().withName("lab").build());
        pool.setSpec(new AddressPoolSpec("bgp", List.of(VIP + "/32")));
        admin.resources(AddressPool.class).resource(pool).create();
        BGPPeer peer = new BGPPeer();
        peer.setMetadata(new ObjectMetaBuilder().withName("tor").build());
        BGPPeerSpec ps = new BGPPeerSpec();
        ps.setPeerAddress(router.ip());
        ps.setPeerASN(65000L);
        ps.setMyASN(65001L);
        ps.setHoldTime("9s");
        peer.setSpec(ps);
        admin.resources(BGPPeer.class).resource(peer).create();
        ExternalNetwork net = new ExternalNetwork();
        net.setMetadata(new ObjectMetaBuilder().withName("lab").build());
        ExternalNetworkSpec spec = new ExternalNetworkSpec("bgp", List.of("lab"));
        ExternalNetworkBgp bgp = new ExternalNetworkBgp();
        bgp.setCommunities(List.of(COMMUNITY));
        spec.setBgp(bgp);
        net.setSpec(spec);
        admin.resources(ExternalNetwork.class).resource(net).create();
        LabObjects.serviceWithBackends(admin);
    }


    public KubernetesClient admin() {
        return admin;
    }

    public ArpLab lab() {
        return lab;
    }

    public ArpLab.Host node(String name) {
        return nodes.get(name);
    }

    public AgentProcess agent(String node) {
        return agents.get(node);
    }

    /** Starts one agent per node, each running its BIRD in its own namespace from a directory of its own. */
    public void startAgents() throws Exception {
        if (forwarders.isEmpty()) {
            for (ArpLab.Host n : nodes.values()) {
                forwarders.add(ApiForwarder.open(n.namespace(), stack.api().port()));
            }
        }
        for (ArpLab.Host n : nodes.values()) {
            agents.put(n.name(), AgentProcess.start(n.namespace(), n.name(),
                    agentKubeconfig(n.name()), work, true, extraJvm(),
                    List.of("--bird", BIRD.toString(), "--bird-dir", work.resolve("bird-" + n.name()).toString())));
        }
    }

    /** A Service on {@code network} with a ready backend on each node (for Services that come and go). */
    public void createServiceWithBackends(String name, String network) {
        LabObjects.serviceWithBackends(admin, name, network);
    }

    public void deleteService(String name) {
        LabObjects.deleteService(admin, name);
    }

    /** JVM options after the DaemonSet's (a benchmark's larger heap: {@code -Dlan.agent.jvm=-Xmx256m}); none by default. */
    private static List<String> extraJvm() {
        String extra = System.getProperty("lan.agent.jvm", "").trim();
        return extra.isEmpty() ? List.of() : List.of(extra.split("\\s+"));
    }

    /** The node's backend turns ready or not ready (what a failing readiness probe does). */
    public void setReady(String node, boolean ready) {
        LabObjects.setReady(admin, node, ready);
    }

    /** The router's kernel route to the VIP, as {@code ip route} prints it (empty when there is none). */
    public String routerKernelRoute() throws IOException, InterruptedException {
        return Netns.ip(router.namespace(), "route", "show", VIP + "/32");
    }

    /** The router's BIRD's view of the VIP ({@code show route all}): every path, with its communities. */
    public String routerBirdRoute() throws IOException, InterruptedException {
        return birdc("show", "route", "all", VIP + "/32");
    }

    /** The router's one line about its session with a node (state and since). */
    public String routerSession(String node) throws IOException, InterruptedException {
        return routerProtocol(protocol(node));
    }

    /** The router's one line about one of its BIRD protocols (state and since), empty when there is none. */
    public String routerProtocol(String p) throws IOException, InterruptedException {
        return birdc("show", "protocols", p).lines().filter(l -> l.startsWith(p + " ")).findFirst().orElse("");
    }

    /** The router's BFD sessions ({@code show bfd sessions}). */
    public String routerBfdSessions() throws IOException, InterruptedException {
        return birdc("show", "bfd", "sessions");
    }

    /** The router's kernel routes learned by BIRD, as {@code ip route} prints them. */
    public String routerKernelRoutes() throws IOException, InterruptedException {
        return Netns.ip(router.namespace(), "route", "show", "proto", "bird");
    }

    private String birdc(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(BIRDC.toString(), "-s", routerSocket().toString()));
        cmd.addAll(List.of(args));
        return Netns.run(cmd.toArray(String[]::new));
    }

    /** The nodes whose address is a next hop of the router's kernel route to the VIP. */
    public List<String> nextHops() throws IOException, InterruptedException {
        String route = routerKernelRoute();
        List<String> hops = new ArrayList<>();
        for (ArpLab.Host n : nodes.values()) {
            if (route.contains("via " + n.ip() + " ")) {
                hops.add(n.name());
            }
        }
        return hops;
    }

    /**
     * Polls the router's next hops for the VIP until they are exactly {@code expected}.
     *
     * @return the time from {@code sinceNanos}, or null when they were not within {@code timeout}
     */
    public Duration awaitNextHops(List<String> expected, long sinceNanos, Duration timeout) throws Exception {
        long deadline = sinceNanos + timeout.toNanos();
        do {
            if (nextHops().equals(expected)) {
                return Duration.ofNanos(System.nanoTime() - sinceNanos);
            }
            Thread.sleep(2);
        } while (System.nanoTime() < deadline);
        return nextHops().equals(expected) ? Duration.ofNanos(System.nanoTime() - sinceNanos) : null;
    }

    public String logs() {
        StringBuilder b = new StringBuilder();
        agents.values().forEach(a -> b.append("\n--- agent ").append(a.node()).append(" ---\n").append(a.logTail()));
        try {
            b.append("\n--- router BIRD ---\n").append(Files.readString(work.resolve("router.log")));
        } catch (IOException e) {
            b.append("\n(no router log: ").append(e.getMessage()).append(')');
        }
        return b.toString();
    }

    /** Stops the agents (by pid; their BIRDs die with them), the router's BIRD, the stack, and every namespace. */
    @Override
    public void close() {
        agents.values().forEach(AgentProcess::close);
        agents.clear();
        forwarders.forEach(ApiForwarder::close);
        forwarders.clear();
        if (routerBird != null) {
            routerBird.destroy();
            try {
                if (!routerBird.waitFor(5, TimeUnit.SECONDS)) {
                    routerBird.destroyForcibly();
                    routerBird.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                routerBird.destroyForcibly();
            }
        }
        stack.close();
        lab.close();
        try (Stream<Path> files = Files.walk(work)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory with a local-only kubeconfig, BIRD configurations and logs
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
