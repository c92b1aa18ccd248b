package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.api.v1alpha1.NodeInterface;
import me.loutres.juneau.api.v1alpha1.NodeNetwork;
import me.loutres.juneau.api.v1alpha1.NodeNetworkSpec;
import me.loutres.juneau.api.v1alpha1.NodeNetworkStatus;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.status.PoolOnLink;
import org.junit.jupiter.api.Test;

/**
 * Condition OnLink of an arp pool (docs/troubleshooting.md, "My pool is not on any node's subnet"), through the
 * local API server, each node's NodeNetwork written by that node's agent identity: False NotOnNodeSubnet with a
 * Warning event while no node has a prefix holding the pool, True when a node on that subnet joins, False again
 * when it leaves, True when the other node renumbers onto the subnet.
 */
class OnLinkMockTest extends ScenarioBase {

    @Test
    void followsNodesJoiningLeavingAndRenumbering() {
        cluster.pool("onlink", "arp", "10.218.0.10-10.218.0.20");
        cluster.network("onlink-net", "arp", "onlink");
        try (KubernetesClient a = cluster.newAgentClient("node-a");
                KubernetesClient b = cluster.newAgentClient("node-b")) {
            report(a, "node-a", "10.217.0.5/24");
            eventually(() -> {
                Condition c = onLink("onlink");
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getReason()).isEqualTo(PoolOnLink.REASON_NOT_ON_NODE_SUBNET);
                assertThat(c.getMessage()).isEqualTo("spec.addresses[0] \"10.218.0.10-10.218.0.20\" lies in no prefix"
                        + " of the nodes that may announce this pool (node-a: eth0 10.217.0.0/24); no ARP or NDP"
                        + " request for these addresses would ever reach a node, so a VIP there gets no traffic");
            });
            eventually(() -> assertThat(cluster.events("default", "onlink", PoolOnLink.REASON_NOT_ON_NODE_SUBNET))
                    .anySatisfy(e -> {
                        assertThat(e.getType()).isEqualTo("Warning");
                        assertThat(e.getMessage()).startsWith("AddressPool onlink: spec.addresses[0]");
                    }));

            // a node on the pool's subnet joins
            report(b, "node-b", "10.218.0.5/24");
            eventually(() -> {
                assertThat(onLink("onlink").getStatus()).isEqualTo("True");
                assertThat(onLink("onlink").getReason()).isEqualTo(PoolOnLink.REASON_ON_NODE_SUBNET);
            });

            // it leaves
            cluster.beforeTheWebhook(() -> cluster.client().resources(NodeNetwork.class).withName("node-b").delete());
            eventually(() -> assertThat(onLink("onlink").getStatus()).isEqualTo("False"));

            // the other node renumbers onto the subnet
            report(a, "node-a", "10.218.0.6/24");
            eventually(() -> assertThat(onLink("onlink").getStatus()).isEqualTo("True"));
        }
    }

    /** As the node's agent writes it: created, then its status. */
    private static void report(KubernetesClient agent, String node, String address) {
        NodeNetwork nn = agent.resources(NodeNetwork.class).withName(node).get();
        if (nn == null) {
            NodeNetwork created = new NodeNetwork();
            created.setMetadata(new ObjectMetaBuilder().withName(node).build());
            created.setSpec(NodeNetworkSpec.of(node));
            nn = agent.resource(created).create();
        }
        nn.setStatus(new NodeNetworkStatus(List.of(new NodeInterface("eth0", "52:54:00:00:00:0a", true,
                List.of(address))), List.of()));
        agent.resource(nn).updateStatus();
    }

    private Condition onLink(String pool) {
        AddressPoolStatus s = cluster.getPool(pool).getStatus();
        assertThat(s).as("status of %s", pool).isNotNull();
        assertThat(s.getConditions()).as("conditions of %s", pool).isNotNull();
        return s.getConditions().stream().filter(c -> PoolOnLink.CONDITION_ON_LINK.equals(c.getType()))
                .findFirst().orElseThrow(() -> new AssertionError("no OnLink condition on " + pool));
    }
}
