package me.loutres.juneau.agent.bgp;

import static me.loutres.juneau.agent.bgp.BirdAcceptsAdmittedIT.review;
import static me.loutres.juneau.agent.bgp.BirdDaemonIT.within;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.plan.NodePlan;
import me.loutres.juneau.agent.plan.NodePlanner;
import me.loutres.juneau.agent.plan.NodeView;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BFDProfileSpec;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPPeerSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkBgp;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.SecretKeyRef;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.testing.Executables;
import me.loutres.juneau.view.SnapshotClusterView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 37, must show 2, object by object: each class of object the issue lists (long names, durations in odd forms,
 * multihop or iBGP with BFD and no {@code sourceAddress}, addresses that cannot be neighbours, the node's own address,
 * non-integer numbers, bad passwords, a Secret changed later) goes first through admission — the webhook's own
 * {@code AdmissionEngine} over the shared rule book, with everything admitted so far in its view. Refused: the
 * refusal is asserted, the object stays out, and the router still has every route from both nodes. Admitted (or
 * changed later, past admission): it joins the world both nodes' agents plan from (the real {@link NodePlanner}),
 * each node's {@link BgpDriver} applies the plan to its real BIRD in the two-node BGP lab, and a NEW Service's route
 * must reach the router from both nodes within 1 s. Through it all a poller asks the router every 50 ms for every
 * route announced so far: none may ever be missing. One lab for all cases.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ListedObjectsLabIT {
    static final String SECRET = "bgp-auth";
    static final String PUBLIC = "public";

    BgpLab lab;
    Node a;
    Node b;
    final SnapshotClusterView view = SnapshotClusterView.empty();
    final List<BGPPeer> peers = new CopyOnWriteArrayList<>();
    final List<ExternalNetwork> networks = new CopyOnWriteArrayList<>();
    final List<BFDProfile> profiles = new CopyOnWriteArrayList<>();
    final List<ServiceLoadBalancer> slbs = new CopyOnWriteArrayList<>();
    final Map<String, byte[]> passwords = new LinkedHashMap<>();
    /** The routes announced so far (reached the router from both nodes): none may leave. */
    final List<String> known = new CopyOnWriteArrayList<>();
    final List<String> missing = Collections.synchronizedList(new ArrayList<>());
    final List<String> outcomes = Collections.synchronizedList(new ArrayList<>());
    final AtomicBoolean watching = new AtomicBoolean();
    Thread watcher;
    int services;
    int unreachable = 10;

    /** One node: its name, labels, addresses and the driver of its BIRD. */
    final class Node {
        final String name;
        final String ip;
        final BgpDriver driver;

        Node(String name, String ip, String dir, List<String> prefix) {
            this.name = name;
            this.ip = ip;
            this.driver = new BgpDriver(new BgpDriver.Settings(BgpLab.BIRD, lab.dir.resolve(dir), prefix),
                    new AgentMetrics(), Clock.systemUTC());
        }

        NodePlan plan() {
            Map<String, String> data = new LinkedHashMap<>();
            passwords.forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v)));
            return NodePlanner.plan(new NodeView(name, Map.of("node", name), ip, null, List.of(), slbs, networks,
                    peers, profiles, Map.of(SECRET, data)));
        }

        Map<String, SessionReport> apply() {
            Map<String, SessionReport> out = new TreeMap<>();
            driver.apply(plan()).forEach(r -> out.put(r.peer(), r));
            return out;
        }
    }

    @BeforeAll
    void start() throws Exception {
        String reason = BgpLab.unavailableReason();
        Assumptions.assumeTrue(reason == null, "ListedObjectsLabIT needs network namespaces: " + reason);
        Executables.require(BgpLab.BIRD, "to run BGP against a real router", "run .ci/install-bird (Debian's bird2)");
        lab = BgpLab.createTwoNodes(BgpLab.routerConfigTwoNodes(9));
        a = new Node("node-a", BgpLab.NODE_IP, "bird-a", lab.nodePrefix());
        b = new Node("node-b", BgpLab.NODE_IP_2, "bird-b", lab.node2Prefix());
        view.add(BirdAcceptsAdmittedIT.secret(passwords));
    }

    @AfterAll
    void stop() throws InterruptedException {
        watching.set(false);
        if (watcher != null) {
            watcher.join(5000);
        }
        outcomes.forEach(o -> System.out.println("ListedObjectsLabIT: " + o));
        for (Node n : new Node[] {a, b}) {
            if (n != null) {
                n.driver.close();
            }
        }
        if (lab != null) {
            lab.close();
            assertThat(lab.namespaces()).isEmpty();
        }
    }

    // ---- objects

    static BGPPeer peer(String name, String address, long peerAs, String node) {
        BGPPeerSpec s = new BGPPeerSpec();
        s.setPeerAddress(address);
        s.setPeerASN(peerAs);
        s.setMyASN(65001L);
        if (node != null) {
            s.setNodeSelectors(List.of(new LabelSelectorBuilder().withMatchLabels(Map.of("node", node)).build()));
        }
        BGPPeer p = new BGPPeer();
        p.setMetadata(new ObjectMetaBuilder().withName(name).withUid("uid-" + name).withGeneration(1L).build());
        p.setSpec(s);
        return p;
    }

    /** A peer no router answers (its sessions stay down): what matters is that BIRD takes it. */
    BGPPeer quietPeer(String name) {
        return peer(name, "198.18.7." + (++unreachable), 65000, null);
    }

    static ExternalNetwork network(String name, String pool) {
        ExternalNetworkSpec spec = new ExternalNetworkSpec(JuneauConstants.MODE_BGP, List.of(pool));
        spec.setBgp(new ExternalNetworkBgp());
        ExternalNetwork n = new ExternalNetwork();
        n.setMetadata(new ObjectMetaBuilder().withName(name).withUid("uid-" + name).withGeneration(1L).build());
        n.setSpec(spec);
        return n;
    }

    ServiceLoadBalancer slb(String network, String vip) {
        String name = "svc-" + (++services);
        ServiceLoadBalancer s = new ServiceLoadBalancer();
        s.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        s.setSpec(new ServiceLoadBalancerSpec(name, network, null));
        ServiceLoadBalancerStatus st = new ServiceLoadBalancerStatus();
        st.setVip(vip);
        st.setAdvertisingNodes(List.of(a.name, b.name));
        s.setStatus(st);
        return s;
    }

    static String plural(HasMetadata o) {
        return switch (o.getKind()) {
            case "BGPPeer" -> JuneauConstants.PLURAL_BGP_PEERS;
            case "ExternalNetwork" -> JuneauConstants.PLURAL_EXTERNAL_NETWORKS;
            case "AddressPool" -> JuneauConstants.PLURAL_ADDRESS_POOLS;
            case "BFDProfile" -> JuneauConstants.PLURAL_BFD_PROFILES;
            default -> throw new IllegalArgumentException(o.getKind());
        };
    }

    /** Admits {@code o} into the world (asserting admission allows it). */
    void admit(HasMetadata o) {
        AdmissionResponse r = review(view, o, plural(o));
        assertThat(r.getAllowed()).as("%s %s: %s", o.getKind(), o.getMetadata().getName(),
                r.getStatus() == null ? null : r.getStatus().getMessage()).isTrue();
        view.add(o);
        if (o instanceof BGPPeer p) {
            peers.add(p);
        } else if (o instanceof ExternalNetwork n) {
            networks.add(n);
        } else if (o instanceof BFDProfile p) {
            profiles.add(p);
        }
    }

    /**
     * Admission's verdict on one object of the list. Refused: the refusal names {@code field}, nothing enters
     * the world, and both nodes still carry every route. Admitted: it enters the world and is applied on both nodes.
     */
    void judged(String what, HasMetadata o, String field) throws Exception {
        AdmissionResponse r = review(view, o, plural(o));
        if (Boolean.TRUE.equals(r.getAllowed())) {
            outcomes.add(what + ": admitted, applied");
            admit(o);
            return;
        }
        String message = r.getStatus() == null ? null : r.getStatus().getMessage();
        outcomes.add(what + ": refused: " + message);
        assertThat(message).as(what).isNotBlank().contains(field);
        String beforeA = BirdConfigRenderer.render(a.plan().bird());
        String beforeB = BirdConfigRenderer.render(b.plan().bird());
        a.apply();
        b.apply();
        assertThat(BirdConfigRenderer.render(a.plan().bird())).isEqualTo(beforeA);
        assertThat(BirdConfigRenderer.render(b.plan().bird())).isEqualTo(beforeB);
        for (String vip : known) {
            assertThat(fromBoth(vip)).as("%s from both nodes after %s was refused", vip, what).isTrue();
        }
    }

    /** A non-integer number, as a client sends it: raw JSON, not a typed object (which could not hold it). */
    AdmissionResponse reviewRaw(String kind, String plural, String name, Map<String, Object> spec) {
        GenericKubernetesResource raw = new GenericKubernetesResource();
        raw.setApiVersion(JuneauConstants.GROUP + "/v1alpha1");
        raw.setKind(kind);
        raw.setMetadata(new ObjectMetaBuilder().withName(name).build());
        raw.setAdditionalProperty("spec", spec);
        return review(view, raw, plural);
    }

    // ---- the router

    boolean fromBoth(String vip) throws Exception {
        String route;
        try {
            route = lab.routerRoute(vip + "/32");
        } catch (java.io.IOException e) {
            return false; // birdc fails with "Network not found" while the router has no route for it
        }
        return route.contains("[node ") && route.contains("[node2 ");
    }

    /** A new Service on {@code network}: both nodes apply the plan, and its route must reach the router from both. */
    void newServiceReachesTheRouterFromBothWithinOneSecond(String after, String network, String vip)
            throws Exception {
        slbs.add(slb(network, vip));
        long t0 = System.nanoTime();
        a.apply();
        b.apply();
        long deadline = t0 + Duration.ofSeconds(1).toNanos();
        boolean seen = false;
        while (!seen && System.nanoTime() < deadline) {
            seen = fromBoth(vip);
            Thread.sleep(10);
        }
        assertThat(seen).as("after %s: %s from both nodes within 1 s of the plan", after, vip).isTrue();
        outcomes.add(String.format("after %s: %s at the router from both nodes %d ms after the plan", after, vip,
                (System.nanoTime() - t0) / 1_000_000));
        known.add(vip);
        // what the BGPSessions then say (docs/bgp.md, "Status"): the VIP is in the session's carried addresses
        assertThat(me.loutres.juneau.bgp.CarriedAddresses.covers(a.apply().get("tor-a").carried(), vip))
                .as("node-a's tor-a session carries %s", vip).isTrue();
        assertThat(me.loutres.juneau.bgp.CarriedAddresses.covers(b.apply().get("tor-b").carried(), vip))
                .as("node-b's tor-b session carries %s", vip).isTrue();
    }

    String nextVip() {
        return "198.18.100." + (known.size() + 10);
    }

    // ---- the cases, in order, in one lab

    @Test
    @Order(1)
    void theRouterLearnsTheFirstServiceFromBothNodes() throws Exception {
        AddressPool pool = BirdAcceptsAdmittedIT.pool("public-pool", "198.18.100.0/24");
        admit(pool);
        admit(network(PUBLIC, "public-pool"));
        admit(peer("tor-a", BgpLab.ROUTER_IP, 65000, a.name));
        admit(peer("tor-b", BgpLab.ROUTER_IP_2, 65000, b.name));
        String first = nextVip();
        slbs.add(slb(PUBLIC, first));
        within(Duration.ofSeconds(30), () -> {
            assertThat(a.apply().get("tor-a").state()).isEqualTo("Established");
            assertThat(b.apply().get("tor-b").state()).isEqualTo("Established");
            assertThat(fromBoth(first)).isTrue();
        });
        known.add(first);
        watching.set(true);
        watcher = new Thread(() -> {
            while (watching.get()) {
                for (String vip : known) {
                    try {
                        if (!lab.routerRoute(vip + "/32").contains(vip)) {
                            missing.add(vip + " at " + java.time.Instant.now());
                        }
                    } catch (Exception e) {
                        missing.add(vip + ": " + e.getMessage());
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "listed-objects-it-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    @Test
    @Order(2)
    void longNames() throws Exception {
        // 58+ characters for a peer, 61+ for a network made BIRD refuse everything ("Symbol too long")
        judged("a BGPPeer name of 63 characters", quietPeer("p" + "-long-peer-name".repeat(4) + "x".repeat(2)),
                "metadata.name");
        AddressPool pool = BirdAcceptsAdmittedIT.pool("long-pool", "198.18.101.0/24");
        admit(pool);
        String longName = "n" + "-long-network-name".repeat(4) + "-x";
        judged("an ExternalNetwork name of " + longName.length() + " characters", network(longName, "long-pool"),
                "metadata.name");
        newServiceReachesTheRouterFromBothWithinOneSecond("the long names", PUBLIC, nextVip());
        if (networks.stream().anyMatch(n -> n.getMetadata().getName().equals(longName))) {
            // the long-named network's own route reaches the router too
            newServiceReachesTheRouterFromBothWithinOneSecond("a Service on the long-named network", longName,
                    "198.18.101.7");
        }
    }

    @Test
    @Order(3)
    void durationsInOddForms() throws Exception {
        for (String hold : List.of("0", "3.s", "0.3s2.4s0.3s", "1.5s", "90")) {
            BGPPeer p = quietPeer("hold-" + (unreachable + 1));
            p.getSpec().setHoldTime(hold);
            judged("holdTime \"" + hold + "\"", p, "holdTime");
        }
        BGPPeer k = quietPeer("keepalive-" + (unreachable + 1));
        k.getSpec().setKeepaliveTime("1m0.5s");
        judged("keepaliveTime \"1m0.5s\"", k, "keepaliveTime");
        newServiceReachesTheRouterFromBothWithinOneSecond("the durations", PUBLIC, nextVip());
    }

    @Test
    @Order(4)
    void multihopOrIbgpWithBfdAndNoSourceAddress() throws Exception {
        BFDProfile fast = new BFDProfile();
        fast.setMetadata(new ObjectMetaBuilder().withName("fast").withUid("uid-fast").build());
        fast.setSpec(new BFDProfileSpec());
        admit(fast);
        BGPPeer multihop = quietPeer("multihop-bfd");
        multihop.getSpec().setEbgpMultiHop(true);
        multihop.getSpec().setBfdProfile("fast");
        judged("ebgpMultiHop with a bfdProfile and no sourceAddress", multihop, "sourceAddress");
        BGPPeer ibgp = peer("ibgp-bfd", "198.18.7." + (++unreachable), 65001, null);
        ibgp.getSpec().setBfdProfile("fast");
        judged("iBGP with a bfdProfile and no sourceAddress", ibgp, "sourceAddress");
        newServiceReachesTheRouterFromBothWithinOneSecond("multihop and iBGP with BFD", PUBLIC, nextVip());
    }

    @Test
    @Order(5)
    void addressesThatCannotBeNeighbours() throws Exception {
        int i = 0;
        for (String address : List.of("0.0.0.0", "127.0.0.1", "255.255.255.255", "224.0.0.1")) {
            judged("peerAddress " + address, peer("bad-address-" + (++i), address, 65000, null), "peerAddress");
        }
        BGPPeer source = quietPeer("bad-source");
        source.getSpec().setSourceAddress("127.0.0.1");
        judged("sourceAddress 127.0.0.1", source, "sourceAddress");
        // admission cannot know which node a peer selects: node-a leaves out a peer at its own address
        judged("peerAddress of node-a's own InternalIP", peer("own-address", BgpLab.NODE_IP, 65000, null),
                "peerAddress");
        SessionReport own = a.apply().get("own-address");
        if (own != null) {
            outcomes.add("node-a on the peer at its own address: " + own.state() + ", " + own.lastError());
        }
        newServiceReachesTheRouterFromBothWithinOneSecond("the addresses", PUBLIC, nextVip());
    }

    @Test
    @Order(6)
    void numbersThatAreNotIntegers() throws Exception {
        for (var c : List.of(
                Map.<String, Object>of("peerAddress", "198.18.7.99", "peerASN", 1.5, "myASN", 65001),
                Map.<String, Object>of("peerAddress", "198.18.7.99", "peerASN", 65000, "myASN", 65001,
                        "peerPort", 179.5))) {
            AdmissionResponse r = reviewRaw("BGPPeer", JuneauConstants.PLURAL_BGP_PEERS, "not-integer", c);
            String message = r.getStatus() == null ? null : r.getStatus().getMessage();
            outcomes.add("BGPPeer spec " + c + ": " + (Boolean.TRUE.equals(r.getAllowed()) ? "admitted" : "refused: "
                    + message));
            assertThat(r.getAllowed()).as("%s", c).isFalse();
            assertThat(message).contains("expected an integer");
        }
        Map<String, Object> bgp = Map.of("localPref", 1.5);
        AdmissionResponse r = reviewRaw("ExternalNetwork", JuneauConstants.PLURAL_EXTERNAL_NETWORKS, "not-integer",
                Map.of("type", "bgp", "addressPools", List.of("public-pool"), "bgp", bgp));
        outcomes.add("ExternalNetwork spec.bgp.localPref 1.5: refused: "
                + (r.getStatus() == null ? null : r.getStatus().getMessage()));
        assertThat(r.getAllowed()).isFalse();
        assertThat(r.getStatus().getMessage()).contains("localPref").contains("expected an integer");
        for (String vip : known) {
            assertThat(fromBoth(vip)).as("%s from both nodes", vip).isTrue();
        }
    }

    @Test
    @Order(7)
    void badPasswords() throws Exception {
        passwords.put("long", "é".repeat(41).getBytes(StandardCharsets.UTF_8)); // 82 bytes: over the kernel's 80
        passwords.put("latin-1", new byte[] {'c', 'a', 'f', (byte) 0xE9}); // not UTF-8
        passwords.put("quote", "pass\"word".getBytes(StandardCharsets.UTF_8));
        view.add(BirdAcceptsAdmittedIT.secret(passwords));
        for (String key : List.of("long", "latin-1", "quote")) {
            BGPPeer p = quietPeer("password-" + key);
            SecretKeyRef ref = new SecretKeyRef();
            ref.setName(SECRET);
            ref.setKey(key);
            p.getSpec().setPasswordSecret(ref);
            judged("a password Secret key \"" + key + "\"", p, "password");
        }
        newServiceReachesTheRouterFromBothWithinOneSecond("the passwords", PUBLIC, nextVip());
    }

    @Test
    @Order(8)
    void aSecretChangedLaterToBytesTheKernelRefuses() throws Exception {
        passwords.put("good", "s3cret".getBytes(StandardCharsets.UTF_8));
        view.add(BirdAcceptsAdmittedIT.secret(passwords));
        BGPPeer p = quietPeer("password-changed");
        SecretKeyRef ref = new SecretKeyRef();
        ref.setName(SECRET);
        ref.setKey("good");
        p.getSpec().setPasswordSecret(ref);
        admit(p);
        newServiceReachesTheRouterFromBothWithinOneSecond("a peer with a good password", PUBLIC, nextVip());

        // edited afterwards, past admission: 81 bytes, and then bytes that are not UTF-8
        for (byte[] later : List.of("x".repeat(81).getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xFF, 'a'})) {
            passwords.put("good", later);
            Map<String, SessionReport> ra = a.apply();
            Map<String, SessionReport> rb = b.apply();
            for (Map<String, SessionReport> r : List.of(ra, rb)) {
                assertThat(r.get("password-changed").lastError()).as("the peer left out says why").isNotBlank();
            }
            outcomes.add("Secret changed to " + later.length + " bytes: node-a says "
                    + ra.get("password-changed").lastError());
            newServiceReachesTheRouterFromBothWithinOneSecond("the Secret changed to " + later.length + " bytes",
                    PUBLIC, nextVip());
        }
    }

    @Test
    @Order(9)
    void noRouteEverLeftTheRouter() {
        watching.set(false);
        assertThat(known).hasSizeGreaterThanOrEqualTo(8);
        assertThat(missing).as("routes missing at the router at some poll").isEmpty();
    }
}
