package me.loutres.juneau.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.ClusterView;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NodeNetworks (docs/admission.md, "NodeNetwork: only the node's agent writes it"; "Addresses that are never VIPs"):
 * who may write one, and pool entries holding a node's gateway or interface address, each denial with its whole
 * message, through the public engine and kube-apiserver-shaped requests.
 */
class NodeNetworkAdmissionTest {
    static final String NODE_NETWORKS = "/validate/nodenetworks";
    static final String POOLS = "/validate/addresspools";
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

    static String nodeNetwork(String name, String node) {
        return "apiVersion: juneau.loutres.me/v1alpha1\nkind: NodeNetwork\nmetadata:\n  name: " + name
                + "\n  resourceVersion: \"700\"\nspec:\n  nodeName: " + node + "\nstatus:\n"
                + "  interfaces:\n  - name: eth0\n    macAddress: \"52:54:00:12:34:56\"\n    up: true\n"
                + "    addresses: [198.18.0.5/24, \"2001:db8:5::5/64\"]\n"
                + "  gateways:\n  - address: 198.18.0.1\n    interfaceName: eth0\n"
                + "  - address: \"2001:db8:5::1\"\n    interfaceName: eth0\n";
    }

    static ClusterView cluster() {
        return Fixtures.view(nodeNetwork("worker-1", "worker-1"),
                Manifests.pool("pool-old", "arp", "198.18.9.10-198.18.9.20"));
    }

