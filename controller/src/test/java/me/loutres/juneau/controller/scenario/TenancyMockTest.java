package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceAllocation;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Who may use a network (docs/install.md, "Sharing a cluster between teams"), through the local API server with the
 * real webhook in front: one story in order, since narrowing a network changes what the earlier Services may do.
 * ExternalNetwork tn-net lets namespace tn-a and namespaces labelled tenant=gold in; tn-b is neither.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TenancyMockTest extends ScenarioBase {
    static final String NET = "tn-net";

    static ServiceAllocation allocation(List<String> namespaces, Map<String, String> namespaceLabels) {
        ServiceAllocation sa = new ServiceAllocation();
        sa.setNamespaces(namespaces);
        sa.setNamespaceSelectors(namespaceLabels == null ? null
                : List.of(new LabelSelectorBuilder().withMatchLabels(namespaceLabels).build()));
        return sa;
    }

    private void namespace(String name, Map<String, String> labels) {
        cluster.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
                .withLabels(labels).endMetadata().build()).create();
    }

    private void allocationOf(String network, ServiceAllocation sa) {
        cluster.client().resources(ExternalNetwork.class).withName(network).edit(n -> {
            n.getSpec().setServiceAllocation(sa);
            return n;
        });
    }

    private void labelNamespace(String name, Map<String, String> labels) {
        cluster.client().namespaces().withName(name).edit(ns -> {
            ns.getMetadata().setLabels(labels);
            return ns;
        });
    }

    private void assertReady(String ns, String vip) {
        ServiceLoadBalancerStatus s = status(ns, "web");
        assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
        assertThat(s.getVip()).isEqualTo(vip);
        assertThat(condition(s, JuneauConstants.CONDITION_ALLOCATED).getStatus()).isEqualTo("True");
    }

    /** Error NotAllowed with the VIP kept, in the status and in the Service's ingress. */
    private void assertNotAllowed(String ns, String vip, String who) {
        ServiceLoadBalancerStatus s = status(ns, "web");
        assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ERROR);
        assertThat(s.getVip()).as("the VIP is kept").isEqualTo(vip);
        Condition c = condition(s, JuneauConstants.CONDITION_ALLOCATED);
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_NOT_ALLOWED);
        assertThat(c.getMessage()).isEqualTo("VIP " + vip + " is kept, but namespace " + ns + " may not use"
                + " ExternalNetwork " + NET + ": it allows " + who + "; allow it in the ExternalNetwork's"
                + " spec.serviceAllocation, or re-create the Service with annotation "
                + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + " naming a network it may use");
        assertThat(ingress(ns, "web")).singleElement().satisfies(i -> assertThat(i.getIp()).isEqualTo(vip));
    }

    @Test
    @Order(1)
    void allowedServicesGetAVipAndAnotherNamespaceIsRefusedSayingWhoMay() {
        cluster.pool("tn-pool", "arp", "10.68.0.1-10.68.0.8");
        ExternalNetwork net = new ExternalNetwork();
        net.getMetadata().setName(NET);
        net.setSpec(new ExternalNetworkSpec("arp", List.of("tn-pool")));
        net.getSpec().setServiceAllocation(allocation(List.of("tn-a"), Map.of("tenant", "gold")));
        cluster.client().resource(net).create();
        namespace("tn-a", Map.of());
        namespace("tn-gold", Map.of("tenant", "gold"));
        namespace("tn-b", Map.of("tenant", "silver"));

        // one after the other: the lowest free address goes to whichever the controller reconciles first
        eventually(() -> cluster.service("tn-a", "web", NET)); // again until the webhook's view has the network
        cluster.endpoints("tn-a", "web", "tn-node");
        eventually(() -> assertReady("tn-a", "10.68.0.1"));
        cluster.service("tn-gold", "web", NET);
        cluster.endpoints("tn-gold", "web", "tn-node");
        eventually(() -> assertReady("tn-gold", "10.68.0.2"));
        assertThatThrownBy(() -> cluster.service("tn-b", "web", NET)).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("admission webhook \"services.validate.juneau.loutres.me\" denied the request: "
                        + "metadata.annotations[\"" + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + "\"]: namespace tn-b"
                        + " may not use ExternalNetwork tn-net: it allows namespace tn-a, or namespaces labelled"
                        + " tenant=gold");
        assertThat(cluster.svc("tn-b", "web")).isNull();
    }

    @Test
    @Order(2)
    void aNetworkNarrowedUnderExistingServicesKeepsTheirVipsAndSaysNotAllowedWithAWarning() {
        allocationOf(NET, allocation(List.of("tn-a"), null));
        eventually(() -> assertNotAllowed("tn-gold", "10.68.0.2", "namespace tn-a"));
        eventually(() -> assertThat(cluster.events("tn-gold", "web", JuneauConstants.EVENT_ALLOCATION_FAILED))
                .singleElement().satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).startsWith(JuneauConstants.REASON_NOT_ALLOWED + ": VIP 10.68.0.2 is kept,"
                            + " but namespace tn-gold may not use ExternalNetwork tn-net");
                }));
        // the one still allowed is untouched, and whoever answered ARP for the kept VIP goes on answering
        assertReady("tn-a", "10.68.0.1");
        assertThat(cluster.arp("tn-gold", "web")).isNotNull();
    }

    @Test
    @Order(3)
    void widenedAgainTheServiceIsReadyAndNamespaceLabelsAreFollowed() {
        allocationOf(NET, allocation(List.of("tn-a"), Map.of("tenant", "gold")));
        eventually(() -> assertReady("tn-gold", "10.68.0.2"));

        // the Namespace loses the label the network selects: its Service is re-queued by the Namespace's event
        labelNamespace("tn-gold", Map.of("tenant", "bronze"));
        eventually(() -> assertNotAllowed("tn-gold", "10.68.0.2", "namespace tn-a, or namespaces labelled tenant=gold"));
        labelNamespace("tn-gold", Map.of("tenant", "gold"));
        eventually(() -> assertReady("tn-gold", "10.68.0.2"));
        // and a Namespace that gains it may now create Services on the network
        labelNamespace("tn-b", Map.of("tenant", "gold"));
        eventually(() -> {
            cluster.service("tn-b", "web", NET);
            assertThat(cluster.svc("tn-b", "web")).isNotNull();
        });
        cluster.endpoints("tn-b", "web", "tn-node");
        eventually(() -> assertReady("tn-b", "10.68.0.3"));
    }

    /** The default network is chosen only among the networks the Service may use. */
    @Test
    @Order(4)
    void theDefaultNetworkServesOnlyTheServicesItAllows() {
        cluster.pool("tn-pool-def", "arp", "10.68.1.1-10.68.1.4");
        ExternalNetwork def = new ExternalNetwork();
        def.getMetadata().setName("tn-default");
        def.getMetadata().setAnnotations(Map.of(JuneauConstants.ANNOTATION_DEFAULT_NETWORK, "true"));
        def.setSpec(new ExternalNetworkSpec("arp", List.of("tn-pool-def")));
        def.getSpec().setServiceAllocation(allocation(List.of("tn-a"), null));
        cluster.client().resource(def).create();

        // again until the webhook's view has the new default network (it refuses a Service with no network)
        eventually(() -> cluster.create(unannotated("tn-a", "plain")));
        eventually(() -> {
            assertThat(status("tn-a", "plain").getVip()).isEqualTo("10.68.1.1");
            assertThat(cluster.slb("tn-a", "plain").getSpec().getExternalNetwork()).isEqualTo("tn-default");
        });

        String refusal = "the Service has no annotation " + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK
                + ", and namespace tn-gold may not use ExternalNetwork tn-default: it allows namespace tn-a; set the"
                + " annotation to an ExternalNetwork this Service may use";
        assertThatThrownBy(() -> cluster.create(unannotated("tn-gold", "plain")))
                .isInstanceOf(KubernetesClientException.class).hasMessageContaining(refusal);
        // stored around the webhook, the controller gives it no address from a network it may not use
        cluster.beforeTheWebhook(() -> cluster.create(unannotated("tn-gold", "plain")));
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("tn-gold", "plain");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ERROR);
            assertThat(s.getVip()).isNull();
            Condition c = condition(s, JuneauConstants.CONDITION_ALLOCATED);
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_NOT_ALLOWED);
            assertThat(c.getMessage()).isEqualTo(refusal);
        });
        settle();
        assertThat(status("tn-gold", "plain").getVip()).isNull();
    }

    /** A Namespace's label change reaches only its own Services, and only those whose network tests that label. */
    @Test
    @Order(5)
    void aRelabelledNamespaceReQueuesOnlyItsServicesWhoseNetworkTestsThatLabel() {
        cluster.pool("tn-open-pool", "bgp", "10.68.2.0/28");
        cluster.network("tn-open", "bgp", "tn-open-pool");
        cluster.pool("tn-idx-pool", "bgp", "10.68.3.0/30");
        ExternalNetwork idx = new ExternalNetwork();
        idx.getMetadata().setName("tn-idx-net");
        idx.setSpec(new ExternalNetworkSpec("bgp", List.of("tn-idx-pool")));
        ServiceAllocation sa = new ServiceAllocation();
        sa.setNamespaceSelectors(List.of(new LabelSelectorBuilder().addNewMatchExpression().withKey("tenant")
                .withOperator("In").withValues("gold", "gold2").endMatchExpression().build()));
        idx.getSpec().setServiceAllocation(sa);
        cluster.client().resource(idx).create();
        namespace("tn-idx", Map.of("tenant", "gold"));
        for (int i = 0; i < 4; i++) {
            cluster.service("tn-idx", "open-" + i, "tn-open");
        }
        eventually(() -> {
            cluster.service("tn-idx", "web", "tn-idx-net");
            assertThat(cluster.svc("tn-idx", "web")).isNotNull();
        });
        eventually(() -> assertThat(status("tn-idx", "web").getVip()).isEqualTo("10.68.3.1"));
        settle();

        double before = serviceReconciles();
        labelNamespace("tn-idx", Map.of("tenant", "gold", "team", "web")); // no network tests "team"
        settle();
        assertThat(serviceReconciles() - before).as("reconciles after a label no network tests").isZero();

        // tn-net and tn-idx-net test "tenant": of tn-idx's five Services only web uses one of them (and tn-gold's
        // Service, on tn-net too, is in another namespace); still allowed, so nothing to write
        labelNamespace("tn-idx", Map.of("tenant", "gold2", "team", "web"));
        settle();
        assertThat(serviceReconciles() - before).as("reconciles after a label tn-idx-net tests").isEqualTo(1.0);
        assertThat(status("tn-idx", "web").getPhase()).isNotEqualTo(JuneauConstants.PHASE_ERROR);
    }

    private double serviceReconciles() {
        return controller.scrapeMetrics().lines()
                .filter(l -> l.startsWith("juneau_reconcile_total{kind=\"service\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private static Service unannotated(String ns, String name) {
        return MockCluster.managedService(ns, name, "unused").editMetadata().withAnnotations(null).endMetadata().build();
    }
}
