package me.loutres.juneau.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.NodeInterface;
import me.loutres.juneau.api.v1alpha1.NodeNetwork;
import me.loutres.juneau.api.v1alpha1.NodeNetworkSpec;
import me.loutres.juneau.api.v1alpha1.NodeNetworkStatus;
import me.loutres.juneau.selection.NodeEligibility;
import org.junit.jupiter.api.Test;

/** Condition OnLink of arp pools (docs/troubleshooting.md, "My pool is not on any node's subnet"). */
class PoolOnLinkTest {
    static AddressPool pool(String mode, String... entries) {
        AddressPool p = new AddressPool();
        p.setMetadata(new ObjectMetaBuilder().withName("lan").build());
        AddressPoolSpec spec = new AddressPoolSpec();
        spec.setAdvertiseMode(mode);
        spec.setAddresses(List.of(entries));
        p.setSpec(spec);
        return p;
    }

    static NodeNetwork nn(String node, String... addresses) {
        NodeNetwork n = new NodeNetwork();
        n.setMetadata(new ObjectMetaBuilder().withName(node).build());
        n.setSpec(NodeNetworkSpec.of(node));
        n.setStatus(new NodeNetworkStatus(List.of(new NodeInterface("eth0", "52:54:00:00:00:01", true,
                List.of(addresses))), List.of()));
        return n;
    }

    @Test
    void trueWhenEveryRangeLiesInOneNodesPrefix() {
        Condition c = PoolOnLink.of(pool("arp", "198.18.0.100-198.18.0.120", "2001:db8:5::100-2001:db8:5::120"),
                NodeEligibility.everyNode(), List.of(nn("node-a", "198.18.0.5/24"), nn("node-b", "2001:db8:5::5/64")));
        assertThat(List.of(c.getType(), c.getStatus(), c.getReason()))
                .containsExactly("OnLink", "True", "OnNodeSubnet");
    }

    @Test
    void falseNamesTheEntriesNoNodeReachesAndTheNodesPrefixes() {
        Condition c = PoolOnLink.of(pool("arp", "198.18.0.100-198.18.0.120", "203.0.113.10-203.0.113.20",
                        "198.18.0.250-198.18.1.5"),
                NodeEligibility.everyNode(), List.of(nn("node-b", "198.18.0.6/24"), nn("node-a", "198.18.0.5/24",
                        "2001:db8:5::5/64")));
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo("NotOnNodeSubnet");
        assertThat(c.getMessage()).isEqualTo("spec.addresses[1] \"203.0.113.10-203.0.113.20\", spec.addresses[2]"
                + " \"198.18.0.250-198.18.1.5\" lie in no prefix of the nodes that may announce this pool (node-a:"
                + " eth0 198.18.0.0/24, eth0 2001:db8:5::/64; node-b: eth0 198.18.0.0/24); no ARP or NDP request for"
                + " these addresses would ever reach a node, so a VIP there gets no traffic");
    }

    @Test
    void onlyCandidateNodesCountAndNoReportNoCondition() {
        NodeEligibility zoneA = NodeEligibility.of("edge", new LabelSelectorBuilder().addToMatchLabels("zone", "a")
                .build(), Map.of("node-a", Map.of("zone", "a"), "node-b", Map.of("zone", "b")));
        List<NodeNetwork> nets = List.of(nn("node-a", "198.18.0.5/24"), nn("node-b", "198.19.0.5/24"));
        assertThat(PoolOnLink.of(pool("arp", "198.19.0.10-198.19.0.20"), zoneA, nets).getMessage())
                .startsWith("spec.addresses[0] \"198.19.0.10-198.19.0.20\" lies in no prefix of the nodes that may"
                        + " announce this pool (node-a: eth0 198.18.0.0/24)");
        assertThat(PoolOnLink.of(pool("arp", "198.18.0.10-198.18.0.20"), zoneA, nets).getStatus()).isEqualTo("True");
        assertThat(PoolOnLink.of(pool("arp", "198.19.0.10-198.19.0.20"), zoneA, List.of(nets.get(1)))).isNull();
        assertThat(PoolOnLink.of(pool("bgp", "203.0.113.0/24"), NodeEligibility.everyNode(), nets)).isNull();
    }

    @Test
    void theTransitionTimeStaysWhileTheStatusDoes() {
        Condition first = PoolOnLink.of(pool("arp", "203.0.113.10-203.0.113.20"), NodeEligibility.everyNode(),
                List.of(nn("node-a", "198.18.0.5/24")));
        List<Condition> before = PoolOnLink.with(List.of(), first, "2026-12-08T01:00:00Z");
        Condition again = PoolOnLink.of(pool("arp", "203.0.113.10-203.0.113.20"), NodeEligibility.everyNode(),
                List.of(nn("node-a", "198.18.0.7/24")));
        assertThat(PoolOnLink.with(before, again, "2026-12-08T02:00:00Z")).singleElement()
                .satisfies(c -> assertThat(c.getLastTransitionTime()).isEqualTo("2026-12-08T01:00:00Z"));
        assertThat(PoolOnLink.with(before, null, "2026-12-08T02:00:00Z")).isEmpty();
    }
}
