package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import org.junit.jupiter.api.Test;

/** docs/phases-and-conditions.md: the ServiceLoadBalancer's life, the phases, the Service ingress, deletion. */
class ServiceLifecycleMockTest extends ScenarioBase {

    @Test
    void serviceLoadBalancerIsOwnedByTheServiceCarriesTheFinalizerAndTheTrimmedAnnotations() {
        cluster.pool("own-pool", "bgp", "10.1.0.0/24");
        cluster.network("own-net", "bgp", "own-pool");
        Service svc = cluster.create(MockCluster.managedService("own", "web", "  own-net ").editMetadata()
                .addToAnnotations(JuneauConstants.ANNOTATION_REQUESTED_IP, " 10.1.0.7\t").endMetadata().build());

        eventually(() -> {
            ServiceLoadBalancer slb = cluster.slb("own", "web");
            assertThat(slb).isNotNull();
            assertThat(slb.getSpec().getServiceRef().getName()).isEqualTo("web");
            assertThat(slb.getSpec().getExternalNetwork()).isEqualTo("own-net");
            assertThat(slb.getSpec().getRequestedIP()).isEqualTo("10.1.0.7");
            assertThat(slb.getMetadata().getFinalizers()).containsExactly(JuneauConstants.FINALIZER);
            assertThat(slb.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
                assertThat(o.getKind()).isEqualTo("Service");
                assertThat(o.getApiVersion()).isEqualTo("v1");
                assertThat(o.getUid()).isEqualTo(svc.getMetadata().getUid());
                assertThat(o.getController()).isTrue();
            });
            assertThat(slb.getStatus().getVip()).isEqualTo("10.1.0.7");
            assertThat(slb.getStatus().getAddressPool()).isEqualTo("own-pool");
            assertThat(slb.getStatus().getObservedGeneration()).isEqualTo(slb.getMetadata().getGeneration());
        });
    }

    @Test
    void phasesGoPendingAllocatedReadyDegradedReady() {
        cluster.pool("ph-pool", "bgp", "10.2.0.9/32");
        cluster.network("ph-net", "bgp", "ph-pool");
        cluster.service("ph", "holder", "ph-net");
        eventually(() -> assertThat(status("ph", "holder").getVip()).isEqualTo("10.2.0.9"));

        cluster.service("ph", "web", "ph-net");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("ph", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
            assertThat(s.getVip()).isNull();
            Condition allocated = condition(s, JuneauConstants.CONDITION_ALLOCATED);
            assertThat(allocated.getStatus()).isEqualTo("False");
            assertThat(allocated.getReason()).isEqualTo(JuneauConstants.REASON_POOL_EXHAUSTED);
            assertThat(allocated.getMessage()).contains("ph-pool (1/1 used)").contains("ExternalNetwork \"ph-net\"");
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getReason())
                    .isEqualTo(JuneauConstants.REASON_NOT_ALLOCATED);
        });
        assertThat(ingress("ph", "web")).isEmpty();

        cluster.client().services().inNamespace("ph").withName("holder").delete();
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("ph", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ALLOCATED);
            assertThat(s.getVip()).isEqualTo("10.2.0.9");
            assertThat(condition(s, JuneauConstants.CONDITION_ALLOCATED).getReason())
                    .isEqualTo(JuneauConstants.REASON_ALLOCATED);
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getReason())
                    .isEqualTo(JuneauConstants.REASON_NO_READY_BACKENDS);
        });
        eventually(() -> assertThat(ingress("ph", "web")).singleElement().satisfies(i -> {
            assertThat(i.getIp()).isEqualTo("10.2.0.9");
            assertThat(i.getIpMode()).isEqualTo("VIP");
        }));

        cluster.endpoints("ph", "web", "node-1", "node-2");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("ph", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
            assertThat(s.getAdvertisingNodes()).containsExactly("node-1", "node-2");
            assertThat(s.getBackendSummary().getLocalReadyNodes()).isEqualTo(2);
            assertThat(s.getBackendSummary().getTotalReady()).isEqualTo(2);
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getStatus()).isEqualTo("True");
        });
        String allocatedSince = condition(status("ph", "web"), JuneauConstants.CONDITION_ALLOCATED)
                .getLastTransitionTime();

        cluster.slice("ph", "web", List.of(MockCluster.endpoint("10.244.0.1", "node-1", false),
                MockCluster.endpoint("10.244.0.2", "node-2", false)));
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("ph", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_DEGRADED);
            assertThat(s.getAdvertisingNodes()).isEmpty();
            assertThat(s.getVip()).isEqualTo("10.2.0.9");
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getReason())
                    .isEqualTo(JuneauConstants.REASON_NO_READY_BACKENDS);
        });

        cluster.endpoints("ph", "web", "node-2");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("ph", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
            assertThat(s.getAdvertisingNodes()).containsExactly("node-2");
        });
        // the Allocated condition never changed status, so its transition time stayed
        assertThat(condition(status("ph", "web"), JuneauConstants.CONDITION_ALLOCATED).getLastTransitionTime())
                .isEqualTo(allocatedSince);
    }

    @Test
    void deletingTheServiceReleasesThroughTheFinalizer() {
        cluster.pool("del-pool", "arp", "10.3.0.1-10.3.0.4");
        cluster.network("del-net", "arp", "del-pool");
        cluster.service("del", "web", "del-net");
        cluster.endpoints("del", "web", "node-a");
        eventually(() -> {
            assertThat(status("del", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
            assertThat(cluster.arp("del", "web")).isNotNull();
            assertThat(cluster.getPool("del-pool").getStatus().getAllocated()).isEqualTo(1L);
        });

        cluster.client().services().inNamespace("del").withName("web").delete();
        eventually(() -> {
            assertThat(cluster.slb("del", "web")).as("ServiceLoadBalancer gone").isNull();
            assertThat(cluster.arp("del", "web")).as("ARPAdvertisement gone").isNull();
            assertThat(cluster.getPool("del-pool").getStatus().getAllocated()).isZero();
            assertThat(cluster.getPool("del-pool").getStatus().getFree()).isEqualTo(4L);
        });

        // the address really is free: the next Service gets the same, lowest one
        cluster.service("del", "next", "del-net");
        eventually(() -> assertThat(status("del", "next").getVip()).isEqualTo("10.3.0.1"));
    }

    @Test
    void aServiceThatStopsBeingManagedLosesItsServiceLoadBalancerAndItsIngress() {
        cluster.pool("un-pool", "arp", "10.4.0.1-10.4.0.4");
        cluster.network("un-net", "arp", "un-pool");
        cluster.service("un", "web", "un-net");
        cluster.endpoints("un", "web", "node-a");
        eventually(() -> {
            assertThat(ingress("un", "web")).hasSize(1);
            assertThat(cluster.arp("un", "web")).isNotNull();
        });

        cluster.client().services().inNamespace("un").withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"type\":\"ClusterIP\",\"loadBalancerClass\":null}}");

        eventually(() -> {
            assertThat(cluster.slb("un", "web")).isNull();
            assertThat(cluster.arp("un", "web")).isNull();
            assertThat(ingress("un", "web")).isEmpty();
            assertThat(cluster.getPool("un-pool").getStatus().getAllocated()).isZero();
        });
    }

    @Test
    void aMissingNetworkIsAnErrorUntilItExistsThenTheServiceIsAllocated() {
        // the webhook refuses a Service naming a missing network; one stored before the webhook was installed
        // (or whose network was deleted while the webhook was removed) is what the controller must still explain
        cluster.beforeTheWebhook(() -> cluster.service("err", "web", "late-net"));
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("err", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ERROR);
            Condition c = condition(s, JuneauConstants.CONDITION_ALLOCATED);
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE);
            assertThat(c.getMessage()).contains("ExternalNetwork \"late-net\" does not exist");
        });

        // the network names a pool that does not exist yet: still an error, now about the pool
        cluster.beforeTheWebhook(() -> cluster.network("late-net", "bgp", "late-pool"));
        eventually(() -> assertThat(condition(status("err", "web"), JuneauConstants.CONDITION_ALLOCATED).getMessage())
                .contains("AddressPool \"late-pool\"").contains("does not exist"));

        cluster.pool("late-pool", "bgp", "10.5.0.0/30");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("err", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ALLOCATED);
            assertThat(s.getVip()).isEqualTo("10.5.0.1");
        });
    }

    @Test
    void aPoolOfTheWrongModeIsAnError() {
        cluster.pool("mode-pool", "arp", "10.6.0.1-10.6.0.9");
        // refused by the webhook today: stored before it was installed
        cluster.beforeTheWebhook(() -> {
            cluster.network("mode-net", "bgp", "mode-pool");
            cluster.service("mode", "web", "mode-net");
        });
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("mode", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ERROR);
            assertThat(condition(s, JuneauConstants.CONDITION_ALLOCATED).getMessage())
                    .contains("AddressPool \"mode-pool\" has advertiseMode arp");
        });
    }

    @Test
    void aRequestedIpOutsideEveryPoolIsAnInvalidConfigError() {
        cluster.pool("out-pool", "bgp", "10.7.0.0/29");
        cluster.network("out-net", "bgp", "out-pool");
        // each is refused by the webhook today; stored before it was installed, the controller explains them
        cluster.beforeTheWebhook(() -> {
            cluster.serviceRequesting("out", "edge", "out-net", "10.7.0.7");   // broadcast of a /29: never used
            cluster.serviceRequesting("out", "far", "out-net", "192.0.2.1");
            cluster.serviceRequesting("out", "junk", "out-net", "not-an-ip");
        });
        eventually(() -> {
            for (String name : List.of("edge", "far", "junk")) {
                ServiceLoadBalancerStatus s = status("out", name);
                assertThat(s.getPhase()).as(name).isEqualTo(JuneauConstants.PHASE_ERROR);
                assertThat(condition(s, JuneauConstants.CONDITION_ALLOCATED).getReason()).as(name)
                        .isEqualTo(JuneauConstants.REASON_INVALID_CONFIG);
            }
            assertThat(condition(status("out", "far"), JuneauConstants.CONDITION_ALLOCATED).getMessage())
                    .contains("192.0.2.1").contains("10.7.0.1-10.7.0.6");
            assertThat(condition(status("out", "junk"), JuneauConstants.CONDITION_ALLOCATED).getMessage())
                    .contains("\"not-an-ip\"").contains(JuneauConstants.ANNOTATION_REQUESTED_IP);
        });
    }

    @Test
    void unmanagedServicesAreLeftAlone() {
        cluster.pool("ign-pool", "bgp", "10.8.0.0/30");
        cluster.network("ign-net", "bgp", "ign-pool");
        cluster.create(MockCluster.managedService("ign", "other-class", "ign-net").editSpec()
                .withLoadBalancerClass("example.com/other").endSpec().build());
        cluster.create(MockCluster.managedService("ign", "cluster-ip", "ign-net").editSpec()
                .withType("ClusterIP").withLoadBalancerClass(null).endSpec().build());
        cluster.service("ign", "managed", "ign-net");
        eventually(() -> assertThat(status("ign", "managed").getVip()).isEqualTo("10.8.0.1"));
        settle();
        assertThat(cluster.slb("ign", "other-class")).isNull();
        assertThat(cluster.slb("ign", "cluster-ip")).isNull();
        assertThat(ingress("ign", "other-class")).isEmpty();
    }
}
