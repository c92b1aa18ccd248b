package me.loutres.juneau.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.ClusterView;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The BGP kinds' admission rules (docs/admission.md: BGPPeer, BFDProfile, BGPSession, ExternalNetwork spec.bgp,
 * spec.arp and spec.nodeSelector), each denial with its whole message, through the public engine and
 * kube-apiserver-shaped requests.
 */
class BgpAdmissionRulesTest {
    static final String PEERS = "/validate/bgppeers";
    static final String BFD = "/validate/bfdprofiles";
    static final String SESSIONS = "/validate/bgpsessions";
    static final String NETS = "/validate/externalnetworks";
    static final String AGENT = JuneauConstants.DEFAULT_AGENT_USERNAME;
    static final AdmissionEngine ENGINE = new AdmissionEngine(AdmissionSettings.defaults());

    record Case(String rule, String path, Supplier<Requests> request, Boolean allowed, String message) {
        @Override
        public String toString() {
            return rule;
        }
    }

    static final List<Case> CASES = new ArrayList<>();

    static void allow(String rule, String path, Supplier<Requests> r) {
        CASES.add(new Case(rule, path, r, true, null));
    }

    static void deny(String rule, String path, Supplier<Requests> r, String message) {
        CASES.add(new Case(rule, path, r, false, message));
    }

    static String peer(String name, String specLines) {
        return "apiVersion: juneau.loutres.me/v1alpha1\nkind: BGPPeer\nmetadata:\n  name: " + name
                + "\n  resourceVersion: \"400\"\nspec:\n" + specLines;
    }

