package me.loutres.juneau.agent.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.agent.AgentOptions;
import me.loutres.juneau.agent.BgpOptions;
import me.loutres.juneau.agent.NodeAgent;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.plan.PlanObjects;
import me.loutres.juneau.agent.testing.AgentCluster;
import me.loutres.juneau.agent.testing.FakeWire;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's BGP half against the mock API server (docs/bgp.md): one malformed object of a watched kind is skipped
 * and counted while every other keeps working, and a BGPSession whose peer stops applying to the node is deleted.
 * BIRD is missing on purpose: the plan and the BGPSessions are what is looked at (each session then says
 * "BIRD is not installed").
 */
class BgpSourcesMockTest {
    static final InterfaceInfo ETH0 = new InterfaceInfo("eth0", 2,
            me.loutres.juneau.agent.arp.MacAddress.parse("02:00:00:00:00:0a"),
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false);

    final AgentCluster cluster = new AgentCluster();
    NodeAgent agent;
    /** BIRD's run directory (no BIRD runs here: its path does not exist); JUnit deletes it after each test. */
    @org.junit.jupiter.api.io.TempDir
    Path birdDir;

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
        cluster.close();
    }

    void start() throws Exception {
        AgentOptions options = AgentOptions.defaults("node-a").withMetrics("127.0.0.1", -1)
                .withLease(new LeaseKeeper.Timing(Duration.ofMillis(200), Duration.ofSeconds(3),
                        Duration.ofSeconds(10), Duration.ofSeconds(30)));
        BgpOptions bgp = new BgpOptions(Path.of("/nonexistent/bird"), birdDir,
                "198.18.0.11", List.of());
        agent = NodeAgent.start(cluster.newAgentClient(), options, bgp, Clock.systemUTC(), new FakeWire(),
                () -> List.of(ETH0));
    }

    void node(Map<String, String> labels) {
        cluster.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a")
                .withLabels(labels).endMetadata().build()).createOr(n -> n.update());
    }

    BGPPeer peer(String name, Map<String, String> selector) {
        BGPPeer p = PlanObjects.peer(name, "198.18.0.1", 65000, 65001);
        p.getMetadata().setUid(null);
        if (selector != null) {
            PlanObjects.withSelector(p, selector);
        }
        return cluster.client().resources(BGPPeer.class).resource(p).create();
    }

    /** Stores an object of {@code type} as given: the mock, unlike a real API server, checks no schema. */
    void raw(Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> type, String json) {
        cluster.client().genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type))
                .resource(Serialization.unmarshal(json, GenericKubernetesResource.class)).createOr(r -> r.update());
    }

    static String rawPeer(String name, String spec) {
        return "{\"apiVersion\":\"" + JuneauConstants.API_VERSION + "\",\"kind\":\"BGPPeer\",\"metadata\":{\"name\":\""
                + name + "\"},\"spec\":" + spec + "}";
    }

    List<String> sessions() {
        return cluster.client().resources(BGPSession.class).list().getItems().stream()
                .map(s -> s.getMetadata().getName()).sorted().toList();
    }

    BGPSession session(String name) {
        return cluster.client().resources(BGPSession.class).withName(name).get();
    }

    @Test
    void oneMalformedObjectPerKindIsSkippedAndCountedAndEveryOtherKeepsWorking() throws Exception {
        node(Map.of());
        cluster.client().resources(ExternalNetwork.class).resource(PlanObjects.bgpNetwork("public", null, null))
                .create();
        ServiceLoadBalancer slb = PlanObjects.slb("web", "public", "198.18.100.1", "node-a");
        slb.getMetadata().setUid(null);
        cluster.client().resources(ServiceLoadBalancer.class).inNamespace("default").resource(slb).create();
        peer("tor", null);
        raw(BGPPeer.class, rawPeer("bad", "{\"peerAddress\":\"198.18.0.2\",\"peerASN\":\"sixty-five\",\"myASN\":1}"));
        raw(ServiceLoadBalancer.class, "{\"apiVersion\":\"" + JuneauConstants.API_VERSION + "\",\"kind\":"
                + "\"ServiceLoadBalancer\",\"metadata\":{\"name\":\"broken\",\"namespace\":\"default\"},"
                + "\"spec\":{\"serviceRef\":[\"x\"]}}");
        raw(ExternalNetwork.class, "{\"apiVersion\":\"" + JuneauConstants.API_VERSION + "\",\"kind\":"
                + "\"ExternalNetwork\",\"metadata\":{\"name\":\"broken\"},\"spec\":{\"type\":{\"bgp\":true}}}");
        start();

        eventually(() -> {
            BGPSession tor = session("tor.node-a");
            assertThat(tor).as("the good peer still gets its session").isNotNull();
            assertThat(tor.getStatus()).isNotNull();
            assertThat(tor.getStatus().getLastError()).contains("BIRD is not installed");
        });
        eventually(() -> {
            assertThat(agent.metrics().malformed("BGPPeer")).isEqualTo(1);
            assertThat(agent.metrics().malformed("ServiceLoadBalancer")).isEqualTo(1);
            assertThat(agent.metrics().malformed("ExternalNetwork")).isEqualTo(1);
            assertThat(agent.metrics().malformed("BFDProfile")).isZero();
        });
        assertThat(agent.metrics().scrape())
                .contains("juneau_agent_malformed_objects{kind=\"BGPPeer\"} 1.0")
                .contains("juneau_agent_malformed_objects{kind=\"BFDProfile\"} 0.0");
        assertThat(sessions()).as("nothing can be read of 'bad': no session").containsExactly("tor.node-a");
        assertThat(agent.healthProblem()).isNull();

        // the good peer damaged in place (around admission): its last readable version stays in use
        raw(BGPPeer.class, rawPeer("tor", "{\"peerAddress\":\"198.18.0.1\",\"peerASN\":65000,\"myASN\":[1]}"));
        eventually(() -> assertThat(agent.metrics().malformed("BGPPeer")).isEqualTo(2));
        peer("late", null);
        eventually(() -> assertThat(sessions()).as("a peer added after the damage gets its session; tor keeps its")
                .containsExactly("late.node-a", "tor.node-a"));

        // repaired: counted no more
        cluster.client().resources(BGPPeer.class).withName("bad").delete();
        raw(BGPPeer.class, rawPeer("tor", "{\"peerAddress\":\"198.18.0.1\",\"peerASN\":65000,\"myASN\":65001}"));
        eventually(() -> assertThat(agent.metrics().malformed("BGPPeer")).isZero());
        assertThat(sessions()).containsExactly("late.node-a", "tor.node-a");
    }

    @Test
    void aSessionWhosePeerStopsApplyingIsDeleted() throws Exception {
        node(Map.of("rack", "r1"));
        peer("tor", null);
        peer("rack1", Map.of("rack", "r1"));
        peer("gone", null);
        start();
        eventually(() -> assertThat(sessions()).containsExactly("gone.node-a", "rack1.node-a", "tor.node-a"));
        eventually(() -> assertThat(session("tor.node-a").getStatus()).isNotNull());

        // the BGPPeer deleted (the mock runs no garbage collector: the agent deletes its session)
        cluster.client().resources(BGPPeer.class).withName("gone").delete();
        eventually(() -> assertThat(sessions()).containsExactly("rack1.node-a", "tor.node-a"));

        // the peer's nodeSelectors no longer select the node
        node(Map.of("rack", "r2"));
        eventually(() -> assertThat(sessions()).containsExactly("tor.node-a"));

        // the node no longer a BGP speaker
        node(Map.of("rack", "r2", JuneauConstants.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS, ""));
        eventually(() -> assertThat(sessions()).isEmpty());

        // and back: the sessions are made again
        node(Map.of("rack", "r1"));
        eventually(() -> assertThat(sessions()).containsExactly("rack1.node-a", "tor.node-a"));
        eventually(() -> assertThat(session("rack1.node-a").getStatus()).isNotNull());
    }
}