    static {
        String who = " (request by \"" + AGENT + "\")";
        allow("the agent creates its node's NodeNetwork", NODE_NETWORKS,
                () -> Requests.nodeNetwork("CREATE").user(AGENT).object(nodeNetwork("node-a", "node-a")));
        allow("the agent updates its status, with a bound token of its node", NODE_NETWORKS,
                () -> Requests.nodeNetwork("UPDATE").user(AGENT).nodeNameExtra("node-a").subResource("status")
                        .oldObject(nodeNetwork("node-a", "node-a"))
                        .object(nodeNetwork("node-a", "node-a").replace("198.18.0.5/24", "198.18.0.6/24")));
        deny("one node's agent may not write another node's NodeNetwork", NODE_NETWORKS,
                () -> Requests.nodeNetwork("UPDATE").user(AGENT).nodeNameExtra("node-b").subResource("status")
                        .oldObject(nodeNetwork("node-a", "node-a")).object(nodeNetwork("node-a", "node-a")),
                "NodeNetwork node-a: spec.nodeName \"node-a\" is not the requesting agent's node \"node-b\""
                        + " (userInfo.extra[\"authentication.kubernetes.io/node-name\"]); accepted: only NodeNetworks"
                        + " of node node-b" + who);
        deny("a person may not write one", NODE_NETWORKS,
                () -> Requests.nodeNetwork("CREATE").object(nodeNetwork("node-a", "node-a")),
                "NodeNetwork node-a is written by the node agents only: it is what the node's kernel reports of its"
                        + " interfaces and gateways, and kubectl get nodenetworks shows it (request by \"alice\")");
        deny("the controller may not write one", NODE_NETWORKS,
                () -> Requests.nodeNetwork("UPDATE").user(Requests.CONTROLLER).subResource("status")
                        .oldObject(nodeNetwork("node-a", "node-a")).object(nodeNetwork("node-a", "node-a")),
                "NodeNetwork node-a is written by the node agents only: it is what the node's kernel reports of its"
                        + " interfaces and gateways, and kubectl get nodenetworks shows it (request by \""
                        + Requests.CONTROLLER + "\")");
        deny("the name is the node", NODE_NETWORKS,
                () -> Requests.nodeNetwork("CREATE").user(AGENT).object(nodeNetwork("node-b", "node-a")),
                "NodeNetwork node-b: metadata.name: \"node-b\" is not spec.nodeName; accepted: node-a" + who);
        deny("spec may not change", NODE_NETWORKS,
                () -> Requests.nodeNetwork("UPDATE").user(AGENT).oldObject(nodeNetwork("node-a", "node-a"))
                        .object(nodeNetwork("node-a", "node-a").replace("nodeName: node-a", "nodeName: node-b")),
                "NodeNetwork node-a: metadata.name: \"node-a\" is not spec.nodeName; accepted: node-b; spec.nodeName:"
                        + " cannot change from \"node-a\" to \"node-b\"; accepted: the same spec (another node's"
                        + " network is another NodeNetwork)" + who);
        allow("the agent deletes its node's NodeNetwork", NODE_NETWORKS,
                () -> Requests.nodeNetwork("DELETE").user(AGENT).nodeNameExtra("node-a")
                        .oldObject(nodeNetwork("node-a", "node-a")));
        deny("an agent may not delete another node's", NODE_NETWORKS,
                () -> Requests.nodeNetwork("DELETE").user(AGENT).nodeNameExtra("node-b")
                        .oldObject(nodeNetwork("node-a", "node-a")),
                "NodeNetwork node-a: spec.nodeName \"node-a\" is not the requesting agent's node \"node-b\""
                        + " (userInfo.extra[\"authentication.kubernetes.io/node-name\"]); accepted: only NodeNetworks"
                        + " of node node-b" + who);
        allow("the garbage collector deletes one", NODE_NETWORKS,
                () -> Requests.nodeNetwork("DELETE").user(JuneauConstants.GARBAGE_COLLECTOR_USERNAME)
                        .oldObject(nodeNetwork("node-a", "node-a")));
        deny("a person may not delete one", NODE_NETWORKS,
                () -> Requests.nodeNetwork("DELETE").oldObject(nodeNetwork("node-a", "node-a")),
                "NodeNetwork node-a is the node agent's report of its node's network; only the agent of its node,"
                        + " the controller, the garbage collector or the namespace controller may delete it (request"
                        + " by \"alice\")");

        // pools: a reported gateway or interface address is never a VIP (docs/admission.md)
        deny("a pool entry holding a node's default gateway and interface address", POOLS,
                () -> Requests.pool("CREATE").object(Manifests.pool("lan", "arp", "198.18.0.0-198.18.0.9")),
                "spec.addresses[0]: \"198.18.0.0-198.18.0.9\" overlaps the default gateway 198.18.0.1 of node"
                        + " worker-1 (interface eth0, NodeNetwork worker-1) (shared: 198.18.0.1); the cluster network"
                        + " uses those addresses, so they must never become VIPs; spec.addresses[0]:"
                        + " \"198.18.0.0-198.18.0.9\" overlaps the address 198.18.0.5 of node worker-1 interface eth0"
                        + " (NodeNetwork worker-1) (shared: 198.18.0.5); the cluster network uses those addresses, so"
                        + " they must never become VIPs");
        deny("an IPv6 entry holding a node's IPv6 gateway", POOLS,
                () -> Requests.pool("CREATE").object(Manifests.pool("lan6", "bgp", "2001:db8:5::/120")),
                "spec.addresses[0]: \"2001:db8:5::/120\" overlaps the default gateway 2001:db8:5::1 of node worker-1"
                        + " (interface eth0, NodeNetwork worker-1) (shared: 2001:db8:5::1); the cluster network uses"
                        + " those addresses, so they must never become VIPs; spec.addresses[0]: \"2001:db8:5::/120\""
                        + " overlaps the address 2001:db8:5::5 of node worker-1 interface eth0 (NodeNetwork worker-1)"
                        + " (shared: 2001:db8:5::5); the cluster network uses those addresses, so they must never"
                        + " become VIPs");
        allow("the same subnet without the node's addresses is fine", POOLS,
                () -> Requests.pool("CREATE").object(Manifests.pool("lan", "arp", "198.18.0.100-198.18.0.120")));
        allow("an entry admitted before is not checked again", POOLS,
                () -> Requests.pool("UPDATE").oldObject(Manifests.pool("pool-old", "arp", "198.18.9.10-198.18.9.20"))
                        .object(Manifests.pool("pool-old", "arp", "198.18.9.10-198.18.9.20", "198.18.0.100-198.18.0.110")));
    }

    static Stream<Case> cases() {
        return CASES.stream();
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
    }
}
