package me.loutres.juneau.agent.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.own.Ownership;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;

/**
 * Where a node answers NDP for each IPv6 VIP it owns (docs/ndp.md): spec.arp.interfaces, else the interface with a
 * global or unique-local IPv6 prefix holding the VIP. eth0 has 198.18.0.11/24 and 2001:db8::11/64, eth1 has
 * 198.19.0.11/24 and fd00:1::11/64; the IPv4 VIP of the same Service keeps being answered by ARP.
 */
class NdpPlanTest {
    static final String NODE = "node-a";
    static final InterfaceInfo ETH0 = new InterfaceInfo("eth0", 2, MacAddress.parse("02:00:00:00:00:02"),
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false,
            List.of(new InterfaceInfo.Ipv6Prefix(IpAddress.parse("2001:db8::11"), 64)));
    static final InterfaceInfo ETH1 = new InterfaceInfo("eth1", 3, MacAddress.parse("02:00:00:00:00:03"),
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.19.0.11"), 24)), true, false,
            List.of(new InterfaceInfo.Ipv6Prefix(IpAddress.parse("fd00:1::11"), 64)));
    static final List<InterfaceInfo> HOST = List.of(ETH0, ETH1);

    static ARPAdvertisement advertisement(String name, String address, String node) {
        ARPAdvertisement a = new ARPAdvertisement();
        a.setMetadata(new ObjectMetaBuilder().withName(name).withGeneration(1L).build());
        a.setSpec(new ARPAdvertisementSpec("lan", address, node));
        return a;
    }

    static final List<ARPAdvertisement> DUAL = List.of(advertisement("slb-default-web", "198.18.0.100", NODE),
            advertisement("slb-default-web-ipv6", "2001:db8::100", NODE),
            advertisement("slb-default-ula-ipv6", "fd00:1::100", NODE),
            advertisement("slb-default-far-ipv6", "2001:db8:ffff::1", NODE),
            advertisement("slb-default-theirs-ipv6", "2001:db8::200", "node-b"));

    static SortedMap<IpAddress, NdpAnswer> plan(List<ExternalNetwork> networks, List<String> agentInterfaces) {
        NodeView v = new NodeView(NODE, Map.of(), null, null, DUAL, List.of(), networks, List.of(), List.of(),
                Map.of());
        return ArpPlanner.planIpv6(Ownership.ipv6(NODE, DUAL), v, HOST, agentInterfaces);
    }

    @Test
    void eachIpv6VipIsAnsweredOnTheInterfaceWhosePrefixHoldsIt() {
        SortedMap<IpAddress, NdpAnswer> plan = plan(List.of(ArpPlannerTest.network("lan", null)), List.of());

        assertThat(plan).containsOnlyKeys(IpAddress.parse("2001:db8::100"), IpAddress.parse("fd00:1::100"),
                IpAddress.parse("2001:db8:ffff::1"));
        assertThat(((NdpAnswer.Answer) plan.get(IpAddress.parse("2001:db8::100"))).iface().name()).isEqualTo("eth0");
        assertThat(((NdpAnswer.Answer) plan.get(IpAddress.parse("fd00:1::100"))).iface().name()).isEqualTo("eth1");
        assertThat(plan.get(IpAddress.parse("2001:db8:ffff::1"))).isEqualTo(new NdpAnswer.NoInterface(
                plan.get(IpAddress.parse("2001:db8:ffff::1")).claim(), "no up interface has an IPv6 prefix"
                + " containing 2001:db8:ffff::1 (seen: eth0 2001:db8::11/64; eth1 fd00:1::11/64); add an address of"
                + " that network to the node's interface or name it with --interface"));
    }

    @Test
    void theNetworksInterfaceListDecidesForIpv6Too() {
        SortedMap<IpAddress, NdpAnswer> plan = plan(List.of(ArpPlannerTest.network("lan", List.of("eth1"))),
                List.of());

        assertThat(plan.values()).allSatisfy(a -> assertThat(((NdpAnswer.Answer) a).iface().name())
                .isEqualTo("eth1"));
    }

    @Test
    void ipv6AddressesAreNeitherArpClaimsNorInvalid() {
        assertThat(Ownership.of(NODE, DUAL)).containsOnlyKeys(Ipv4.parse("198.18.0.100"));
        assertThat(Ownership.invalid(NODE, DUAL)).isEmpty();
        assertThat(Ownership.ipv6(NODE, DUAL).get(IpAddress.parse("2001:db8::100")).advertisement())
                .isEqualTo("slb-default-web-ipv6");
    }

    @Test
    void aZoneIdOrAGarbledIpv6AddressIsStillInvalid() {
        List<ARPAdvertisement> bad = List.of(advertisement("zone-ipv6", "fe80::1%eth0", NODE),
                advertisement("garbled-ipv6", "2001:db8::zz", NODE));
        assertThat(Ownership.ipv6(NODE, bad)).isEmpty();
        assertThat(Ownership.invalid(NODE, bad)).containsOnlyKeys("zone-ipv6", "garbled-ipv6");
        assertThat(Ownership.invalid(NODE, bad).get("zone-ipv6")).isEqualTo("spec.address: \"fe80::1%eth0\" is not"
                + " an IPv4 address nor an IPv6 address without a zone");
    }
}
