package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClientException;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * --manage-unclassed and the default network (docs/install.md, "Unclassed Services and the default network"): one
 * story in order, because which network is the default is a fact of the whole cluster. Without the flag an unclassed
 * LoadBalancer Service is ignored; with it, it waits (saying why) until a network is marked default, then takes a
 * VIP from it; two defaults stored around the webhook are reported on the Service, naming both.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UnclassedServicesMockTest extends ScenarioBase {
    private volatile boolean manageUnclassed;

    @Override
    protected ControllerOptions options(String identity) {
        return super.options(identity).withManageUnclassed(manageUnclassed);
    }

    /** An unclassed LoadBalancer Service without the network annotation, as a chart without Juneau values writes it. */
    static Service unclassed(String ns, String name) {
        return MockCluster.managedService(ns, name, "unused").editMetadata().withAnnotations(null).endMetadata()
                .editSpec().withLoadBalancerClass(null).endSpec().build();
    }

    /** ExternalNetwork reconciles so far: one follows each ExternalNetwork event the controller's cache takes in. */
    private double networkReconciles() {
        return controller.scrapeMetrics().lines()
                .filter(l -> l.startsWith("juneau_reconcile_total{kind=\"network\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    @Order(1)
    void withoutTheFlagAnUnclassedServiceIsIgnored() {
        cluster.pool("uc-pool", "bgp", "10.9.0.0/29");
        cluster.network("uc-net", "bgp", "uc-pool");
        cluster.create(unclassed("uc", "plain"));
        cluster.service("uc", "marker", "uc-net");
        eventually(() -> assertThat(status("uc", "marker").getVip()).isEqualTo("10.9.0.1"));
        settle();
        assertThat(cluster.slb("uc", "plain")).isNull();
        assertThat(ingress("uc", "plain")).isEmpty();
    }

    @Test
    @Order(2)
    void withTheFlagItWaitsForADefaultNetworkThenAllocatesFromIt() {
        manageUnclassed = true;
        restartController();
        cluster.create(MockCluster.managedService("uc", "other-class", "uc-net").editSpec()
                .withLoadBalancerClass("example.com/other").endSpec().build());
        eventually(() -> {
            Condition c = condition(status("uc", "plain"), JuneauConstants.CONDITION_ALLOCATED);
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE);
            assertThat(c.getMessage()).isEqualTo("the Service has no annotation "
                    + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + " and no ExternalNetwork is marked "
                    + JuneauConstants.ANNOTATION_DEFAULT_NETWORK + ": \"true\"; set the annotation to the name of an"
                    + " ExternalNetwork, or mark one ExternalNetwork as the default");
        });

        cluster.client().resources(ExternalNetwork.class).withName("uc-net")
                .edit(n -> {
                    n.getMetadata().setAnnotations(java.util.Map.of(JuneauConstants.ANNOTATION_DEFAULT_NETWORK, "true"));
                    return n;
                });
        eventually(() -> {
            assertThat(status("uc", "plain").getVip()).isEqualTo("10.9.0.2");
            assertThat(cluster.slb("uc", "plain").getSpec().getExternalNetwork()).isEqualTo("uc-net");
            assertThat(ingress("uc", "plain")).singleElement().satisfies(i -> assertThat(i.getIp()).isEqualTo("10.9.0.2"));
        });
        settle();
        assertThat(cluster.slb("uc", "other-class")).as("another class is never Juneau's").isNull();
    }

    @Test
    @Order(3)
    void aSecondDefaultIsDeniedAndTwoStoredAroundTheWebhookAreReportedOnTheService() {
        cluster.pool("uc-pool2", "bgp", "10.9.1.0/29");
        ExternalNetwork second = new ExternalNetwork();
        second.getMetadata().setName("uc-net2");
        second.getMetadata().setAnnotations(java.util.Map.of(JuneauConstants.ANNOTATION_DEFAULT_NETWORK, "true"));
        second.setSpec(new me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec("bgp", java.util.List.of("uc-pool2")));
        assertThatThrownBy(() -> cluster.client().resource(second).create())
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("ExternalNetworks \"uc-net2\" and \"uc-net\" would both be marked");

        settle();
        double networkReconciles = networkReconciles();
        cluster.beforeTheWebhook(() -> cluster.client().resource(second).create());
        // the Service must reach a controller that knows both defaults: reconciled before the uc-net2 event, it would
        // take its VIP from uc-net, the only default known then, and keep it (a VIP keeps its network)
        me.loutres.juneau.testing.Eventually.until("the controller saw ExternalNetwork uc-net2",
                () -> networkReconciles() > networkReconciles);
        cluster.create(unclassed("uc", "late"));
        eventually(() -> {
            Condition c = condition(status("uc", "late"), JuneauConstants.CONDITION_ALLOCATED);
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE);
            assertThat(c.getMessage()).contains("ExternalNetworks \"uc-net\", \"uc-net2\" are all marked");
        });
        // a VIP keeps the network it came from
        settle();
        assertThat(status("uc", "plain").getVip()).isEqualTo("10.9.0.2");
        assertThat(cluster.slb("uc", "plain").getSpec().getExternalNetwork()).isEqualTo("uc-net");
    }

    @Test
    @Order(4)
    void aPoolTheDefaultNetworkWaitedForReachesTheServicesWithoutAnnotation() {
        for (String name : java.util.List.of("uc-net", "uc-net2")) {
            cluster.client().resources(ExternalNetwork.class).withName(name).edit(n -> {
                n.getMetadata().setAnnotations(java.util.Map.of());
                return n;
            });
        }
        ExternalNetwork third = new ExternalNetwork();
        third.getMetadata().setName("uc-net3");
        third.getMetadata().setAnnotations(java.util.Map.of(JuneauConstants.ANNOTATION_DEFAULT_NETWORK, "true"));
        third.setSpec(new me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec("bgp", java.util.List.of("uc-pool3")));
        // listing a pool that does not exist yet is refused by the webhook; stored around it, the network waits
        cluster.beforeTheWebhook(() -> cluster.client().resource(third).create());
        cluster.create(unclassed("uc", "third"));
        eventually(() -> assertThat(condition(status("uc", "third"), JuneauConstants.CONDITION_ALLOCATED).getMessage())
                .contains("AddressPool \"uc-pool3\" listed by ExternalNetwork \"uc-net3\" does not exist"));

        cluster.pool("uc-pool3", "bgp", "10.9.2.0/29");
        // "late" (test 3, no annotation either) is served too: by uc-net2 if reconciled while it was the one default
        // left above, else by uc-net3; so "third" has .1 or .2 of uc-pool3
        eventually(() -> {
            assertThat(status("uc", "third").getVip()).isIn("10.9.2.1", "10.9.2.2");
            assertThat(cluster.slb("uc", "third").getSpec().getExternalNetwork()).isEqualTo("uc-net3");
        });
    }
}
