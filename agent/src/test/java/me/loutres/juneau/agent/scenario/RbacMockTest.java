package me.loutres.juneau.agent.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import me.loutres.juneau.agent.AgentOptions;
import me.loutres.juneau.agent.NodeAgent;
import me.loutres.juneau.agent.arp.ArpFrame;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.testing.AgentCluster;
import me.loutres.juneau.agent.testing.FakeWire;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.testing.RbacCheck;
import org.junit.jupiter.api.Test;

/**
 * Least privilege, both ways ({@link RbacCheck}): every API call the agent makes on all its paths (recorded by the
 * mock API server) is granted by {@code manifests/base/agent/rbac.yaml}, and the file grants nothing those calls do
 * not use.
 */
class RbacMockTest {
    static final Path RBAC = Path.of("..", "manifests", "base", "agent", "rbac.yaml");

    @Test
    void everyCallIsGrantedAndEveryGrantIsUsed() throws Exception {
        try (AgentCluster c = new AgentCluster()) {
            exerciseEveryPath(c);
            RbacCheck.assertCallsMatchGrants("agent", RBAC, c.agentRequests().stream()
                    .map(r -> new String[] {r.method(), r.path()}).toList(), c.client());
        }
    }

    /** Gain (status, Event, Lease create and renew), a conflict, a move away, a pause and its fresh list, release. */
    private static void exerciseEveryPath(AgentCluster c) throws Exception {
        MacAddress mac = MacAddress.parse("02:00:00:00:00:0a");
        InterfaceInfo eth0 = new InterfaceInfo("eth0", 2, mac,
                List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false);
        FakeWire wire = new FakeWire();
        // a Lease shorter than the renew interval makes the keeper see a "pause" and take the fresh-list path
        AgentOptions options = AgentOptions.defaults("node-a").withMetrics("127.0.0.1", -1)
                .withLease(new LeaseKeeper.Timing(Duration.ofMillis(1200), Duration.ofSeconds(1),
                        Duration.ofMillis(1200), Duration.ofSeconds(1)));
        c.advertise("web", "198.18.0.100", "node-a");
        NodeAgent agent = NodeAgent.start(c.newAgentClient(), options, wire, () -> List.of(eth0));
        try {
            eventually(() -> assertThat(c.get("web").getStatus()).isNotNull());
            wire.inject("eth0", ArpFrame.gratuitousRequest(MacAddress.parse("02:00:00:00:00:0b"),
                    Ipv4.parse("198.18.0.100")));
            eventually(() -> assertThat(agent.metrics().conflictCount()).isEqualTo(1.0));
            eventually(() -> assertThat(c.agentRequests()).anyMatch(r -> r.method().equals("PUT")
                    && r.path().contains("/leases/")));
            eventually(() -> assertThat(c.agentRequests()).anyMatch(r -> r.method().equals("GET")
                    && r.path().contains("arpadvertisements?") && !r.path().contains("watch=true")
                    && c.agentRequests().indexOf(r) > 2));
            c.move("web", "node-b");
            eventually(() -> assertThat(agent.answering()).isEmpty());
        } finally {
            agent.close();
        }
    }
}
