package me.loutres.juneau.agent.bgp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;

/**
 * A BGPSession's lastError (docs/bgp.md): the most telling error of the time down, and when BIRD says nothing, what
 * to check from the node's facts (issue 41, item 4).
 */
class LastErrorsTest {
    static final Duration LONG = Duration.ofMinutes(10);
    static final InterfaceInfo ETH0 = new InterfaceInfo("eth0", 2, MacAddress.of(new byte[] {2, 0, 0, 0, 0, 1}),
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false);

    static Neighbor neighbor(String address, boolean multihop) {
        return new Neighbor("tor", address, 65000, 65001, 179, 9, null, multihop, null, null, null, List.of("lab"));
    }

    static BirdStatus.Session bird(String state, String error) {
        return new BirdStatus.Session(state, "198.18.0.2", error, 0);
    }

    static NodeReach reach(List<NodeReach.Route> routes) {
        return new NodeReach(List.of(ETH0), routes);
    }

    @Test
    void aGenericErrorAfterATellingOneKeepsTheTellingOne() {
        LastErrors errors = new LastErrors();
        Neighbor n = neighbor("198.18.0.2", false);
        assertThat(errors.of("tor", bird("Idle", "Received: Bad peer AS"), n, LONG, NodeReach::unknown))
                .isEqualTo("Received: Bad peer AS");
        assertThat(errors.of("tor", bird("Active", "Socket: Connection reset by peer"), n, LONG, NodeReach::unknown))
                .isEqualTo("Received: Bad peer AS (since then: Socket: Connection reset by peer)");
        // another telling error replaces it
        assertThat(errors.of("tor", bird("Active", "Socket: Connection refused"), n, LONG, NodeReach::unknown))
                .isEqualTo("Socket: Connection refused");
    }

    @Test
    void anEstablishedSessionForgetsTheErrorOfItsLastTimeDown() {
        LastErrors errors = new LastErrors();
        Neighbor n = neighbor("198.18.0.2", false);
        errors.of("tor", bird("Idle", "Received: Bad peer AS"), n, LONG, NodeReach::unknown);
        errors.of("tor", bird("Established", null), n, Duration.ZERO, NodeReach::unknown);
        assertThat(errors.of("tor", bird("Active", "Socket: Connection reset by peer"), n, LONG, NodeReach::unknown))
                .isEqualTo("Socket: Connection reset by peer");
    }

    @Test
    void aPeerNoLongerConfiguredIsForgotten() {
        LastErrors errors = new LastErrors();
        Neighbor n = neighbor("198.18.0.2", false);
        errors.of("tor", bird("Idle", "Received: Bad peer AS"), n, LONG, NodeReach::unknown);
        errors.retain(Set.of("edge"));
        assertThat(errors.of("tor", bird("Active", "Socket: Connection reset by peer"), n, LONG, NodeReach::unknown))
                .isEqualTo("Socket: Connection reset by peer");
    }

    @Test
    void aSilentDirectPeerOnNoNetworkOfTheNodeSaysToSetMultihopOrFixTheAddress() {
        String e = new LastErrors().of("tor-1", bird("Idle", null), neighbor("203.0.113.1", false), LONG,
                () -> reach(null));
        assertThat(e).isEqualTo("peer 203.0.113.1 is on no network of this node (its networks: eth0 198.18.0.11/24)"
                + " and the BGPPeer's spec.ebgpMultiHop is false, so BIRD waits for it on a connected network and says"
                + " nothing; set spec.ebgpMultiHop: true if the router is further away, or correct spec.peerAddress");
    }

    @Test
    void aSilentMultihopPeerWithoutARouteSaysSo() {
        String e = new LastErrors().of("tor-1", bird("Active", null), neighbor("203.0.113.1", true), LONG,
                () -> reach(List.of(new NodeReach.Route(Ipv4.parse("198.18.0.0"), 24))));
        assertThat(e).startsWith("no route to peer 203.0.113.1 on this node");
        // a default route reaches it: nothing to say from the facts, the silence's meaning instead
        String withDefault = new LastErrors().of("tor-1", bird("Active", null), neighbor("203.0.113.1", true), LONG,
                () -> reach(List.of(new NodeReach.Route(0, 0))));
        assertThat(withDefault).startsWith("no reply from 203.0.113.1:179 (BGP state Active)");
    }

    @Test
    void noHintBeforeTheConnectRetryTimeNorFromFactsNotKnown() {
        assertThat(new LastErrors().of("tor-1", bird("Idle", null), neighbor("203.0.113.1", false),
                Duration.ofSeconds(2), () -> reach(null))).isNull();
        assertThat(new LastErrors().of("tor-1", bird("Idle", null), neighbor("203.0.113.1", false), LONG,
                NodeReach::unknown)).isNull();
        assertThat(new LastErrors().of("tor", bird("Idle", null), neighbor("198.18.0.2", false), LONG,
                () -> reach(null))).as("on the node's network").isNull();
    }

    @Test
    void kernelRoutesAreReadFromProcNetRoute() {
        String proc = """
                Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
                eth0\t00000000\t010012C6\t0003\t0\t0\t0\t00000000\t0\t0\t0
                eth0\t000012C6\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
                """;
        assertThat(NodeReach.parseRoutes(proc)).containsExactly(new NodeReach.Route(0, 0),
                new NodeReach.Route(Ipv4.parse("198.18.0.0"), 24));
    }
}
