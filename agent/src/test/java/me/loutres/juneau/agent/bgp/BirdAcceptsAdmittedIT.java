package me.loutres.juneau.agent.bgp;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.authentication.UserInfoBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.agent.plan.NodePlan;
import me.loutres.juneau.agent.plan.NodePlanner;
import me.loutres.juneau.agent.plan.NodeView;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Issue 37: whatever the admission chain admits, the agent plans without a refusal and BIRD accepts. Generated
 * BFDProfiles, BGPPeers (names up to 253 characters, every duration form, multihop, iBGP and BFD together, addresses
 * good and bad, passwords of every kind of bytes) and ExternalNetworks go through the webhook's own engine one by one,
 * each into the view when admitted; the admitted ones are planned by the agent's real planner for a node, rendered by
 * its real renderer, and parsed by the real {@code bird -p -c} (parse only: nothing starts, no socket). A missing
 * {@code bird} fails the test: a machine without it cannot check the claim.
 */
class BirdAcceptsAdmittedIT {
    static final AdmissionEngine ENGINE = new AdmissionEngine(AdmissionSettings.defaults());
    static final String NODE = "node-a";
    static final Map<String, String> NODE_LABELS = Map.of("rack", "r1");
    static final String SECRET = "bgp-auth";
    static Path dir;
    /** Texts BIRD already accepted: many tries render the same file (no peer admitted, say), and BIRD is a process. */
    static final Set<String> ACCEPTED = new HashSet<>();

    /** What one try generated, in the order it is admitted. */
    record World(List<BFDProfile> profiles, List<BGPPeer> peers, List<ExternalNetwork> networks,
                 Map<String, byte[]> passwords) {
        @Override
        public String toString() {
            return "World[" + profiles.size() + " BFDProfile(s), peers " + peers.stream()
                    .map(p -> p.getMetadata().getName() + " " + describe(p.getSpec())).toList() + ", networks "
                    + networks.stream().map(n -> n.getMetadata().getName()).toList() + "]";
        }
    }

