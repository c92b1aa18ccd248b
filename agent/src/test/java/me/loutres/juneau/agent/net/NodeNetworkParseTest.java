package me.loutres.juneau.agent.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import me.loutres.juneau.api.v1alpha1.NodeGateway;
import me.loutres.juneau.api.v1alpha1.NodeInterface;
import me.loutres.juneau.api.v1alpha1.NodeNetworkStatus;
import org.junit.jupiter.api.Test;

/** iproute2's JSON (as iproute2 6.1 prints it) read as a NodeNetwork status (docs/api-reference.md, NodeNetwork). */
class NodeNetworkParseTest {
    static final String ADDR = "[{\"ifindex\":1,\"ifname\":\"lo\",\"flags\":[\"LOOPBACK\",\"UP\"],\"address\":\"00:00:00:00:00:00\","
            + "\"addr_info\":[{\"family\":\"inet\",\"local\":\"127.0.0.1\",\"prefixlen\":8,\"scope\":\"host\"}]},"
            + "{\"ifindex\":3,\"ifname\":\"eth0\",\"flags\":[\"BROADCAST\",\"MULTICAST\",\"UP\",\"LOWER_UP\"],"
            + "\"link_type\":\"ether\",\"address\":\"56:53:3b:19:71:14\",\"addr_info\":["
            + "{\"family\":\"inet\",\"local\":\"198.18.7.5\",\"prefixlen\":24,\"scope\":\"global\"},"
            + "{\"family\":\"inet\",\"local\":\"169.254.3.3\",\"prefixlen\":16,\"scope\":\"global\"},"
            + "{\"family\":\"inet6\",\"local\":\"2001:db8:7::5\",\"prefixlen\":64,\"scope\":\"global\"},"
            + "{\"family\":\"inet6\",\"local\":\"fe80::5453:3bff:fe19:7114\",\"prefixlen\":64,\"scope\":\"link\"}]},"
            + "{\"ifindex\":2,\"ifname\":\"bond0\",\"flags\":[\"BROADCAST\",\"MULTICAST\"],\"address\":\"ee:d9:27:05:15:14\","
            + "\"addr_info\":[]}]";

    @Test
    void interfacesSortedWithoutLoopbackOrLinkLocalAndGatewaysOfBothFamilies() throws Exception {
        NodeNetworkStatus s = NodeNetworkParse.parse(ADDR,
                "[{\"dst\":\"default\",\"gateway\":\"198.18.7.1\",\"dev\":\"eth0\",\"flags\":[]}]",
                "[{\"dst\":\"default\",\"gateway\":\"2001:db8:7::1\",\"dev\":\"eth0\",\"metric\":1024}]");
        assertThat(s.getInterfaces()).containsExactly(
                new NodeInterface("bond0", "ee:d9:27:05:15:14", false, List.of()),
                new NodeInterface("eth0", "56:53:3b:19:71:14", true, List.of("198.18.7.5/24", "2001:db8:7::5/64")));
        assertThat(s.getGateways()).containsExactly(new NodeGateway("198.18.7.1", "eth0"),
                new NodeGateway("2001:db8:7::1", "eth0"));
    }

    @Test
    void multipathDefaultRoutesGiveEveryNextHopAndNoRouteNoGateway() throws Exception {
        NodeNetworkStatus s = NodeNetworkParse.parse("[]",
                "[{\"dst\":\"default\",\"flags\":[],\"nexthops\":[{\"gateway\":\"198.18.1.1\",\"dev\":\"eth0\"},"
                        + "{\"gateway\":\"198.18.2.1\",\"dev\":\"eth1\"}]},{\"dst\":\"default\",\"dev\":\"wg0\"}]",
                "");
        assertThat(s.getInterfaces()).isEmpty();
        assertThat(s.getGateways()).containsExactly(new NodeGateway("198.18.1.1", "eth0"),
                new NodeGateway("198.18.2.1", "eth1"));
        assertThat(NodeNetworkParse.parse("[]", "[]", "[]").getGateways()).isEmpty();
    }
}
