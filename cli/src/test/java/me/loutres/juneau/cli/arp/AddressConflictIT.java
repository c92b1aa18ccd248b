package me.loutres.juneau.cli.arp;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.cli.demo.lan.ArpLab;
import me.loutres.juneau.cli.demo.lan.LanScenario;
import me.loutres.juneau.cli.demo.lan.Netns;
import me.loutres.juneau.cli.lan.LanGuard;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 39 item 4 on the wire, the agent's half: the namespace LAN of {@link ArpFailoverIT} where a host (a printer,
 * a DHCP lease) already holds the VIP 198.18.0.100 before any agent runs. The elected node probes it (RFC 5227), the
 * host's kernel answers, and the node never announces it: the client's neighbour entry for the address stays the
 * host's MAC throughout, the ARPAdvertisement says {@code Announced=False AddressConflict} naming the host's MAC, and
 * so do the ServiceLoadBalancer's {@code Announced} condition, a Warning event on the Service and the owner's
 * {@code juneau_agent_address_conflicts_total} (docs/troubleshooting.md, "My VIP conflicts with another device").
 * Moving the Service to another address and {@code status.conflicts[]} of the pool are the controller's half, not
 * built yet.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AddressConflictIT {
    static final String VIP = LanScenario.VIP;

    LanScenario lan;
    ArpLab.Host squatter;
    LanGuard guard;

    @BeforeAll
    void lanWithAHostOnTheVip() throws Exception {
        LanGuard.assumeAvailable("AddressConflictIT", "network namespaces", ArpLab.unavailableReason());
        lan = LanScenario.start();
        guard = LanGuard.of(lan, lan.lab(), "address-conflict-cleanup");
        squatter = lan.lab().host("squatter", 100); // 198.18.0.100/24 on its eth0, MAC 02:00:00:00:00:64
        assertThat(squatter.ip()).isEqualTo(VIP);
    }

    @AfterAll
    void tearDown() throws Exception {
        if (guard != null) {
            lan.stopAgents();
            guard.close();
        }
    }

    static Condition announced(List<Condition> conditions) {
        return conditions == null ? null : conditions.stream()
                .filter(c -> JuneauConstants.CONDITION_ANNOUNCED.equals(c.getType())).findFirst().orElse(null);
    }

    @Test
    void theOwnerProbesFindsTheHostAndNeverTakesItsTraffic() throws Exception {
        String host = squatter.mac().toString();
        lan.clientSendsTo(VIP);
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!host.equals(lan.clientEntry()) && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertThat(lan.clientEntry()).as("the client resolved the address to the host that holds it").isEqualTo(host);

        lan.startAgents(true, List.of());
        Set<String> nodeMacs = Set.of(lan.mac("node-a"), lan.mac("node-b"));
        List<String> seen = new ArrayList<>();
        Condition c = null;
        ARPAdvertisement a = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            seen.add(lan.clientEntry());
            a = lan.advertisement();
            c = a == null || a.getStatus() == null ? null : announced(a.getStatus().getConditions());
            if (c != null && JuneauConstants.REASON_ADDRESS_CONFLICT.equals(c.getReason())) {
                break;
            }
            Thread.sleep(20);
        }
        assertThat(c).as("the owner's report: %s%s", a, lan.logs()).isNotNull();
        String owner = a.getSpec().getNodeName();
        assertThat(c.getStatus()).isEqualTo("False");
        String expected = "address 198.18.0.100 is already used by " + host + " on eth0: it answered the ARP probe of"
                + " node " + owner + ", which does not announce it (probed again after 60 min); remove the address"
                + " from that device, or let the controller move the Service to another address";
        assertThat(c.getMessage()).isEqualTo(expected);
        assertThat(a.getStatus().getAnnouncedAt()).as("never announced").isNull();

        // what gratuitous ARP would have done, it would have done within its 5 s: look on for 6 s more
        long watch = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        while (System.nanoTime() < watch) {
            seen.add(lan.clientEntry());
            Thread.sleep(20);
        }
        lan.clientSendsTo(VIP);
        Thread.sleep(200);
        seen.add(lan.clientEntry());
        assertThat(seen).as("the client's entry for %s over %d looks (nodes: %s)", VIP, seen.size(), nodeMacs)
                .doesNotContainAnyElementsOf(nodeMacs).contains(host);
        assertThat(lan.clientEntry()).isEqualTo(host);

        Condition service = null;
        long slbDeadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < slbDeadline) {
            ServiceLoadBalancer slb = lan.admin().resources(ServiceLoadBalancer.class).inNamespace(LanScenario.NS)
                    .withName(LanScenario.SVC).get();
            service = slb == null || slb.getStatus() == null ? null : announced(slb.getStatus().getConditions());
            if (service != null && JuneauConstants.REASON_ADDRESS_CONFLICT.equals(service.getReason())) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(service).as("the ServiceLoadBalancer's Announced condition").isNotNull();
        assertThat(service.getStatus()).isEqualTo("False");
        assertThat(service.getReason()).isEqualTo(JuneauConstants.REASON_ADDRESS_CONFLICT);
        assertThat(service.getMessage()).isEqualTo(owner + ": AddressConflict: " + expected);

        List<Event> warnings = lan.admin().v1().events().inNamespace(LanScenario.NS).list().getItems().stream()
                .filter(e -> "Warning".equals(e.getType())
                        && JuneauConstants.REASON_ADDRESS_CONFLICT.equals(e.getReason())).toList();
        assertThat(warnings).extracting(Event::getMessage).contains(expected);
        assertThat(metric(lan.node(owner).namespace(), "juneau_agent_address_conflicts_total"))
                .as("the owner's conflict counter").isEqualTo(1.0);
    }

    /** One sample of the agent's /metrics, read inside its node's namespace. */
    static double metric(String namespace, String name) throws Exception {
        String body = Netns.inside(namespace, () -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", 7473), 2000);
                s.setSoTimeout(5000);
                OutputStream out = s.getOutputStream();
                out.write("GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        });
        for (String line : body.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1).trim());
            }
        }
        throw new AssertionError(name + " not in the agent's metrics:\n" + body);
    }
}
