package me.loutres.juneau.agent.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Event;
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
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementStatus;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39 item 4, the agent's half against a mock API server and a fake wire: a VIP no node ever announced is probed
 * first (RFC 5227), and another device answering keeps it unannounced with {@code Announced=False AddressConflict},
 * a Warning event and {@code juneau_agent_address_conflicts_total}; a failover is not probed; a conflict seen after
 * the announcement keeps the VIP answered and says the same (docs/troubleshooting.md).
 */
class AddressConflictMockTest {
    static final MacAddress MAC = MacAddress.parse("02:00:00:00:00:0a");
    static final MacAddress HOST = MacAddress.parse("52:54:00:12:34:56");
    static final MacAddress CLIENT_MAC = MacAddress.parse("02:00:00:00:00:01");
    static final long CLIENT = Ipv4.parse("198.18.0.1");
    static final String VIP = "198.18.0.100";
    static final InterfaceInfo ETH0 = new InterfaceInfo("eth0", 2, MAC,
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false);

    final AgentCluster cluster = new AgentCluster();
    final FakeWire wire = new FakeWire();
    NodeAgent agent;

    void start() throws Exception {
        AgentOptions options = AgentOptions.defaults("node-a").withMetrics("127.0.0.1", -1)
                .withLease(new LeaseKeeper.Timing(Duration.ofMillis(200), Duration.ofSeconds(3),
                        Duration.ofSeconds(10), Duration.ofSeconds(30)));
        agent = NodeAgent.start(cluster.newAgentClient(), options, wire, () -> List.of(ETH0));
    }

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
        cluster.close();
    }

    static Condition announced(ARPAdvertisement a) {
        return a.getStatus() == null || a.getStatus().getConditions() == null ? null : a.getStatus().getConditions()
                .stream().filter(c -> JuneauConstants.CONDITION_ANNOUNCED.equals(c.getType())).findFirst()
                .orElse(null);
    }

    List<Event> warnings() {
        return cluster.client().v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> "Warning".equals(e.getType())
                        && JuneauConstants.REASON_ADDRESS_CONFLICT.equals(e.getReason())).toList();
    }

    @Test
    void aFreshVipAnsweredByAnotherDeviceIsNeverAnnouncedAndSaysAddressConflict() throws Exception {
        cluster.advertise("web", VIP, "node-a");
        start();

        eventually(() -> assertThat(wire.probes("eth0")).isNotEmpty());
        assertThat(wire.probes("eth0").get(0)).isEqualTo(ArpFrame.probe(MAC, Ipv4.parse(VIP)));
        wire.inject("eth0", ArpFrame.probe(MAC, Ipv4.parse(VIP)).replyFrom(HOST));

        String message = "address 198.18.0.100 is already used by 52:54:00:12:34:56 on eth0: it answered the ARP"
                + " probe of node node-a, which does not announce it (probed again after 60 min); remove the address"
                + " from that device, or let the controller move the Service to another address";
        eventually(() -> {
            ARPAdvertisement a = cluster.get("web");
            assertThat(announced(a)).isNotNull();
            assertThat(announced(a).getStatus()).isEqualTo("False");
            assertThat(announced(a).getReason()).isEqualTo(JuneauConstants.REASON_ADDRESS_CONFLICT);
            assertThat(announced(a).getMessage()).isEqualTo(message);
            assertThat(a.getStatus().getAnnouncedAt()).isNull();
        });
        eventually(() -> assertThat(warnings()).extracting(Event::getMessage).containsExactly(message));
        assertThat(warnings()).extracting(e -> e.getInvolvedObject().getUid())
                .containsExactly(me.loutres.juneau.agent.testing.AgentCluster.serviceUid("web"));
        assertThat(agent.metrics().addressConflictCount()).isEqualTo(1.0);
        assertThat(wire.probes("eth0")).hasSize(3);
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, Ipv4.parse(VIP))).as("never answered").isFalse();
        assertThat(wire.sent("eth0")).as("no gratuitous ARP ever, no answer").isEmpty();
        assertThat(agent.answering()).isEmpty();
    }

    @Test
    void aFreshVipNobodyAnswersIsAnnouncedAfterThreeProbes() throws Exception {
        cluster.advertise("web", VIP, "node-a");
        start();

        List<ArpFrame> garp = wire.awaitSent("eth0", 2);
        assertThat(wire.probes("eth0")).as("the probes all went out first").hasSize(3);
        assertThat(garp.subList(0, 2)).containsExactly(ArpFrame.gratuitousRequest(MAC, Ipv4.parse(VIP)),
                ArpFrame.gratuitousReply(MAC, Ipv4.parse(VIP)));
        eventually(() -> assertThat(announced(cluster.get("web")).getStatus()).isEqualTo("True"));
        assertThat(agent.metrics().addressConflictCount()).isZero();
    }

    @Test
    void aFailoverIsNotProbedAndThePreviousOwnerIsNoConflict() throws Exception {
        ARPAdvertisement a = cluster.advertise("web", VIP, "node-a");
        ARPAdvertisementStatus s = new ARPAdvertisementStatus();
        s.setNode("node-b");
        s.setInterfaceName("eth0");
        s.setMacAddress("02:00:00:00:00:0b");
        s.setAnnouncedAt("2026-01-01T00:00:00Z");
        s.setConditions(List.of(new ConditionBuilder().withType(JuneauConstants.CONDITION_ANNOUNCED)
                .withStatus("True").withReason(JuneauConstants.REASON_ANNOUNCED).withMessage("node-b answers")
                .withLastTransitionTime("2026-01-01T00:00:00Z").build()));
        a.setStatus(s);
        cluster.client().resources(ARPAdvertisement.class).resource(a).updateStatus();
        start();

        wire.awaitSent("eth0", 2);
        assertThat(wire.probes("eth0")).as("a VIP node-b announced before is taken over without a probe").isEmpty();
        eventually(() -> assertThat(cluster.get("web").getStatus().getNode()).isEqualTo("node-a"));
        assertThat(announced(cluster.get("web")).getStatus()).isEqualTo("True");
    }

    @Test
    void aConflictSeenAfterTheAnnouncementKeepsAnsweringAndSaysSo() throws Exception {
        cluster.advertise("web", VIP, "node-a");
        start();
        wire.awaitSent("eth0", 2);
        eventually(() -> assertThat(announced(cluster.get("web")).getStatus()).isEqualTo("True"));
        String announcedAt = cluster.get("web").getStatus().getAnnouncedAt();

        wire.inject("eth0", ArpFrame.gratuitousRequest(HOST, Ipv4.parse(VIP)));

        String message = "address 198.18.0.100 is already used by 52:54:00:12:34:56 on eth0 too: node node-a keeps"
                + " answering it; remove the address from that device or from the AddressPool";
        eventually(() -> {
            ARPAdvertisement a = cluster.get("web");
            assertThat(announced(a).getStatus()).isEqualTo("False");
            assertThat(announced(a).getReason()).isEqualTo(JuneauConstants.REASON_ADDRESS_CONFLICT);
            assertThat(announced(a).getMessage()).isEqualTo(message);
            assertThat(a.getStatus().getAnnouncedAt()).as("still answered since then").isEqualTo(announcedAt);
            assertThat(a.getStatus().getMacAddress()).isEqualTo(MAC.toString());
        });
        eventually(() -> assertThat(warnings()).extracting(Event::getMessage).containsExactly(message));
        assertThat(agent.metrics().addressConflictCount()).isEqualTo(1.0);
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, Ipv4.parse(VIP))).as("a working VIP keeps answering")
                .isTrue();
    }
}
