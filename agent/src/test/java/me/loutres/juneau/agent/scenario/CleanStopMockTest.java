package me.loutres.juneau.agent.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import me.loutres.juneau.agent.AgentOptions;
import me.loutres.juneau.agent.BgpOptions;
import me.loutres.juneau.agent.NodeAgent;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.agent.kube.SessionWriter;
import me.loutres.juneau.agent.plan.PlanObjects;
import me.loutres.juneau.agent.testing.AgentCluster;
import me.loutres.juneau.agent.testing.FakeWire;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent stopping cleanly (SIGTERM) marks its BGPSessions stopped before it releases its Lease (issue 41, item 2):
 * a session must not say what it said while the agent ran once the agent is gone. BIRD is missing on purpose (each
 * session says "BIRD is not installed" while the agent runs): the writes are what is looked at.
 */
class CleanStopMockTest {
    final AgentCluster cluster = new AgentCluster();
    NodeAgent agent;
    @TempDir
    Path birdDir;

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
        cluster.close();
    }

    @Test
    void aCleanStopMarksTheSessionsStoppedBeforeTheLeaseIsReleased() throws Exception {
        cluster.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata()
                .build()).create();
        BGPPeer p = PlanObjects.peer("tor", "198.18.0.1", 65000, 65001);
        p.getMetadata().setUid(null);
        cluster.client().resources(BGPPeer.class).resource(p).create();
        AgentOptions options = AgentOptions.defaults("node-a").withMetrics("127.0.0.1", -1)
                .withLease(new LeaseKeeper.Timing(Duration.ofMillis(200), Duration.ofSeconds(3),
                        Duration.ofSeconds(10), Duration.ofSeconds(30)));
        agent = NodeAgent.start(cluster.newAgentClient(), options,
                new BgpOptions(Path.of("/nonexistent/bird"), birdDir, "198.18.0.11", List.of()), Clock.systemUTC(),
                new FakeWire(), List::of);
        eventually(() -> assertThat(session().getStatus()).isNotNull()
                .satisfies(s -> assertThat(s.getLastError()).contains("BIRD is not installed")));

        agent.close();
        agent = null;

        assertThat(session().getStatus().getState()).isEqualTo("Idle");
        assertThat(session().getStatus().getLastError()).startsWith(SessionWriter.STOPPED + "node-a");
        assertThat(session().getStatus().getConditions()).singleElement()
                .satisfies(c -> assertThat(c.getStatus()).isEqualTo("False"));
        List<AgentCluster.Request> requests = cluster.agentRequests();
        int marked = lastIndex(requests, "PUT", "/bgpsessions/tor.node-a/status");
        int released = lastIndex(requests, "PUT", "/leases/juneau-agent-node-a");
        assertThat(marked).as("the session marked stopped").isNotNegative();
        assertThat(released).as("the Lease released").isGreaterThan(marked);
        assertThat(cluster.client().leases().inNamespace(options.namespace()).withName("juneau-agent-node-a").get()
                .getSpec().getHolderIdentity()).isEmpty();
    }

    /**
     * Issue 41, item 3: BGPSession writes the API server refuses are counted, and the agent's Lease says so for the
     * controller.
     */
    @Test
    void refusedSessionWritesAreCountedAndCarriedOnTheLease() throws Exception {
        cluster.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata()
                .build()).create();
        BGPPeer p = PlanObjects.peer("tor", "198.18.0.1", 65000, 65001);
        p.getMetadata().setUid(null);
        cluster.client().resources(BGPPeer.class).resource(p).create();
        cluster.refuseAgentWrites("/bgpsessions");
        AgentOptions options = AgentOptions.defaults("node-a").withMetrics("127.0.0.1", -1)
                .withLease(new LeaseKeeper.Timing(Duration.ofMillis(200), Duration.ofSeconds(3),
                        Duration.ofMillis(200), Duration.ofSeconds(30)));
        agent = NodeAgent.start(cluster.newAgentClient(), options,
                new BgpOptions(Path.of("/nonexistent/bird"), birdDir, "198.18.0.11", List.of()), Clock.systemUTC(),
                new FakeWire(), List::of);

        eventually(() -> assertThat(agent.metrics().writesRefused("BGPSession", "Forbidden")).isPositive());
        eventually(() -> assertThat(cluster.client().leases().inNamespace(options.namespace())
                .withName("juneau-agent-node-a").get().getMetadata().getAnnotations())
                .containsEntry(me.loutres.juneau.plan.RefusedWrites.ANNOTATION,
                        "BGPSession: Forbidden: refused by the test for /apis/juneau.loutres.me/v1alpha1/bgpsessions"));
        assertThat(session()).isNull();
    }

    BGPSession session() {
        return cluster.client().resources(BGPSession.class).withName("tor.node-a").get();
    }

    static int lastIndex(List<AgentCluster.Request> requests, String method, String pathEnd) {
        for (int i = requests.size() - 1; i >= 0; i--) {
            AgentCluster.Request r = requests.get(i);
            if (r.method().equals(method) && r.path().split("\\?")[0].endsWith(pathEnd)) {
                return i;
            }
        }
        return -1;
    }
}
