package me.loutres.juneau.cli.arp;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkArp;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.cli.lan.LanGuard;
import me.loutres.juneau.cli.demo.lan.ArpLab;
import me.loutres.juneau.cli.demo.lan.ArpProber;
import me.loutres.juneau.cli.demo.lan.LanScenario;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code spec.arp.interfaces} on the wire (docs/api-reference.md, ExternalNetwork): the namespace LAN of
 * {@link ArpFailoverIT} with a second LAN, each node with a link on both (eth0 on LAN A, 198.18.0.0/24, which holds
 * the VIP; eth1 on LAN B, 198.18.1.0/24) and a client on each. The network names eth1: the owner answers ARP for the
 * VIP only on LAN B, although its prefix rule alone would pick eth0. Then it names an interface no node has: nobody
 * answers, and the ARPAdvertisement and the ServiceLoadBalancer say {@code Announced=False InterfaceNotFound} naming
 * it and the node's interfaces.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArpInterfacesIT {
    static final String VIP = LanScenario.VIP;

    LanScenario lan;
    ArpLab.Host clientB;
    LanGuard guard;

    @BeforeAll
    void buildTwoLans() throws Exception {
        LanGuard.assumeAvailable("ArpInterfacesIT", "network namespaces", ArpLab.unavailableReason());
        lan = LanScenario.start();
        guard = LanGuard.of(lan, lan.lab(), "arp-interfaces-cleanup");
        lan.lab().secondLink(lan.node("node-a"), 11);
        lan.lab().secondLink(lan.node("node-b"), 12);
        clientB = lan.lab().hostOnSecondLan("client-b", 1);
    }

    @AfterAll
    void tearDown() throws Exception {
        if (guard != null) {
            lan.stopAgents();
            guard.close();
        }
    }

    void interfaces(List<String> names) {
        lan.admin().resources(ExternalNetwork.class).withName("lab").edit(n -> {
            ExternalNetworkArp arp = new ExternalNetworkArp();
            arp.setInterfaces(names);
            n.getSpec().setArp(arp);
            return n;
        });
    }

    Set<String> arping(ArpLab.Host from) throws Exception {
        try (ArpProber p = ArpProber.open(lan.lab(), from)) {
            return p.probe(VIP, 4, Duration.ofMillis(250));
        }
    }

    @Test
    void theOwnerAnswersOnlyOnTheNamedLinkAndSaysWhenTheNamedLinkIsMissing() throws Exception {
        interfaces(List.of("eth1"));
        Instant started = Instant.now();
        lan.startAgents(true, List.of());
        String owner = lan.awaitAnnouncedBy(null, started, Duration.ofSeconds(90));
        ARPAdvertisement a = lan.advertisement();
        assertThat(a.getStatus().getInterfaceName()).as("the interface the owner reports").isEqualTo("eth1");
        String ownerB = String.format("02:00:00:00:01:%02x", owner.equals("node-a") ? 11 : 12);
        assertThat(a.getStatus().getMacAddress()).isEqualTo(ownerB);

        assertThat(arping(clientB)).as("MACs answering ARP for %s on LAN B (eth1)%s", VIP, lan.logs())
                .containsExactly(ownerB);
        assertThat(arping(lan.client())).as("MACs answering ARP for %s on LAN A (eth0, not named)", VIP).isEmpty();

        interfaces(List.of("eth9"));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Condition c = null;
        while (System.nanoTime() < deadline) {
            a = lan.advertisement();
            c = a.getStatus() == null || a.getStatus().getConditions() == null ? null : a.getStatus().getConditions()
                    .stream().filter(x -> JuneauConstants.CONDITION_ANNOUNCED.equals(x.getType())).findFirst()
                    .orElse(null);
            if (c != null && "False".equals(c.getStatus())) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(c).as("the owner's report after the network named eth9: %s%s", a.getStatus(), lan.logs())
                .isNotNull();
        assertThat(Map.of("status", c.getStatus(), "reason", c.getReason())).isEqualTo(Map.of("status", "False",
                "reason", JuneauConstants.REASON_INTERFACE_NOT_FOUND));
        assertThat(c.getMessage()).isEqualTo("interface eth9 (spec.arp.interfaces of ExternalNetwork lab) is not on"
                + " node " + a.getSpec().getNodeName() + " (its interfaces: eth0, eth1); fix the list, or keep this"
                + " node out with the network's spec.nodeSelector");
        assertThat(arping(clientB)).as("nobody answers on LAN B").isEmpty();
        assertThat(arping(lan.client())).as("nobody answers on LAN A").isEmpty();

        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Condition service = null;
        while (System.nanoTime() < until) {
            ServiceLoadBalancer slb = lan.admin().resources(ServiceLoadBalancer.class).inNamespace(LanScenario.NS)
                    .withName(LanScenario.SVC).get();
            service = slb == null || slb.getStatus() == null || slb.getStatus().getConditions() == null ? null
                    : slb.getStatus().getConditions().stream()
                            .filter(x -> JuneauConstants.CONDITION_ANNOUNCED.equals(x.getType())).findFirst()
                            .orElse(null);
            if (service != null && JuneauConstants.REASON_INTERFACE_NOT_FOUND.equals(service.getReason())) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(service).as("the ServiceLoadBalancer's Announced condition").isNotNull();
        assertThat(service.getReason()).isEqualTo(JuneauConstants.REASON_INTERFACE_NOT_FOUND);
        assertThat(service.getMessage()).isEqualTo(a.getSpec().getNodeName() + ": InterfaceNotFound: "
                + c.getMessage());
    }
}
