package me.loutres.juneau.agent.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
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
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The agent against a mock API server and a fake wire: what it answers, reports and renews (README.md, "How a VIP answers"). */
class NodeAgentMockTest {
    static final MacAddress MAC = MacAddress.parse("02:00:00:00:00:0a");
    static final MacAddress CLIENT_MAC = MacAddress.parse("02:00:00:00:00:01");
    static final long CLIENT = Ipv4.parse("198.18.0.1");
    static final String VIP = "198.18.0.100";
    static final InterfaceInfo ETH0 = new InterfaceInfo("eth0", 2, MAC,
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false);
    static final InterfaceInfo LO = new InterfaceInfo("lo", 1, null,
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("127.0.0.1"), 8)), true, true);

    final AgentCluster cluster = new AgentCluster();
    final FakeWire wire = new FakeWire();
    NodeAgent agent;

    NodeAgent start() throws Exception {
        AgentOptions options = AgentOptions.defaults("node-a").withMetrics("127.0.0.1", -1)
                .withLease(new LeaseKeeper.Timing(Duration.ofMillis(200), Duration.ofSeconds(3),
                        Duration.ofSeconds(10), Duration.ofSeconds(30)));
        agent = NodeAgent.start(cluster.newAgentClient(), options, wire, () -> List.of(LO, ETH0));
        return agent;
    }

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
        cluster.close();
    }

    static Condition announced(ARPAdvertisement a) {
        if (a.getStatus() == null) {
            return null;
        }
        return a.getStatus().getConditions().stream()
                .filter(c -> JuneauConstants.CONDITION_ANNOUNCED.equals(c.getType())).findFirst().orElse(null);
    }

    /** Whether the agent replies to an ARP request for {@code ip} now ("no" after 2 s of silence). */
    boolean answers(String ip) throws InterruptedException {
        return wire.answers("eth0", CLIENT_MAC, CLIENT, Ipv4.parse(ip));
    }

    @Test
    void announcesItsVipReportsStatusAndEventAndRenewsTheShortLease() throws Exception {
        cluster.advertise("web", VIP, "node-a");
        start();

        List<ArpFrame> garp = wire.awaitSent("eth0", 2);
        assertThat(garp.subList(0, 2)).containsExactly(ArpFrame.gratuitousRequest(MAC, Ipv4.parse(VIP)),
                ArpFrame.gratuitousReply(MAC, Ipv4.parse(VIP)));
        assertThat(answers(VIP)).isTrue();
        eventually(() -> {
            ARPAdvertisement a = cluster.get("web");
            assertThat(a.getStatus()).isNotNull();
            assertThat(a.getStatus().getNode()).isEqualTo("node-a");
            assertThat(a.getStatus().getInterfaceName()).isEqualTo("eth0");
            assertThat(a.getStatus().getMacAddress()).isEqualTo("02:00:00:00:00:0a");
            assertThat(a.getStatus().getAnnouncedAt()).isNotBlank();
            assertThat(a.getStatus().getObservedGeneration()).isEqualTo(a.getMetadata().getGeneration());
            assertThat(announced(a).getStatus()).isEqualTo("True");
            assertThat(announced(a).getReason()).isEqualTo("Announced");
        });
        eventually(() -> assertThat(cluster.client().v1().events().inNamespace("default").list().getItems())
                .filteredOn(e -> "Announcing 198.18.0.100 from node-a via eth0".equals(e.getMessage()))
                .as("on the Service by uid, so kubectl describe service lists it")
                .extracting(e -> e.getInvolvedObject().getKind(), e -> e.getInvolvedObject().getName(),
                        e -> e.getInvolvedObject().getUid())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Service", "web",
                        me.loutres.juneau.agent.testing.AgentCluster.serviceUid("web"))));
        eventually(() -> {
            Lease lease = cluster.client().leases().inNamespace("juneau-system").withName("juneau-agent-node-a").get();
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("node-a");
            assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(3);
        });
        assertThat(agent.readinessProblem()).isNull();
        assertThat(agent.metrics().owned()).isEqualTo(1);
    }

    @Test
    void neverAnswersForAnotherNodesVipAndHandsItsVipOverWhenItMoves() throws Exception {
        cluster.advertise("web", VIP, "node-a");
        cluster.advertise("other", "198.18.0.101", "node-b");
        start();
        wire.awaitSent("eth0", 2);

        assertThat(answers("198.18.0.101")).isFalse();
        assertThat(answers(VIP)).isTrue();

        cluster.move("web", "node-b");
        eventually(() -> assertThat(agent.answering()).isEmpty());
        // make before break: answered until node-b's agent claims it (docs/operations.md, "Draining a node")
        assertThat(answers(VIP)).as("handed over, not dropped").isTrue();
        wire.inject("eth0", me.loutres.juneau.agent.arp.ArpFrame.gratuitousRequest(
                me.loutres.juneau.agent.arp.MacAddress.parse("02:00:00:00:00:0b"), Ipv4.parse(VIP)));
        // one receive thread reads the wire in order: the request below comes after the gratuitous ARP
        assertThat(answers(VIP)).as("never again once node-b spoke").isFalse();
        int before = wire.sent("eth0").size();
        assertThat(answers(VIP)).isFalse();
        assertThat(wire.sent("eth0")).hasSize(before);
        eventually(() -> assertThat(cluster.client().leases().inNamespace("juneau-system")
                .withName("juneau-agent-node-a").get().getSpec().getLeaseDurationSeconds()).isEqualTo(30));
    }

    @Test
    void aVipOutsideEveryPrefixIsReportedAsInterfaceNotFound() throws Exception {
        cluster.advertise("web", "203.0.113.7", "node-a");
        start();

        eventually(() -> {
            Condition c = announced(cluster.get("web"));
            assertThat(c).isNotNull();
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("InterfaceNotFound");
            assertThat(c.getMessage()).contains("203.0.113.7").contains("eth0 198.18.0.11/24");
        });
        assertThat(wire.opened()).isEmpty();
    }

    @Test
    void aSocketThatCannotOpenIsReportedAsSocketErrorAndTheAgentIsNotReady() throws Exception {
        wire.refuse("eth0");
        cluster.advertise("web", VIP, "node-a");
        start();

        eventually(() -> {
            Condition c = announced(cluster.get("web"));
            assertThat(c).isNotNull();
            assertThat(c.getReason()).isEqualTo("SocketError");
            assertThat(c.getMessage()).contains("NET_RAW");
        });
        assertThat(agent.readinessProblem()).contains("packet socket");
    }

    @Test
    void onShutdownItStopsAnsweringThenReleasesTheLease() throws Exception {
        cluster.advertise("web", VIP, "node-a");
        start();
        wire.awaitSent("eth0", 2);
        eventually(() -> assertThat(cluster.client().leases().inNamespace("juneau-system")
                .withName("juneau-agent-node-a").get()).isNotNull());

        agent.close();
        agent = null;

        assertThat(wire.isOpen("eth0")).isFalse();
        Lease lease = cluster.client().leases().inNamespace("juneau-system").withName("juneau-agent-node-a").get();
        assertThat(lease.getSpec().getHolderIdentity()).isEmpty();
    }

    @Test
    void onStartItAnnouncesEverythingItAlreadyOwns() throws Exception {
        cluster.advertise("a", "198.18.0.100", "node-a");
        cluster.advertise("b", "198.18.0.101", "node-a");
        start();

        List<ArpFrame> sent = wire.awaitSent("eth0", 4);
        assertThat(sent.stream().filter(f -> f.senderIp() == f.targetIp()).map(ArpFrame::senderIp).distinct())
                .containsExactlyInAnyOrder(Ipv4.parse("198.18.0.100"), Ipv4.parse("198.18.0.101"));
    }

    /** Issue 12: one damaged advertisement never stops the node answering the good ones, and it is said. */
    @Test
    void aMalformedAdvertisementIsSkippedWithAReasonAndTheRestIsAnswered() throws Exception {
        cluster.advertise("web", VIP, "node-a");
        cluster.advertiseRaw("wrong-type", "node-a",
                "\"spec\":{\"externalNetwork\":\"l2\",\"address\":{\"octets\":[198,18,0,102]},"
                        + "\"nodeName\":\"node-a\"}");
        cluster.advertiseRaw("no-spec", "node-a", "\"spec\":null");
        cluster.advertise("bad-ip", "198.18.0", "node-a");
        start();

        assertThat(wire.awaitSent("eth0", 2).subList(0, 2)).containsExactly(
                ArpFrame.gratuitousRequest(MAC, Ipv4.parse(VIP)), ArpFrame.gratuitousReply(MAC, Ipv4.parse(VIP)));
        assertThat(answers(VIP)).isTrue();
        eventually(() -> assertThat(agent.metrics().skipped()).isEqualTo(3));
        eventually(() -> assertThat(cluster.client().v1().events().inNamespace("default").list().getItems())
                .filteredOn(e -> JuneauConstants.EVENT_INVALID_ADVERTISEMENT.equals(e.getReason()))
                .extracting(e -> e.getInvolvedObject().getName() + ": " + e.getMessage())
                .anySatisfy(m -> assertThat(m).startsWith("wrong-type: ").contains("spec.address: an object has the"
                        + " wrong type"))
                .anySatisfy(m -> assertThat(m).startsWith("no-spec: ").contains("spec: missing"))
                .anySatisfy(m -> assertThat(m).startsWith(JuneauConstants.arpAdvertisementName("default", "bad-ip")
                        + ": ").contains("spec.address: \"198.18.0\" is not an IPv4 address")));
        eventually(() -> {
            Condition c = announced(cluster.get("bad-ip"));
            assertThat(c).isNotNull();
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_INVALID_CONFIG);
            assertThat(c.getMessage()).contains("198.18.0");
        });
        assertThat(agent.healthProblem()).isNull();
        assertThat(agent.readinessProblem()).isNull();

        // a damaged object arriving on the watch later: the loop goes on and answers what comes after it
        cluster.advertiseRaw("later", "node-a", "\"spec\":\"198.18.0.103\"");
        cluster.advertise("api", "198.18.0.101", "node-a");
        eventually(() -> assertThat(agent.answering()).containsOnlyKeys(Ipv4.parse(VIP), Ipv4.parse("198.18.0.101")));
        eventually(() -> assertThat(agent.metrics().skipped()).isEqualTo(4));
        assertThat(agent.healthProblem()).isNull();
    }

    /** Issue 12 for the Lease: one this client cannot decode is written afresh, not a renew loop that dies. */
    @Test
    void aLeaseThatCannotBeReadIsWrittenAfresh() throws Exception {
        cluster.client().genericKubernetesResources(io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext
                .fromResourceType(Lease.class)).inNamespace("juneau-system")
                .resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("{\"apiVersion\":"
                        + "\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"juneau-agent-node-a\","
                        + "\"namespace\":\"juneau-system\"},\"spec\":{\"leaseDurationSeconds\":\"three\","
                        + "\"holderIdentity\":[\"someone\"]}}", io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
                .create();
        cluster.advertise("web", VIP, "node-a");
        start();

        eventually(() -> {
            Lease lease = cluster.client().leases().inNamespace("juneau-system").withName("juneau-agent-node-a").get();
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("node-a");
            assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(3);
        });
        assertThat(agent.healthProblem()).isNull();
        assertThat(answers(VIP)).isTrue();
    }
}
