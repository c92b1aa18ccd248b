package me.loutres.juneau.agent.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.stream.Stream;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.own.Ownership;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkArp;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where a node answers each VIP it owns (docs/api-reference.md, {@code spec.arp.interfaces}): the node has eth0 on
 * LAN A (198.18.0.0/24, which holds the VIP) and eth1 on LAN B (198.19.0.0/24), a loopback and a link that is down.
 */
class ArpPlannerTest {
    static final String NODE = "node-a";
    static final String VIP = "198.18.0.100";
    static final InterfaceInfo LO = new InterfaceInfo("lo", 1, null,
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("127.0.0.1"), 8)), true, true);
    static final InterfaceInfo ETH0 = iface("eth0", 2, "198.18.0.11", true);
    static final InterfaceInfo ETH1 = iface("eth1", 3, "198.19.0.11", true);
    static final InterfaceInfo ETH2 = iface("eth2", 4, "198.19.1.11", false);
    static final List<InterfaceInfo> HOST = List.of(LO, ETH0, ETH1, ETH2);

    static InterfaceInfo iface(String name, int index, String ip, boolean up) {
        return new InterfaceInfo(name, index, MacAddress.parse(String.format("02:00:00:00:00:%02x", index)),
                List.of(new InterfaceInfo.Prefix(Ipv4.parse(ip), 24)), up, false);
    }

    static ExternalNetwork network(String name, List<String> interfaces) {
        ExternalNetwork n = new ExternalNetwork();
        n.setMetadata(new ObjectMetaBuilder().withName(name).build());
        ExternalNetworkSpec spec = new ExternalNetworkSpec("arp", List.of("pool"));
        if (interfaces != null) {
            ExternalNetworkArp arp = new ExternalNetworkArp();
            arp.setInterfaces(interfaces);
            spec.setArp(arp);
        }
        n.setSpec(spec);
        return n;
    }

    static ARPAdvertisement advertisement(String network) {
        ARPAdvertisement a = new ARPAdvertisement();
        a.setMetadata(new ObjectMetaBuilder().withName("slb-default-web").withGeneration(1L).build());
        a.setSpec(new ARPAdvertisementSpec(network, VIP, NODE));
        return a;
    }

    static ArpAnswer answer(List<ExternalNetwork> networks, List<String> agentInterfaces) {
        List<ARPAdvertisement> ads = List.of(advertisement("lan"));
        NodeView v = new NodeView(NODE, Map.of(), null, null, ads, List.of(), networks, List.of(), List.of(), Map.of());
        SortedMap<Long, ArpAnswer> plan = ArpPlanner.plan(Ownership.of(NODE, ads), v, HOST, agentInterfaces);
        assertThat(plan).containsOnlyKeys(Ipv4.parse(VIP));
        return plan.get(Ipv4.parse(VIP));
    }

    static Stream<Arguments> where() {
        return Stream.of(
                Arguments.of("no list: the interface whose prefix holds the VIP", network("lan", null), List.of(),
                        "eth0"),
                Arguments.of("an empty list restricts nothing", network("lan", List.of()), List.of(), "eth0"),
                Arguments.of("the one listed interface answers, even outside its prefixes",
                        network("lan", List.of("eth1")), List.of(), "eth1"),
                Arguments.of("among several listed, the one whose prefix holds the VIP",
                        network("lan", List.of("eth1", "eth0")), List.of(), "eth0"),
                Arguments.of("a listed interface missing beside a present one: the present one answers",
                        network("lan", List.of("eth9", "eth1")), List.of(), "eth1"),
                Arguments.of("--interface narrows the list", network("lan", List.of("eth0", "eth1")),
                        List.of("eth1"), "eth1"),
                Arguments.of("the list overrules the prefix rule of --interface", network("lan", List.of("eth1")),
                        List.of("eth0", "eth1"), "eth1"),
                Arguments.of("another network's list does not apply", network("other", List.of("eth1")), List.of(),
                        "eth0"),
                Arguments.of("the network unknown (deleted meanwhile): the node-wide rule", null, List.of(), "eth0"),
                Arguments.of("the only listed interface is missing", network("lan", List.of("eth9")), List.of(), null),
                Arguments.of("the only listed interface is down", network("lan", List.of("eth2")), List.of(), null),
                Arguments.of("two listed, neither holds the VIP: no guess", network("lan", List.of("eth1", "eth2")),
                        List.of(), null),
                Arguments.of("the loopback never answers", network("lan", List.of("lo")), List.of(), null),
                Arguments.of("list and --interface share nothing", network("lan", List.of("eth1")), List.of("eth0"),
                        null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("where")
    void answersOnlyWhereTheNetworkSays(String name, ExternalNetwork network, List<String> agentInterfaces,
            String expected) {
        ArpAnswer a = answer(network == null ? List.of() : List.of(network), agentInterfaces);
        if (expected == null) {
            assertThat(a).isInstanceOf(ArpAnswer.NoInterface.class);
        } else {
            assertThat(a).isInstanceOf(ArpAnswer.Answer.class);
            assertThat(((ArpAnswer.Answer) a).iface().name()).isEqualTo(expected);
        }
    }

    @Test
    void aMissingInterfaceIsNamedWithTheNodesInterfaces() {
        ArpAnswer a = answer(List.of(network("lan", List.of("eth9"))), List.of());

        assertThat(a).isEqualTo(new ArpAnswer.NoInterface(a.claim(), "interface eth9 (spec.arp.interfaces of"
                + " ExternalNetwork lan) is not on node node-a (its interfaces: eth0, eth1, eth2); fix the list, or keep"
                + " this node out with the network's spec.nodeSelector"));
    }

    @Test
    void aListedInterfaceThatCannotAnswerSaysWhatWasSeen() {
        ArpAnswer down = answer(List.of(network("lan", List.of("eth2"))), List.of());
        ArpAnswer disjoint = answer(List.of(network("lan", List.of("eth1"))), List.of("eth0"));

        assertThat(((ArpAnswer.NoInterface) down).message()).isEqualTo("none of spec.arp.interfaces of"
                + " ExternalNetwork lan (eth2) is up with an IPv4 prefix containing 198.18.0.100 (seen: no usable"
                + " interface); fix the list or the interface");
        assertThat(((ArpAnswer.NoInterface) disjoint).message()).isEqualTo("spec.arp.interfaces of ExternalNetwork"
                + " lan (eth1) and the agent's --interface (eth0) have no interface in common on node node-a; list"
                + " one of the node's interfaces in both");
    }
}