    @BeforeContainer
    static void bird() throws IOException {
        Executables.require(BgpLab.BIRD, "to parse the bird.conf the agent renders for admitted objects",
                "install Debian's bird2 (.ci/install-bird)");
        dir = Files.createTempDirectory("juneau-bird-parse");
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    @Property(tries = 1000)
    void whatAdmissionAdmitsTheAgentPlansAndBirdAccepts(@ForAll("worlds") World world) throws Exception {
        SnapshotClusterView view = SnapshotClusterView.empty();
        view.add(secret(world.passwords()));
        List<BFDProfile> profiles = admitted(view, world.profiles(), JuneauConstants.PLURAL_BFD_PROFILES);
        List<BGPPeer> peers = admitted(view, world.peers(), JuneauConstants.PLURAL_BGP_PEERS);
        List<ExternalNetwork> networks = new ArrayList<>();
        List<ServiceLoadBalancer> slbs = new ArrayList<>();
        for (int i = 0; i < world.networks().size(); i++) {
            AddressPool pool = pool("pool-" + i, "198.18." + (100 + i) + ".0/24");
            assertThat(review(view, pool, JuneauConstants.PLURAL_ADDRESS_POOLS).getAllowed()).isTrue();
            view.add(pool);
            ExternalNetwork n = world.networks().get(i);
            n.getSpec().setAddressPools(List.of(pool.getMetadata().getName()));
            if (admitted(view, List.of(n), JuneauConstants.PLURAL_EXTERNAL_NETWORKS).size() == 1) {
                networks.add(n);
                slbs.add(slb("svc-" + i, n.getMetadata().getName(), "198.18." + (100 + i) + ".7"));
            }
        }
        Map<String, String> data = new LinkedHashMap<>();
        world.passwords().forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v)));

        NodePlan plan = NodePlanner.plan(new NodeView(NODE, NODE_LABELS, NODE_IP, null, List.of(), slbs, networks,
                peers, profiles, Map.of(SECRET, data)));

        assertThat(plan.sessions()).as("every admitted peer is planned").allSatisfy(s -> assertThat(s.problem())
                .as("peer %s", s.peer()).isNull());
        assertThat(plan.problems()).as("admitted networks").isEmpty();
        assertThat(plan.birdProblem()).isNull();
        String text = BirdConfigRenderer.render(plan.bird());
        String refusal = birdParse(text);
        assertThat(refusal).as("bird -p on\n%s", text).isNull();

        Statistics.label("admitted peers").collect(peers.isEmpty() ? "none" : "some");
        Statistics.label("admitted peers").coverage(c -> c.check("some").percentage(p -> p >= 40));
        for (BGPPeer p : peers) {
            BGPPeerSpec s = p.getSpec();
            Statistics.label("features").collect("peer");
            if (s.getBfdProfile() != null) {
                Statistics.label("features").collect(s.getPeerASN().equals(s.getMyASN()) || Boolean.TRUE.equals(
                        s.getEbgpMultiHop()) ? "multihop with BFD" : "BFD");
            }
            if (s.getPasswordSecret() != null) {
                Statistics.label("features").collect("password");
            }
            if (p.getMetadata().getName().length() > BirdSymbols.MAX_NAME) {
                Statistics.label("features").collect("long peer name");
            }
            if (s.getHoldTime() != null) {
                Statistics.label("features").collect("holdTime");
            }
        }
        networks.stream().filter(n -> n.getMetadata().getName().length() > BirdSymbols.MAX_NAME)
                .forEach(n -> Statistics.label("features").collect("long network name"));
        Statistics.label("features").coverage(c -> {
            for (String f : List.of("BFD", "multihop with BFD", "password", "long peer name", "long network name",
                    "holdTime")) {
                c.check(f).count(n -> n >= 20);
            }
        });
    }

    @Example
    void birdParsesEveryGoldenConfiguration() throws Exception {
        for (var e : BirdConfigs.all().entrySet()) {
            String text = BirdConfigRenderer.render(e.getValue());
            assertThat(birdParse(text)).as("bird -p on golden %s:\n%s", e.getKey(), text).isNull();
        }
    }

    /** BIRD's words when it refuses the text, null when it parses. */
    static String birdParse(String text) throws Exception {
        if (ACCEPTED.contains(text)) {
            return null;
        }
        Path conf = dir.resolve("bird.conf");
        Files.writeString(conf, text, StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(BgpLab.BIRD.toString(), "-p", "-c", conf.toString()).redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "bird -p did not finish in 20 s";
        }
        if (p.exitValue() != 0) {
            return "exit " + p.exitValue() + ": " + out.strip();
        }
        ACCEPTED.add(text);
        return null;
    }

    static <T extends HasMetadata> List<T> admitted(SnapshotClusterView view, List<T> objects, String plural) {
        List<T> out = new ArrayList<>();
        for (T o : objects) {
            AdmissionResponse r = review(view, o, plural);
            if (Boolean.TRUE.equals(r.getAllowed())) {
                view.add(o);
                out.add(o);
            }
        }
        return out;
    }

    static AdmissionResponse review(SnapshotClusterView view, HasMetadata o, String plural) {
        String kind = o.getKind();
        return ENGINE.review("/validate/" + plural, new AdmissionRequestBuilder().withUid("uid-" + plural)
                .withKind(new GroupVersionKind(JuneauConstants.GROUP, kind, "v1alpha1"))
                .withResource(new GroupVersionResource(JuneauConstants.GROUP, plural, "v1alpha1"))
                .withRequestKind(new GroupVersionKind(JuneauConstants.GROUP, kind, "v1alpha1"))
                .withRequestResource(new GroupVersionResource(JuneauConstants.GROUP, plural, "v1alpha1"))
                .withName(o.getMetadata().getName()).withOperation("CREATE")
                .withUserInfo(new UserInfoBuilder().withUsername("alice").build())
                .withObject(o).withDryRun(false).build(), view);
    }

    // ---- generators

    @Provide
    Arbitrary<World> worlds() {
        Arbitrary<List<String>> profileNames = names().list().ofMinSize(0).ofMaxSize(2).uniqueElements();
        Arbitrary<Map<String, byte[]>> passwords = passwordBytes().list().ofMinSize(1).ofMaxSize(4).map(values -> {
            Map<String, byte[]> m = new LinkedHashMap<>();
            for (int i = 0; i < values.size(); i++) {
                m.put("key-" + i, values.get(i));
            }
            return m;
        });
        return Combinators.combine(profileNames, names().list().ofMinSize(1).ofMaxSize(3).uniqueElements(),
                names().list().ofMinSize(0).ofMaxSize(2).uniqueElements(), passwords).flatAs(
                (pn, peerNames, netNames, pw) -> Combinators.combine(
                        Combinators.combine(pn.stream().map(n -> profile(n)).toList()).as(l -> l),
                        Combinators.combine(peerNames.stream().map(n -> peer(n, pn, pw.size())).toList()).as(l -> l),
                        Combinators.combine(netNames.stream().map(n -> network(n, peerNames)).toList()).as(l -> l))
                        .as((profiles, peers, nets) -> new World(profiles, peers, nets, pw)));
    }

    /** DNS-1123 subdomains of 1-253 characters, with many past BIRD's 64-character symbols. */
    static Arbitrary<String> names() {
        Arbitrary<Integer> length = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.integers().between(1, 20)),
                Tuple.of(3, Arbitraries.integers().between(50, 70)), Tuple.of(2, Arbitraries.integers().between(230,
                        253)));
        return length.flatMap(n -> Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz0123456789.-")
                .ofLength(n)).map(BirdAcceptsAdmittedIT::dns1123);
    }

    static String dns1123(String s) {
        StringBuilder b = new StringBuilder(s);
        for (int i = 0; i < b.length(); i++) {
            char c = b.charAt(i);
            char before = i == 0 ? '.' : b.charAt(i - 1);
            boolean last = i == b.length() - 1;
            if ((c == '.' || c == '-') && (before == '.' || last || c == '.' && before == '-')) {
                b.setCharAt(i, 'x');
            }
        }
        return b.toString();
    }

    /** Every duration form: Go's valid ones in and out of range, fractions, and texts Go refuses. */
    static Arbitrary<String> durations() {
        Arbitrary<String> number = Arbitraries.oneOf(Arbitraries.integers().between(0, 100_000).map(String::valueOf),
                Combinators.combine(Arbitraries.integers().between(0, 100), Arbitraries.integers().between(0, 999))
                        .as((a, b) -> a + "." + b),
                Arbitraries.integers().between(0, 100).map(a -> a + "."),
                Arbitraries.integers().between(0, 999).map(b -> "." + b));
        Arbitrary<String> unit = Arbitraries.of("h", "m", "s", "s", "s", "ms", "us", "\u00b5s", "\u03bcs", "ns", "",
                "d");
        Arbitrary<String> composite = Combinators.combine(number, unit).as(String::concat).list().ofMinSize(1)
                .ofMaxSize(3).map(parts -> String.join("", parts));
        return Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.of("0", "-0", "+0", "3.s", ".5s", "0.3s2.4s0.3s", "1h2m", "", "3", "s", "-",
                        " 90s", "90s ", "1.5m", "65535s", "65536s", "2s")),
                Tuple.of(10, Arbitraries.integers().between(0, 70_000).map(n -> n + "s")),
                Tuple.of(6, Arbitraries.integers().between(1, 60).map(n -> n + "s")),
                Tuple.of(1, Arbitraries.integers().between(0, 1_200).map(n -> n + "m")),
                Tuple.of(3, Combinators.combine(Arbitraries.of("", "", "", "+", "-"), composite).as(String::concat)));
    }

    /**
     * The node's InternalIP, outside every address {@link #addresses()} makes: a peer at the node's own address is
     * left out by the node itself (NodePlanner), which admission cannot know, so it is no admission-versus-BIRD case.
     */
    static final String NODE_IP = "198.19.0.2";

    static Arbitrary<String> addresses() {
        return Arbitraries.frequencyOf(
                Tuple.of(16, Combinators.combine(Arbitraries.integers().between(0, 255),
                        Arbitraries.integers().between(1, 254)).as((a, b) -> "198.18." + a + "." + b)),
                Tuple.of(3, Arbitraries.of("0.0.0.0", "127.0.0.1", "255.255.255.255", "224.0.0.1", "239.1.1.1",
                        "240.0.0.1", "169.254.0.1", "10.0.0.1", "192.0.2.1", "2001:db8::1", "fe80::1", "x",
                        "198.18.0.256", "")));
    }

    /** Mostly valid: a try is worth most when its objects are admitted and reach BIRD. */
    static <T> Arbitrary<T> mostly(Arbitrary<T> valid, Arbitrary<T> invalid) {
        return Arbitraries.frequencyOf(Tuple.of(7, valid), Tuple.of(1, invalid));
    }

    /** Password bytes: short and long, ASCII with quotes and backslashes, multi-byte UTF-8, not UTF-8 at all. */
    static Arbitrary<byte[]> passwordBytes() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.strings().ascii().ofMinLength(0).ofMaxLength(90)
                        .map(s -> s.getBytes(StandardCharsets.UTF_8))),
                Tuple.of(4, Arbitraries.strings().withCharRange(' ', '~').ofMinLength(1).ofMaxLength(82)
                        .map(s -> s.replace("\"", "").replace("\\", "").getBytes(StandardCharsets.UTF_8))),
                Tuple.of(3, Arbitraries.strings().withChars("ab\u00e9\u4e2d\ud83d\ude00 '#{};\t").ofMinLength(1)
                        .ofMaxLength(45).map(s -> s.getBytes(StandardCharsets.UTF_8))),
                Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(90)));
    }

    static Arbitrary<BFDProfile> profile(String name) {
        Arbitrary<Integer> interval = mostly(Arbitraries.of(10, 50, 300, 60_000), Arbitraries.of(9, 60_001))
                .injectNull(0.3);
        return Combinators.combine(interval, interval, mostly(Arbitraries.of(2, 3, 255), Arbitraries.of(1, 256))
                .injectNull(0.3),
                Arbitraries.of(true, false).injectNull(0.3)).as((rx, tx, m, passive) -> {
                    BFDProfileSpec s = new BFDProfileSpec();
                    s.setReceiveInterval(rx);
                    s.setTransmitInterval(tx);
                    s.setDetectMultiplier(m);
                    s.setPassiveMode(passive);
                    BFDProfile p = new BFDProfile();
                    p.setMetadata(new ObjectMetaBuilder().withName(name).withUid("uid-" + name).build());
                    p.setSpec(s);
                    return p;
                });
    }

    static Arbitrary<BGPPeer> peer(String name, List<String> profiles, int passwordKeys) {
        Arbitrary<Long> asn = mostly(Arbitraries.of(1L, 64512L, 65000L, 65001L, 4_294_967_294L),
                Arbitraries.of(23_456L, 0L, 4_294_967_295L));
        Arbitrary<String> bfd = profiles.isEmpty() ? Arbitraries.of("missing").injectNull(0.8)
                : Arbitraries.of(profiles).injectNull(0.3);
        Arbitrary<SecretKeyRef> password = Arbitraries.integers().between(0, passwordKeys).map(i -> {
            SecretKeyRef ref = new SecretKeyRef();
            ref.setName(SECRET);
            ref.setKey("key-" + i); // key-<passwordKeys> is missing from the Secret
            return ref;
        }).injectNull(0.5);
        Arbitrary<List<LabelSelector>> selectors = Arbitraries.of(List.<LabelSelector>of(),
                List.of(new LabelSelectorBuilder().withMatchLabels(Map.of("rack", "r1")).build()),
                List.of(new LabelSelectorBuilder().withMatchLabels(Map.of("rack", "r2")).build())).injectNull(0.5);
        Arbitrary<BGPPeerSpec> session = Combinators.combine(addresses(), addresses().injectNull(0.5), asn,
                Arbitraries.of(true, false).injectNull(0.3), Arbitraries.of(true, false, false),
                mostly(Arbitraries.of(1, 179, 1179, 65_535), Arbitraries.of(0, 70_000)).injectNull(0.5), bfd,
                password).as(
                (address, source, peerAs, ibgp, multihop, port, profile, secret) -> {
                    BGPPeerSpec s = new BGPPeerSpec();
                    s.setPeerAddress(address);
                    s.setSourceAddress(source);
                    s.setPeerASN(peerAs);
                    s.setMyASN(Boolean.TRUE.equals(ibgp) ? peerAs : 65_001L);
                    s.setEbgpMultiHop(multihop ? Boolean.TRUE : null);
                    s.setPeerPort(port);
                    s.setBfdProfile(profile);
                    s.setPasswordSecret(secret);
                    return s;
                });
        return Combinators.combine(session, durations().injectNull(0.3), durations().injectNull(0.7), selectors)
                .as((s, hold, keepalive, nodeSelectors) -> {
                    s.setHoldTime(hold);
                    s.setKeepaliveTime(keepalive);
                    s.setNodeSelectors(nodeSelectors);
                    BGPPeer p = new BGPPeer();
                    p.setMetadata(new ObjectMetaBuilder().withName(name).withUid("uid-" + name).withGeneration(1L)
                            .build());
                    p.setSpec(s);
                    return p;
                });
    }

    static Arbitrary<ExternalNetwork> network(String name, List<String> peerNames) {
        Arbitrary<String> community = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of("65000:100", "0:0",
                "65535:65535", "4294967295:0:4294967295", "no-export")), Tuple.of(1, Arbitraries.oneOf(
                Combinators.combine(Arbitraries.integers().between(0, 70_000), Arbitraries.integers().between(0,
                        70_000)).as((a, b) -> a + ":" + b),
                Combinators.combine(Arbitraries.longs().between(0, 4_294_967_296L), Arbitraries.longs().between(0,
                        10), Arbitraries.longs().between(0, 4_294_967_296L)).as((a, b, c) -> a + ":" + b + ":" + c),
                Arbitraries.of("no-export", "no-advertise", "no-export-subconfed", "no-peer", "no-exports", "", "1"))));
        Arbitrary<List<String>> peers = Arbitraries.subsetOf(peerNames).map(l -> List.copyOf(l)).injectNull(0.4);
        return Combinators.combine(community.list().ofMaxSize(3).injectNull(0.3), peers,
                mostly(Arbitraries.of(0L, 100L, 4_294_967_295L), Arbitraries.of(-1L, 4_294_967_296L)).injectNull(0.4),
                mostly(Arbitraries.of(24, 28, 32), Arbitraries.of(23, 33)).injectNull(0.4)).as((communities, named, pref, length) -> {
                    ExternalNetworkBgp bgp = new ExternalNetworkBgp();
                    bgp.setCommunities(communities);
                    bgp.setPeers(named);
                    bgp.setLocalPref(pref);
                    bgp.setAggregationLength(length);
                    ExternalNetworkSpec spec = new ExternalNetworkSpec(JuneauConstants.MODE_BGP, List.of());
                    spec.setBgp(bgp);
                    ExternalNetwork n = new ExternalNetwork();
                    n.setMetadata(new ObjectMetaBuilder().withName(name).build());
                    n.setSpec(spec);
                    return n;
                });
    }

    static Secret secret(Map<String, byte[]> values) {
        Map<String, String> data = new LinkedHashMap<>();
        values.forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v)));
        return new SecretBuilder().withNewMetadata().withName(SECRET).withNamespace(JuneauConstants.SYSTEM_NAMESPACE)
                .endMetadata().withData(data).build();
    }

    static AddressPool pool(String name, String cidr) {
        AddressPool p = new AddressPool();
        p.setMetadata(new ObjectMetaBuilder().withName(name).build());
        p.setSpec(new AddressPoolSpec(JuneauConstants.MODE_BGP, List.of(cidr)));
        return p;
    }

    static ServiceLoadBalancer slb(String name, String network, String vip) {
        ServiceLoadBalancer s = new ServiceLoadBalancer();
        s.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        s.setSpec(new ServiceLoadBalancerSpec(name, network, null));
        ServiceLoadBalancerStatus st = new ServiceLoadBalancerStatus();
        st.setVip(vip);
        st.setAdvertisingNodes(List.of(NODE));
        s.setStatus(st);
        return s;
    }

    static String describe(BGPPeerSpec s) {
        return s.getPeerAddress() + " src " + s.getSourceAddress() + " AS" + s.getPeerASN() + "/" + s.getMyASN()
                + " hold " + s.getHoldTime() + " keepalive " + s.getKeepaliveTime() + " multihop "
                + s.getEbgpMultiHop() + " bfd " + s.getBfdProfile() + " password " + (s.getPasswordSecret() == null
                ? null : s.getPasswordSecret().getKey());
    }
}