    static String base64(String s) {
        return java.util.Base64.getEncoder().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    static final String BASE = "  peerAddress: 198.18.0.9\n  peerASN: 64512\n  myASN: 64513\n";

    static String profile(String name, String specLines) {
        return "apiVersion: juneau.loutres.me/v1alpha1\nkind: BFDProfile\nmetadata:\n  name: " + name
                + "\n  resourceVersion: \"500\"\nspec:\n" + specLines;
    }

    static String bgpNetwork(String name, String extraSpec) {
        return Manifests.network(name, "bgp", "pool-free") + extraSpec;
    }

    static String session(String name, String peer, String node, String labels) {
        return "apiVersion: juneau.loutres.me/v1alpha1\nkind: BGPSession\nmetadata:\n  name: " + name
                + "\n  resourceVersion: \"600\"\n  labels: {" + labels + "}\nspec:\n  peer: " + peer
                + "\n  nodeName: " + node + "\nstatus:\n  state: Established\n";
    }

    static String okSession() {
        return session("tor-1.node-a", "tor-1", "node-a",
                "juneau.loutres.me/peer: tor-1, juneau.loutres.me/node: node-a");
    }

    static ClusterView cluster() {
        return Fixtures.view(
                Manifests.pool("pool-free", "bgp", "100.64.0.0/24"),
                Manifests.pool("pool-a", "bgp", "192.0.2.0/24"),
                Manifests.pool("pool-l2", "arp", "203.0.113.10-203.0.113.20"),
                Manifests.pool("pool-free-arp", "arp", "100.64.1.1-100.64.1.9"),
                Manifests.network("public", "bgp", "pool-a") + "  bgp:\n    peers: [tor-1]\n",
                Manifests.network("l2", "arp", "pool-l2"),
                profile("fast", "  transmitInterval: 300\n"),
                peer("tor-1", "  peerAddress: 198.18.0.1\n  peerASN: 64512\n  myASN: 64513\n  bfdProfile: fast\n"),
                peer("tor-2", "  peerAddress: 198.18.0.2\n  peerASN: 64512\n  myASN: 64513\n  nodeSelectors:\n"
                        + "  - matchLabels: {rack: r1}\n"),
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: bgp-auth\n  namespace: juneau-system\n"
                        + "data:\n  password: c2VjcmV0\n  other: eA==\n",
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: elsewhere\n  namespace: default\n"
                        + "data:\n  password: c2VjcmV0\n",
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: odd-auth\n  namespace: juneau-system\ndata:\n"
                        + "  e80: " + base64("\u00e9".repeat(40)) + "\n  e82: " + base64("\u00e9".repeat(41)) + "\n"
                        + "  latin1: " + java.util.Base64.getEncoder().encodeToString(new byte[] {(byte) 0xe9, 'x'})
                        + "\n  quote: " + base64("a\"b") + "\n  empty: \"\"\n"
                        + "stringData:\n  nl: \"a\\nb\"\n");
    }

    static {
        // BGPPeer: literals and ranges
        allow("peer: a minimal peer", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE)));
        allow("peer: every field", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE
                + "  peerPort: 1179\n  holdTime: 9s\n  keepaliveTime: 3s\n  sourceAddress: 198.18.0.10\n"
                + "  ebgpMultiHop: true\n  bfdProfile: fast\n  passwordSecret: {name: bgp-auth, key: password}\n"
                + "  nodeSelectors:\n  - matchExpressions:\n    - {key: topology.kubernetes.io/zone, operator: In, values: [a, b]}\n")));
        deny("peer: addresses not IPv4", PEERS, () -> Requests.peer("CREATE").object(peer("p",
                        "  peerAddress: 2001:db8::1\n  peerASN: 64512\n  myASN: 64513\n  sourceAddress: 10.0.0.256\n")),
                "spec.peerAddress: \"2001:db8::1\" is not an IPv4 address; expected a dotted quad such as 192.0.2.10; "
                        + "spec.sourceAddress: \"10.0.0.256\" is not an IPv4 address: octet 256 is above 255; expected a dotted quad such as 192.0.2.10");
        deny("peer: missing address and AS numbers", PEERS, () -> Requests.peer("CREATE").object(peer("p", "  ebgpMultiHop: false\n")),
                "spec.peerAddress: missing; accepted: the neighbour's IPv4 address, e.g. 192.0.2.1; "
                        + "spec.peerASN: missing; accepted: 1 to 4294967294 except 23456; "
                        + "spec.myASN: missing; accepted: 1 to 4294967294 except 23456");
        deny("peer: AS numbers out of range and AS_TRANS", PEERS, () -> Requests.peer("CREATE").object(peer("p",
                        "  peerAddress: 198.18.0.9\n  peerASN: 4294967295\n  myASN: 23456\n")),
                "spec.peerASN: 4294967295 is out of range; accepted: 1 to 4294967294 except 23456; "
                        + "spec.myASN: 23456 is AS_TRANS, which stands in for 4-byte AS numbers and is no real AS; accepted: 1 to 4294967294 except 23456");
        deny("peer: port out of range", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  peerPort: 0\n")),
                "spec.peerPort: 0 is out of range; accepted: 1 to 65535 (default 179)");
        deny("peer: holdTime not a duration", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: \"90\"\n")),
                "spec.holdTime: \"90\" is not a duration; accepted: 0s (no hold timer) or 3s to 65535s, e.g. 90s (Go/Kubernetes duration form: units h, m, s, ms, us, ns, e.g. 1m30s)");
        deny("peer: holdTime out of range", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: 2s\n")),
                "spec.holdTime: \"2s\" is out of range; accepted: 0s (no hold timer) or 3s to 65535s, e.g. 90s");
        deny("peer: holdTime not whole seconds", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: 1500ms\n")),
                "spec.holdTime: \"1500ms\" is not a whole number of seconds (BIRD's BGP timers are whole seconds); accepted: 0s (no hold timer) or 3s to 65535s, e.g. 90s");
        allow("peer: holdTime in minutes and seconds", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: 1m30s\n  keepaliveTime: 30s\n")));
        deny("peer: keepalive not less than hold", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: 9s\n  keepaliveTime: 9s\n")),
                "spec.keepaliveTime: \"9s\" is not less than spec.holdTime (\"9s\"); accepted: 1s to 8s (default a third of holdTime, 3s)");
        deny("peer: keepalive against the default hold time", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  keepaliveTime: 2m\n")),
                "spec.keepaliveTime: \"2m\" is not less than spec.holdTime (the default 90s); accepted: 1s to 89s (default a third of holdTime, 30s)");
        deny("peer: keepalive 0s with a hold time", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: 9s\n  keepaliveTime: 0s\n")),
                "spec.keepaliveTime: \"0s\" turns keepalives off, which only a holdTime of 0s allows (holdTime is \"9s\"); accepted: 1s to 8s (default a third of holdTime, 3s)");
        allow("peer: keepalive 0s with hold 0s", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: 0s\n  keepaliveTime: \"0\"\n")));
        deny("peer: keepalive with hold 0s", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: 0s\n  keepaliveTime: 5s\n")),
                "spec.keepaliveTime: \"5s\" is not less than spec.holdTime (\"0s\"); accepted: 0s or no keepaliveTime, as holdTime is 0s");
        // BGPPeer: what BIRD would refuse (issue 37: each of these stopped BGP on every node)
        allow("peer: durations in Go's every form", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE
                + "  holdTime: 0.3s2.4s0.3s\n  keepaliveTime: \"1.s\"\n")));
        allow("peer: holdTime \"0\"", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: \"0\"\n")));
        allow("peer: holdTime +1h2m", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  holdTime: +1h2m\n  keepaliveTime: .5m\n")));
        deny("peer: durations Go refuses", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE
                        + "  holdTime: \" 90s\"\n  keepaliveTime: s\n")),
                "spec.holdTime: \" 90s\" is not a duration; accepted: 0s (no hold timer) or 3s to 65535s, e.g. 90s (Go/Kubernetes duration form: units h, m, s, ms, us, ns, e.g. 1m30s); "
                        + "spec.keepaliveTime: \"s\" is not a duration; accepted: a duration shorter than holdTime, e.g. 30s (Go/Kubernetes duration form: units h, m, s, ms, us, ns, e.g. 1m30s)");
        deny("peer: a negative hold time, a fraction of a second", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE
                        + "  holdTime: -9s\n  keepaliveTime: .5s\n")),
                "spec.holdTime: \"-9s\" is out of range; accepted: 0s (no hold timer) or 3s to 65535s, e.g. 90s; "
                        + "spec.keepaliveTime: \".5s\" is not a whole number of seconds (BIRD's BGP timers are whole seconds); accepted: a duration shorter than holdTime, e.g. 30s");
        deny("peer: multihop eBGP with BFD and no sourceAddress", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE
                        + "  ebgpMultiHop: true\n  bfdProfile: fast\n")),
                "spec.sourceAddress: missing, but the session is multihop (spec.ebgpMultiHop is true) and uses BFD (spec.bfdProfile \"fast\"); BIRD sends BFD for a multihop session from a fixed address (\"Multihop BGP with BFD requires specified local address\"); accepted: the nodes' address towards the peer in spec.sourceAddress, or no bfdProfile");
        deny("peer: iBGP with BFD and no sourceAddress", PEERS, () -> Requests.peer("CREATE").object(peer("p",
                        "  peerAddress: 198.18.0.9\n  peerASN: 64512\n  myASN: 64512\n  bfdProfile: fast\n")),
                "spec.sourceAddress: missing, but the session is multihop (iBGP: peerASN equals myASN) and uses BFD (spec.bfdProfile \"fast\"); BIRD sends BFD for a multihop session from a fixed address (\"Multihop BGP with BFD requires specified local address\"); accepted: the nodes' address towards the peer in spec.sourceAddress, or no bfdProfile");
        allow("peer: iBGP with BFD and a sourceAddress; link-local IPv4 is a neighbour", PEERS, () -> Requests.peer("CREATE").object(peer("p",
                "  peerAddress: 169.254.0.1\n  peerASN: 64512\n  myASN: 64512\n  bfdProfile: fast\n  sourceAddress: 169.254.0.2\n")));
        deny("peer: addresses that cannot be neighbours", PEERS, () -> Requests.peer("CREATE").object(peer("p",
                        "  peerAddress: 0.0.0.0\n  peerASN: 64512\n  myASN: 64513\n  sourceAddress: 127.0.0.1\n")),
                "spec.peerAddress: 0.0.0.0 is in 0.0.0.0/8 (\"this network\", a source address only), which cannot be a BGP session's address; accepted: a unicast IPv4 address, e.g. 192.0.2.1; "
                        + "spec.sourceAddress: 127.0.0.1 is in 127.0.0.0/8 (loopback: this node itself), which cannot be a BGP session's address; accepted: a unicast IPv4 address, e.g. 192.0.2.1");
        deny("peer: broadcast and multicast", PEERS, () -> Requests.peer("CREATE").object(peer("p",
                        "  peerAddress: 255.255.255.255\n  peerASN: 64512\n  myASN: 64513\n  sourceAddress: 224.0.0.1\n")),
                "spec.peerAddress: 255.255.255.255 is in 240.0.0.0/4 (reserved, with the broadcast address 255.255.255.255), which cannot be a BGP session's address; accepted: a unicast IPv4 address, e.g. 192.0.2.1; "
                        + "spec.sourceAddress: 224.0.0.1 is in 224.0.0.0/4 (multicast: not a unicast address), which cannot be a BGP session's address; accepted: a unicast IPv4 address, e.g. 192.0.2.1");
        allow("peer: a password of 80 bytes of UTF-8 (40 two-byte characters)", PEERS,
                () -> Requests.peer("CREATE").object(peer("p", BASE + "  passwordSecret: {name: odd-auth, key: e80}\n")));
        for (String[] bad : new String[][] {{"e82", "is 82 bytes long"}, {"latin1", "is not valid UTF-8"},
                {"quote", "contains a double quote"}, {"empty", "is empty"}, {"nl", "contains a line break"}}) {
            deny("peer: a password that " + bad[1], PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE
                            + "  passwordSecret: {name: odd-auth, key: " + bad[0] + "}\n")),
                    "spec.passwordSecret: the value of key \"" + bad[0] + "\" in Secret juneau-system/odd-auth " + bad[1]
                            + "; accepted: 1 to 80 bytes of UTF-8 (the kernel's TCP MD5 key limit) without a double quote, backslash, line break or NUL");
        }
        // BGPPeer: what it names
        deny("peer: unknown BFDProfile", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE + "  bfdProfile: slow\n")),
                "spec.bfdProfile: BFDProfile \"slow\" does not exist; accepted: the name of an existing BFDProfile (kubectl get bfdprofiles), or no bfdProfile");
        deny("peer: password Secret missing in juneau-system (one elsewhere does not count)", PEERS,
                () -> Requests.peer("CREATE").object(peer("p", BASE + "  passwordSecret: {name: elsewhere, key: password}\n")),
                "spec.passwordSecret.name: Secret \"elsewhere\" does not exist in namespace juneau-system; accepted: a Secret in juneau-system with the password under spec.passwordSecret.key");
        deny("peer: password Secret without that key", PEERS,
                () -> Requests.peer("CREATE").object(peer("p", BASE + "  passwordSecret: {name: bgp-auth, key: pw}\n")),
                "spec.passwordSecret.key: Secret juneau-system/bgp-auth has no key \"pw\"; accepted: one of its keys (other, password)");
        deny("peer: password Secret reference incomplete", PEERS,
                () -> Requests.peer("CREATE").object(peer("p", BASE + "  passwordSecret: {name: bgp-auth}\n")),
                "spec.passwordSecret.key: missing; accepted: the key of that Secret holding the password");
        allow("peer: an UPDATE keeps a BFDProfile named before, even if it is gone", PEERS, () -> Requests.peer("UPDATE")
                .oldObject(peer("p", BASE + "  bfdProfile: gone\n")).object(peer("p", BASE + "  bfdProfile: gone\n  holdTime: 30s\n")));
        allow("peer: deletionTimestamp skips cross-object checks", PEERS, () -> Requests.peer("UPDATE")
                .oldObject(peer("p", BASE + "  bfdProfile: gone\n").replace("  resourceVersion", "  deletionTimestamp: \"2026-11-29T11:00:00Z\"\n  resourceVersion"))
                .object(peer("p", BASE + "  bfdProfile: gone2\n").replace("  resourceVersion", "  deletionTimestamp: \"2026-11-29T11:00:00Z\"\n  resourceVersion")));
        // BGPPeer: one neighbour, one session per node
        deny("peer: same address and port as another peer, neither with selectors", PEERS, () -> Requests.peer("CREATE")
                        .object(peer("p", "  peerAddress: 198.18.0.1\n  peerASN: 64512\n  myASN: 64513\n  peerPort: 179\n")),
                "spec.peerAddress: 198.18.0.1 port 179 is already the neighbour of BGPPeer \"tor-1\" for the same nodes (neither has nodeSelectors), and a node holds one session per neighbour; accepted: another peerAddress or peerPort, or nodeSelectors that differ from that BGPPeer's");
        deny("peer: same address and port, identical selectors", PEERS, () -> Requests.peer("CREATE")
                        .object(peer("p", "  peerAddress: 198.18.0.2\n  peerASN: 64512\n  myASN: 64513\n  nodeSelectors:\n  - matchLabels: {rack: r1}\n")),
                "spec.peerAddress: 198.18.0.2 port 179 is already the neighbour of BGPPeer \"tor-2\" for the same nodes (identical nodeSelectors), and a node holds one session per neighbour; accepted: another peerAddress or peerPort, or nodeSelectors that differ from that BGPPeer's");
        allow("peer: same address, other port", PEERS, () -> Requests.peer("CREATE")
                .object(peer("p", "  peerAddress: 198.18.0.1\n  peerASN: 64512\n  myASN: 64513\n  peerPort: 1179\n")));
        allow("peer: same address, other selectors", PEERS, () -> Requests.peer("CREATE")
                .object(peer("p", "  peerAddress: 198.18.0.2\n  peerASN: 64512\n  myASN: 64513\n  nodeSelectors:\n  - matchLabels: {rack: r2}\n")));
        allow("peer: an UPDATE of the peer itself is no duplicate", PEERS, () -> Requests.peer("UPDATE")
                .oldObject(peer("tor-1", "  peerAddress: 198.18.0.1\n  peerASN: 64512\n  myASN: 64513\n  bfdProfile: fast\n"))
                .object(peer("tor-1", "  peerAddress: 198.18.0.1\n  peerASN: 64512\n  myASN: 64513\n  bfdProfile: fast\n  holdTime: 30s\n")));
        // BGPPeer: selectors
        deny("peer: a bad node selector", PEERS, () -> Requests.peer("CREATE").object(peer("p", BASE
                        + "  nodeSelectors:\n  - matchExpressions:\n    - {key: zone, operator: Gt, values: [\"1\"]}\n")),
                "spec.nodeSelectors[0].matchExpressions[0].operator: \"Gt\" is not supported; accepted: In, NotIn, Exists, DoesNotExist");
        // BGPPeer DELETE
        deny("peer: DELETE while a network lists it", PEERS, () -> Requests.peer("DELETE").oldObject(peer("tor-1", BASE)),
                "BGPPeer tor-1 cannot be deleted: ExternalNetwork public lists it in spec.bgp.peers; remove it from there first");
        allow("peer: DELETE of a peer no network lists", PEERS, () -> Requests.peer("DELETE").oldObject(peer("tor-2", BASE)));

        // BFDProfile
        allow("bfd: defaults", BFD, () -> Requests.bfdProfile("CREATE").object(profile("b", "  passiveMode: true\n")));
        allow("bfd: the edges of the ranges", BFD, () -> Requests.bfdProfile("CREATE").object(profile("b",
                "  receiveInterval: 10\n  transmitInterval: 60000\n  detectMultiplier: 255\n")));
        deny("bfd: out of range", BFD, () -> Requests.bfdProfile("CREATE").object(profile("b",
                        "  receiveInterval: 9\n  transmitInterval: 60001\n  detectMultiplier: 1\n")),
                "spec.receiveInterval: 9 is out of range; accepted: 10 to 60000 milliseconds (default 300); "
                        + "spec.transmitInterval: 60001 is out of range; accepted: 10 to 60000 milliseconds (default 300); "
                        + "spec.detectMultiplier: 1 is out of range; accepted: 2 to 255 (default 3)");
        deny("bfd: DELETE while a peer names it", BFD, () -> Requests.bfdProfile("DELETE").oldObject(profile("fast", "")),
                "BFDProfile fast cannot be deleted: BGPPeer tor-1 names it in spec.bfdProfile; remove it from there first");
        allow("bfd: DELETE of an unnamed profile", BFD, () -> Requests.bfdProfile("DELETE").oldObject(profile("slow", "")));

        // ExternalNetwork spec.bgp / spec.arp / spec.nodeSelector
        allow("network: bgp with peers, communities, localPref, aggregation", NETS, () -> Requests.network("CREATE").object(bgpNetwork("n",
                "  bgp:\n    peers: [tor-1, tor-2]\n    communities: [\"65000:100\", \"4200000000:1:2\", no-export]\n"
                        + "    localPref: 200\n    aggregationLength: 24\n  nodeSelector:\n    matchLabels: {edge: \"true\"}\n")));
        deny("network: spec.bgp on an arp network", NETS, () -> Requests.network("CREATE").object(Manifests.network("n", "arp", "pool-free-arp")
                        + "  bgp: {localPref: 1}\n"),
                "spec.bgp: set on an ExternalNetwork of type arp; accepted: spec.bgp only with type bgp (spec.arp for arp networks)");
        deny("network: spec.arp on a bgp network", NETS, () -> Requests.network("CREATE").object(bgpNetwork("n", "  arp: {interfaces: [eth0]}\n")),
                "spec.arp: set on an ExternalNetwork of type bgp; accepted: spec.arp only with type arp (spec.bgp for bgp networks)");
        deny("network: an unknown peer", NETS, () -> Requests.network("CREATE").object(bgpNetwork("n", "  bgp:\n    peers: [tor-1, tor-9]\n")),
                "spec.bgp.peers[1]: BGPPeer \"tor-9\" does not exist; accepted: names of existing BGPPeers (kubectl get bgppeers), or no peers for every BGPPeer");
        deny("network: communities that do not parse", NETS, () -> Requests.network("CREATE").object(bgpNetwork("n",
                        "  bgp:\n    communities: [\"65000:70000\", \"1:2:4294967296\", no-exports, \"1:x\"]\n")),
                "spec.bgp.communities[0]: \"65000:70000\" is not a community (70000 is above 65535); accepted: AA:NN (each part 0-65535), large AA:NN:MM (each part 0-4294967295), or no-export, no-advertise, no-export-subconfed, no-peer; "
                        + "spec.bgp.communities[1]: \"1:2:4294967296\" is not a community (4294967296 is above 4294967295); accepted: AA:NN (each part 0-65535), large AA:NN:MM (each part 0-4294967295), or no-export, no-advertise, no-export-subconfed, no-peer; "
                        + "spec.bgp.communities[2]: \"no-exports\" is not a community (neither a number pair nor a well-known name); accepted: AA:NN (each part 0-65535), large AA:NN:MM (each part 0-4294967295), or no-export, no-advertise, no-export-subconfed, no-peer; "
                        + "spec.bgp.communities[3]: \"1:x\" is not a community (\"x\" is not a number); accepted: AA:NN (each part 0-65535), large AA:NN:MM (each part 0-4294967295), or no-export, no-advertise, no-export-subconfed, no-peer");
        deny("network: aggregationLength and localPref out of range", NETS, () -> Requests.network("CREATE").object(bgpNetwork("n",
                        "  bgp:\n    aggregationLength: 16\n    localPref: 4294967296\n")),
                "spec.bgp.localPref: 4294967296 is out of range; accepted: 0 to 4294967295; "
                        + "spec.bgp.aggregationLength: 16 is out of range; accepted: 24 to 32 (default 32: the VIP's own /32)");
        deny("network: a peer listed twice", NETS, () -> Requests.network("CREATE").object(bgpNetwork("n", "  bgp:\n    peers: [tor-1, tor-1]\n")),
                "spec.bgp.peers[1]: \"tor-1\" is already listed at spec.bgp.peers[0]; list each BGPPeer once");
        deny("network: a bad interface name", NETS, () -> Requests.network("CREATE").object(Manifests.network("n", "arp", "pool-free-arp")
                        + "  arp:\n    interfaces: [\"eth 0\", averyveryverylongname0]\n"),
                "spec.arp.interfaces[0]: \"eth 0\" is not an interface name; accepted: 1 to 15 characters without '/', ':' or whitespace, not . or .., e.g. eth0; "
                        + "spec.arp.interfaces[1]: \"averyveryverylongname0\" is not an interface name; accepted: 1 to 15 characters without '/', ':' or whitespace, not . or .., e.g. eth0");
        deny("network: invalid nodeSelector, each bad part named", NETS, () -> Requests.network("CREATE").object(bgpNetwork("n",
                        "  nodeSelector:\n    matchLabels: {\"bad key!\": a, zone: \"not valid\"}\n    matchExpressions:\n"
                                + "    - {key: rack, operator: In}\n    - {key: rack, operator: Exists, values: [r1]}\n"
                                + "    - {key: \"-rack\", operator: NotIn, values: [\"r 1\"]}\n    - {key: rack}\n")),
                "spec.nodeSelector.matchLabels: key \"bad key!\" is not a valid label key; accepted: a label key: an optional DNS subdomain prefix and '/', then a name of at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit (e.g. topology.kubernetes.io/zone); "
                        + "spec.nodeSelector.matchLabels[\"zone\"]: \"not valid\" is not a valid label value; accepted: a label value: empty, or at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit; "
                        + "spec.nodeSelector.matchExpressions[0].values: empty with operator In; accepted: at least one value for In and NotIn; "
                        + "spec.nodeSelector.matchExpressions[1].values: \"r1\" given with operator Exists; accepted: no values for Exists and DoesNotExist; "
                        + "spec.nodeSelector.matchExpressions[2].key: \"-rack\" is not a valid label key; accepted: a label key: an optional DNS subdomain prefix and '/', then a name of at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit (e.g. topology.kubernetes.io/zone); "
                        + "spec.nodeSelector.matchExpressions[2].values[0]: \"r 1\" is not a valid label value; accepted: a label value: empty, or at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit; "
                        + "spec.nodeSelector.matchExpressions[3].operator: missing; accepted: In, NotIn, Exists, DoesNotExist");
        allow("network: an arp network with interfaces and a selector", NETS, () -> Requests.network("CREATE").object(
                Manifests.network("n", "arp", "pool-free-arp") + "  arp:\n    interfaces: [eth0, bond0.100]\n"
                        + "  nodeSelector:\n    matchExpressions:\n    - {key: node.kubernetes.io/exclude-from-external-load-balancers, operator: DoesNotExist}\n"));
        allow("network: an UPDATE keeps a peer listed before, even if it is gone", NETS, () -> Requests.network("UPDATE")
                .oldObject(bgpNetwork("n", "  bgp:\n    peers: [gone]\n")).object(bgpNetwork("n", "  bgp:\n    peers: [gone]\n    localPref: 5\n")));

        // BGPSession: the agents' own
        allow("session: the agent creates its node's session", SESSIONS, () -> Requests.session("CREATE").user(AGENT).object(okSession()));
        allow("session: the agent updates its status, with a bound token of its node", SESSIONS, () -> Requests.session("UPDATE")
                .user(AGENT).nodeNameExtra("node-a").subResource("status").oldObject(okSession()).object(okSession().replace("Established", "Active")));
        deny("session: a status count that is not an integer", SESSIONS, () -> Requests.session("UPDATE").user(AGENT)
                        .nodeNameExtra("node-a").subResource("status").oldObject(okSession())
                        .object(okSession() + "  routesAdvertised: 1.5\n"),
                "status.routesAdvertised: 1.5 has the wrong type for BGPSession; expected an integer");
        deny("session: a person may not write one", SESSIONS, () -> Requests.session("CREATE").object(okSession()),
                "BGPSession tor-1.node-a is written by the node agents only: its status is what the node's BGP daemon reports, and kubectl get bgpsessions shows it (request by \"alice\")");
        deny("session: the controller may not write a BGP state", SESSIONS, () -> Requests.session("UPDATE").user(Requests.CONTROLLER)
                        .subResource("status").oldObject(okSession()).object(okSession()),
                "BGPSession tor-1.node-a: status.state: \"Established\" is not for the controller to write; accepted: Unknown (the node's agent is dead: its session is no longer known) (request by \"system:serviceaccount:juneau-system:juneau-controller\")");
        allow("session: the controller writes a dead node's session Unknown", SESSIONS, () -> Requests.session("UPDATE")
                .user(Requests.CONTROLLER).subResource("status").oldObject(okSession())
                .object(okSession().replace("state: Established", "state: Unknown\n  routesAdvertised: 0")));
        deny("session: the controller may not claim routes", SESSIONS, () -> Requests.session("UPDATE").user(Requests.CONTROLLER)
                        .subResource("status").oldObject(okSession())
                        .object(okSession().replace("state: Established", "state: Unknown\n  routesAdvertised: 3")),
                "BGPSession tor-1.node-a: status.routesAdvertised: 3 cannot be claimed by the controller; accepted: 0 or absent (request by \"system:serviceaccount:juneau-system:juneau-controller\")");
        deny("session: the controller may not create one", SESSIONS, () -> Requests.session("CREATE").user(Requests.CONTROLLER)
                        .object(okSession().replace("state: Established", "state: Unknown")),
                "BGPSession tor-1.node-a: the controller may only UPDATE its status subresource, to state Unknown when the node's agent is dead (request by \"system:serviceaccount:juneau-system:juneau-controller\")");
        deny("session: name, labels and spec must agree", SESSIONS, () -> Requests.session("CREATE").user(AGENT)
                        .object(session("tor-1.node-b", "tor-1", "node-a", "juneau.loutres.me/peer: tor-2")),
                "BGPSession tor-1.node-b: metadata.name: \"tor-1.node-b\" is not <spec.peer>.<spec.nodeName>; accepted: tor-1.node-a; "
                        + "metadata.labels[\"juneau.loutres.me/peer\"]: \"tor-2\" is not spec.peer; accepted: tor-1; "
                        + "metadata.labels[\"juneau.loutres.me/node\"]: missing; accepted: node-a (spec.nodeName) (request by \"system:serviceaccount:juneau-system:juneau-agent\")");
        deny("session: spec may not change", SESSIONS, () -> Requests.session("UPDATE").user(AGENT).oldObject(okSession())
                        .object(okSession().replace("  peer: tor-1", "  peer: tor-2")),
                "BGPSession tor-1.node-a: metadata.name: \"tor-1.node-a\" is not <spec.peer>.<spec.nodeName>; accepted: tor-2.node-a; "
                        + "metadata.labels[\"juneau.loutres.me/peer\"]: \"tor-1\" is not spec.peer; accepted: tor-2; "
                        + "spec: cannot change from peer \"tor-1\", nodeName \"node-a\" to peer \"tor-2\", nodeName \"node-a\"; accepted: the same spec (a session of another peer or node is another BGPSession) (request by \"system:serviceaccount:juneau-system:juneau-agent\")");
        deny("session: one node's agent may not write another node's session", SESSIONS, () -> Requests.session("CREATE").user(AGENT)
                        .nodeNameExtra("node-b").object(okSession()),
                "BGPSession tor-1.node-a: spec.nodeName \"node-a\" is not the requesting agent's node \"node-b\" (userInfo.extra[\"authentication.kubernetes.io/node-name\"]); accepted: only sessions of node node-b (request by \"system:serviceaccount:juneau-system:juneau-agent\")");
        allow("session: the garbage collector deletes one with its peer", SESSIONS, () -> Requests.session("DELETE")
                .user(JuneauConstants.GARBAGE_COLLECTOR_USERNAME).oldObject(okSession()));
        allow("session: the namespace controller deletes one", SESSIONS, () -> Requests.session("DELETE")
                .user(JuneauConstants.NAMESPACE_CONTROLLER_USERNAME).oldObject(okSession()));
        allow("session: the controller deletes one", SESSIONS, () -> Requests.session("DELETE").user(Requests.CONTROLLER).oldObject(okSession()));
        allow("session: the agent deletes its node's stale session", SESSIONS, () -> Requests.session("DELETE").user(AGENT)
                .nodeNameExtra("node-a").oldObject(okSession()));
        deny("session: an agent may not delete another node's session", SESSIONS, () -> Requests.session("DELETE").user(AGENT)
                        .nodeNameExtra("node-b").oldObject(okSession()),
                "BGPSession tor-1.node-a: spec.nodeName \"node-a\" is not the requesting agent's node \"node-b\" (userInfo.extra[\"authentication.kubernetes.io/node-name\"]); accepted: only sessions of node node-b (request by \"system:serviceaccount:juneau-system:juneau-agent\")");
        deny("session: a person may not delete one", SESSIONS, () -> Requests.session("DELETE").oldObject(okSession()),
                "BGPSession tor-1.node-a is the node agents' record of a BGP session; only the agent of its node, the controller, the garbage collector or the namespace controller may delete it (request by \"alice\")");
        allow("session: the garbage collector orphans one", SESSIONS, () -> Requests.session("UPDATE")
                .user(JuneauConstants.GARBAGE_COLLECTOR_USERNAME)
                .oldObject(okSession().replace("  labels:", "  ownerReferences:\n  - {apiVersion: juneau.loutres.me/v1alpha1, kind: BGPPeer, name: tor-1, uid: 0a0a0a0a-0000-4000-8000-000000000009}\n  labels:"))
                .object(okSession()));
    }

    static Stream<Arguments> cases() {
        return CASES.stream().map(c -> Arguments.of(c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rule(Case c) {
        AdmissionRequest request = c.request().get().build();
        AdmissionResponse response = ENGINE.review(c.path(), request, cluster());

        assertThat(response.getUid()).isEqualTo(request.getUid());
        if (c.allowed()) {
            assertThat(response.getStatus()).as("denial").isNull();
            assertThat(response.getAllowed()).isTrue();
        } else {
            assertThat(response.getAllowed()).isFalse();
            assertThat(response.getStatus().getCode()).isEqualTo(403);
            assertThat(response.getStatus().getMessage()).isEqualTo(c.message());
        }
        assertThat(response.getWarnings()).isNullOrEmpty();
        assertThat(response.getPatch()).isNull();
    }

    @org.junit.jupiter.api.Test
    void theViewKeepsNoSecretValue() {
        me.loutres.juneau.view.SnapshotClusterView view = (me.loutres.juneau.view.SnapshotClusterView) cluster();
        assertThat(view.systemSecretKeys("bgp-auth")).contains(Set.of("other", "password"));
        assertThat(view.systemSecretKeys("elsewhere")).isEmpty();
        assertThat(view.objects().toString()).doesNotContain("c2VjcmV0").doesNotContain(base64("a\"b"));
        assertThat(view.systemSecretPasswordProblem("odd-auth", "quote")).contains("contains a double quote");
        assertThat(view.systemSecretPasswordProblem("odd-auth", "e80")).isEmpty();
    }
}
