package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementStatus;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * Condition Announced of an arp Service follows what the owner's agent writes on the ARPAdvertisement
 * (docs/phases-and-conditions.md): an agent that finds none of {@code spec.arp.interfaces} on its node writes
 * {@code Announced=False InterfaceNotFound}, and the Service's condition carries that reason and the agent's message;
 * once the agent answers, it turns True.
 */
class ArpAnnouncedMockTest extends ScenarioBase {

    /** Written as the owner's agent writes it (docs/admission.md: only agents write ARPAdvertisement status). */
    private void report(String ns, String svc, String status, String reason, String message, String iface) {
        // read as the admin (an agent's RBAC has list and watch, no get), written by the owner node's agent
        ARPAdvertisement a = cluster.client().resources(ARPAdvertisement.class)
                .withName(JuneauConstants.arpAdvertisementName(ns, svc)).get();
        try (var agent = cluster.newAgentClient(a.getSpec().getNodeName())) {
            ARPAdvertisementStatus st = new ARPAdvertisementStatus();
            st.setNode(a.getSpec().getNodeName());
            st.setInterfaceName(iface);
            st.setMacAddress(iface == null ? null : "02:00:00:00:00:0b");
            st.setObservedGeneration(a.getMetadata().getGeneration());
            st.setConditions(List.of(new ConditionBuilder().withType(JuneauConstants.CONDITION_ANNOUNCED)
                    .withStatus(status).withReason(reason).withMessage(message)
                    .withLastTransitionTime("2026-01-01T00:00:00Z").build()));
            a.setStatus(st);
            agent.resource(a).updateStatus();
        }
    }

    @Test
    void anInterfaceNotFoundOnTheOwnerShowsInTheServicesAnnouncedCondition() {
        cluster.ensureNode("if-a");
        cluster.pool("if-pool", "arp", "10.76.0.1-10.76.0.2");
        cluster.network("if-net", "arp", "if-pool");
        cluster.service("if", "web", "if-net");
        cluster.endpoints("if", "web", "if-a");
        Eventually.value("an ARPAdvertisement", () -> cluster.arp("if", "web"), a -> a != null);
        String missing = "interface eth9 (spec.arp.interfaces of ExternalNetwork if-net) is not on node if-a (its"
                + " interfaces: eth0, eth1); fix the list, or keep this node out with the network's spec.nodeSelector";

        report("if", "web", "False", JuneauConstants.REASON_INTERFACE_NOT_FOUND, missing, null);
        eventually(() -> {
            Condition c = condition(status("if", "web"), JuneauConstants.CONDITION_ANNOUNCED);
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_INTERFACE_NOT_FOUND);
            assertThat(c.getMessage()).isEqualTo("if-a: InterfaceNotFound: " + missing);
        });

        report("if", "web", "True", JuneauConstants.REASON_ANNOUNCED, "answering", "eth1");
        eventually(() -> {
            Condition c = condition(status("if", "web"), JuneauConstants.CONDITION_ANNOUNCED);
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getMessage()).startsWith("node if-a answers ARP for VIP 10.76.0.").endsWith(" on eth1"
                    + " (02:00:00:00:00:0b)");
        });
    }

    /** Issue 39: another device answered the owner's ARP probe; the Service's condition carries the agent's reason. */
    @Test
    void anAddressConflictOnTheOwnerShowsInTheServicesAnnouncedCondition() {
        cluster.ensureNode("ac-a");
        cluster.pool("ac-pool", "arp", "10.77.0.1-10.77.0.2");
        cluster.network("ac-net", "arp", "ac-pool");
        cluster.service("ac", "web", "ac-net");
        cluster.endpoints("ac", "web", "ac-a");
        ARPAdvertisement a = Eventually.value("an ARPAdvertisement", () -> cluster.arp("ac", "web"), x -> x != null);
        String conflict = "address " + a.getSpec().getAddress() + " is already used by 52:54:00:12:34:56 on eth0: it"
                + " answered the ARP probe of node ac-a, which does not announce it (probed again after 60 min); remove"
                + " the address from that device, or let the controller move the Service to another address";

        report("ac", "web", "False", JuneauConstants.REASON_ADDRESS_CONFLICT, conflict, null);
        eventually(() -> {
            Condition c = condition(status("ac", "web"), JuneauConstants.CONDITION_ANNOUNCED);
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_ADDRESS_CONFLICT);
            assertThat(c.getMessage()).isEqualTo("ac-a: AddressConflict: " + conflict);
        });
    }
}
