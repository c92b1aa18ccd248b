package me.loutres.juneau.cli.ndp;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.apiserver.LocalApiServer;
import me.loutres.juneau.cli.demo.lan.AgentProcess;
import me.loutres.juneau.cli.demo.lan.ApiForwarder;
import me.loutres.juneau.cli.demo.lan.ArpLab;
import me.loutres.juneau.cli.demo.lan.ArpProber;
import me.loutres.juneau.cli.demo.lan.Netns;
import me.loutres.juneau.cli.lan.LanGuard;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A dual-stack Service's two VIPs on the wire (issue 40 item 4, docs/ndp.md): a namespace LAN with IPv6 on, a client
 * whose neighbour caches (ARP and NDP) behave like a router's, two nodes each running the real agent, and the local
 * API server. The ARPAdvertisements are written here as the controller would write them for one Service
 * ({@code slb-default-web} with the IPv4 VIP, {@code slb-default-web-ipv6} with the IPv6 one, one {@code nodeName});
 * the election is not what is tested. Asserted is what the client's kernel believes ({@code ip neigh}) and which
 * MACs answer on the wire.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NdpFailoverIT {
    static final String VIP4 = "198.18.0.100";
    static final String VIP6 = "2001:db8::100";
    static final String ADV4 = "slb-default-web";
    static final String ADV6 = "slb-default-web-ipv6";

    ArpLab lab;
    ArpLab.Host client;
    String clientIpv6;
    final Map<String, ArpLab.Host> nodes = new LinkedHashMap<>();
    LocalApiServer api;
    KubernetesClient admin;
    final List<ApiForwarder> forwarders = new ArrayList<>();
    final Map<String, AgentProcess> agents = new LinkedHashMap<>();
    Path work;
    LanGuard guard;

    @BeforeAll
    void buildTheLan() throws Exception {
        LanGuard.assumeAvailable("NdpFailoverIT", "network namespaces", ArpLab.unavailableReason());
        lab = ArpLab.create();
        guard = LanGuard.of(this::close, lab, "ndp-lan-cleanup");
        client = lab.host("client", 1);
        clientIpv6 = lab.ipv6(client, "1");
        lab.routerLikeNeighbourCache(client);
        lab.routerLikeIpv6NeighbourCache(client);
        for (String n : List.of("node-a", "node-b")) {
            ArpLab.Host h = lab.host(n, n.equals("node-a") ? 11 : 12);
            lab.ipv6(h, n.equals("node-a") ? "11" : "12");
            nodes.put(n, h);
        }
        api = LocalApiServer.start(0);
        admin = api.adminClient();
        work = Files.createTempDirectory("juneau-ndp-lan-");
        for (ArpLab.Host h : nodes.values()) {
            admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(h.name())
                    .addToLabels("kubernetes.io/hostname", h.name()).endMetadata()
                    .withNewStatus().addNewAddress().withType("InternalIP").withAddress(h.ip()).endAddress()
                    .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build())
                    .create();
        }
        AddressPool pool = new AddressPool();
        pool.setMetadata(new ObjectMetaBuilder().withName("lab").build());
        pool.setSpec(new AddressPoolSpec("arp", List.of(VIP4 + "-" + VIP4, VIP6 + "-" + VIP6)));
        admin.resources(AddressPool.class).resource(pool).create();
        ExternalNetwork net = new ExternalNetwork();
        net.setMetadata(new ObjectMetaBuilder().withName("lab").build());
        net.setSpec(new ExternalNetworkSpec("arp", List.of("lab")));
        admin.resources(ExternalNetwork.class).resource(net).create();
        for (ArpLab.Host h : nodes.values()) {
            forwarders.add(ApiForwarder.open(h.namespace(), api.port()));
            Path kubeconfig = api.writeKubeconfig(work.resolve("agent-" + h.name() + ".kubeconfig"), "juneau-agent",
                    api.agentToken(h.name()));
            agents.put(h.name(), AgentProcess.start(h.namespace(), h.name(), kubeconfig, work, true));
        }
    }

    @AfterAll
    void tearDown() {
        if (guard != null) {
            guard.close();
        }
    }

    void close() {
        agents.values().forEach(AgentProcess::close);
        agents.clear();
        forwarders.forEach(ApiForwarder::close);
        forwarders.clear();
        if (api != null) {
            api.close();
        }
        lab.close();
        if (work != null) {
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temp directory with local-only kubeconfigs and agent logs
            }
        }
    }

    @Test
    void bothVipsResolveToTheOwnerAndMoveTogetherWithinASecondAndOnlyTheOwnerAnswers() throws Exception {
        awaitListed("node-a");
        awaitListed("node-b"); // the move below times the agents, not a JVM still starting
        advertise(ADV4, VIP4, "node-a");
        advertise(ADV6, VIP6, "node-a");
        awaitAnnounced(ADV4, "node-a");
        awaitAnnounced(ADV6, "node-a");

        Netns.ip(client.namespace(), "neigh", "flush", "dev", "eth0");
        Netns.ip(client.namespace(), "-6", "neigh", "flush", "dev", "eth0");
        long t = System.nanoTime();
        clientSendsTo(VIP4);
        Duration resolved4 = awaitEntry(VIP4, mac("node-a"), t, Duration.ofSeconds(3));
        t = System.nanoTime();
        clientSendsTo(VIP6);
        Duration resolved6 = awaitEntry(VIP6, mac("node-a"), t, Duration.ofSeconds(3));
        assertThat(resolved4).as("the client resolves %s to node-a's MAC; it has %s%s", VIP4, table(), logs())
                .isNotNull();
        assertThat(resolved6).as("the client resolves %s to node-a's MAC; it has %s%s", VIP6, table(), logs())
                .isNotNull();
        System.out.println("NdpFailoverIT: resolution: ARP " + millis(resolved4) + " ms, NDP " + millis(resolved6)
                + " ms (first datagram to neighbour entry)");
        assertOnlyAnswering("node-a");
        Thread.sleep(1200); // past the ARP lock time: only the agents' frames decide the next move

        // as the controller does on a backend loss: both advertisements name the new owner, one write each; each
        // entry is timed from its own advertisement's write (the agent's part)
        long t0 = System.nanoTime();
        advertise(ADV4, VIP4, "node-b");
        long t6 = System.nanoTime();
        advertise(ADV6, VIP6, "node-b");
        Duration[] moved = awaitBoth(mac("node-b"), t0, t6, Duration.ofSeconds(10));
        Duration moved4 = moved[0];
        Duration moved6 = moved[1];
        String seen = "ARP " + (moved4 == null ? "never" : millis(moved4) + " ms") + ", NDP "
                + (moved6 == null ? "never" : millis(moved6) + " ms");
        assertThat(moved4).as("the IPv4 entry moved to node-b within 1 s (gratuitous ARP); seen: %s; client"
                + " has %s%s", seen, table(), logs()).isNotNull().isLessThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(moved6).as("the IPv6 entry moved to node-b within 1 s (unsolicited NA); seen: %s; client"
                + " has %s%s", seen, table(), logs()).isNotNull().isLessThanOrEqualTo(Duration.ofSeconds(1));
        System.out.println("NdpFailoverIT: owner change: client entries node-a -> node-b in ARP " + millis(moved4)
                + " ms, NDP " + millis(moved6) + " ms, each from its ARPAdvertisement's write");
        awaitAnnounced(ADV6, "node-b");
        assertOnlyAnswering("node-b");
    }

    /** Only {@code owner}'s MAC answers for either VIP: the other node never does (ARP and NDP). */
    void assertOnlyAnswering(String owner) throws Exception {
        try (NdpProber ndisc = NdpProber.open(lab, client, clientIpv6)) {
            assertThat(ndisc.probe(VIP6, 5, Duration.ofMillis(250))).as("MACs answering NDP for %s", VIP6)
                    .containsExactly(mac(owner));
        }
        try (ArpProber arping = ArpProber.open(lab, client)) {
            assertThat(arping.probe(VIP4, 5, Duration.ofMillis(250))).as("MACs answering ARP for %s", VIP4)
                    .containsExactly(mac(owner));
        }
    }

    /** Creates or moves an advertisement, as the controller does (label and spec.nodeName together). */
    void advertise(String name, String vip, String node) {
        var resource = admin.resources(ARPAdvertisement.class).withName(name);
        if (resource.get() == null) {
            ARPAdvertisement a = new ARPAdvertisement();
            a.setMetadata(new ObjectMetaBuilder().withName(name).addToLabels(JuneauConstants.LABEL_NODE, node)
                    .addToLabels(JuneauConstants.LABEL_SERVICE_NAMESPACE, "default")
                    .addToLabels(JuneauConstants.LABEL_SERVICE_NAME, "web").build());
            a.setSpec(new ARPAdvertisementSpec("lab", vip, node));
            admin.resources(ARPAdvertisement.class).resource(a).create();
        } else {
            // a new object with the stored resourceVersion: label and spec change in one write
            ARPAdvertisement stored = resource.get();
            ARPAdvertisement moved = new ARPAdvertisement();
            Map<String, String> labels = new LinkedHashMap<>(stored.getMetadata().getLabels());
            labels.put(JuneauConstants.LABEL_NODE, node);
            moved.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(labels)
                    .withResourceVersion(stored.getMetadata().getResourceVersion()).build());
            moved.setSpec(new ARPAdvertisementSpec("lab", vip, node));
            moved.setStatus(stored.getStatus());
            admin.resources(ARPAdvertisement.class).resource(moved).update();
        }
    }

    /** Waits until the node's agent has its first list (started, watches synced): minutes on a loaded machine. */
    void awaitListed(String node) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
        while (!agents.get(node).logTail().contains("first list done") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(agents.get(node).logTail()).as("the agent of %s started%s", node, logs())
                .contains("first list done");
    }

    void awaitAnnounced(String name, String node) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        ARPAdvertisement a = null;
        while (System.nanoTime() < deadline) {
            a = admin.resources(ARPAdvertisement.class).withName(name).get();
            if (a != null && a.getStatus() != null && node.equals(a.getStatus().getNode())
                    && a.getStatus().getConditions().stream()
                    .anyMatch(c -> "Announced".equals(c.getType()) && "True".equals(c.getStatus()))) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(node + " did not report Announced for " + name + " within 60 s: " + a + logs());
    }

    void clientSendsTo(String ip) throws Exception {
        Netns.inside(client.namespace(), () -> {
            try (DatagramSocket s = new DatagramSocket()) {
                s.send(new DatagramPacket(new byte[] {1}, 1, InetAddress.getByName(ip), 9));
            }
            return null;
        });
    }

    Duration awaitEntry(String ip, String mac, long sinceNanos, Duration timeout) throws Exception {
        long deadline = sinceNanos + timeout.toNanos();
        do {
            if (mac.equals(lab.neighbour(client, ip))) {
                return Duration.ofNanos(System.nanoTime() - sinceNanos);
            }
            Thread.sleep(2);
        } while (System.nanoTime() < deadline);
        return null;
    }

    /**
     * Polls both entries together until both show {@code mac} or {@code timeout} passed; each time is from its own
     * start ({@code since4}, {@code since6}), null when it never showed.
     */
    Duration[] awaitBoth(String mac, long since4, long since6, Duration timeout) throws Exception {
        Duration[] seen = new Duration[2];
        long deadline = since4 + timeout.toNanos();
        while ((seen[0] == null || seen[1] == null) && System.nanoTime() < deadline) {
            if (seen[0] == null && mac.equals(lab.neighbour(client, VIP4))) {
                seen[0] = Duration.ofNanos(System.nanoTime() - since4);
            }
            if (seen[1] == null && mac.equals(lab.neighbour(client, VIP6))) {
                seen[1] = Duration.ofNanos(System.nanoTime() - since6);
            }
            Thread.sleep(2);
        }
        return seen;
    }

    String mac(String node) {
        return nodes.get(node).mac().toString();
    }

    String table() throws IOException, InterruptedException {
        return Netns.ip(client.namespace(), "neigh", "show", "dev", "eth0") + " / "
                + Netns.ip(client.namespace(), "-6", "neigh", "show", "dev", "eth0");
    }

    String logs() {
        StringBuilder b = new StringBuilder();
        agents.values().forEach(a -> b.append("\n--- agent ").append(a.node()).append(" ---\n").append(a.logTail()));
        return b.toString();
    }

    static String millis(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.1f", d.toNanos() / 1e6);
    }
}
