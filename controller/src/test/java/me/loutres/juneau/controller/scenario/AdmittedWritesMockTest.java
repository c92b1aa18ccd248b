package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.controller.testing.Scrape;
import me.loutres.juneau.controller.testing.TestDispatcher;
import org.junit.jupiter.api.Test;

/**
 * What a real API server with the webhook in front does to the controller's own writes (kube-apiserver's
 * documented behaviour, served by the local API server of module {@code apiserver}): deletion goes through the
 * ServiceLoadBalancer's finalizer and garbage collection by ownerReference, and the webhook may refuse a write the
 * controller believed valid.
 */
class AdmittedWritesMockTest extends ScenarioBase {

    @Test
    void aServiceDeletedAndCreatedAgainWithTheSameNameGetsAVipEachTime() {
        cluster.pool("again-pool", "bgp", "10.70.0.0/30");
        cluster.network("again-net", "bgp", "again-pool");
        for (int round = 0; round < 3; round++) {
            String uid = cluster.service("again", "web", "again-net").getMetadata().getUid();
            eventually(() -> {
                ServiceLoadBalancer slb = cluster.slb("again", "web");
                assertThat(slb).isNotNull();
                assertThat(slb.getMetadata().getOwnerReferences()).singleElement()
                        .satisfies(o -> assertThat(o.getUid()).isEqualTo(uid));
                assertThat(slb.getStatus().getVip()).isEqualTo("10.70.0.1");
            });
            // background deletion: the garbage collector deletes the owned ServiceLoadBalancer, whose finalizer
            // keeps it until the controller has released the address and removed the finalizer
            cluster.client().services().inNamespace("again").withName("web").delete();
            eventually(() -> assertThat(cluster.slb("again", "web")).isNull());
        }
    }

    @Test
    void theServiceLoadBalancerOfAServiceDeletedWhileNoControllerRunsIsFinalizedByTheNextOne() {
        cluster.pool("gc-pool", "bgp", "10.71.0.0/30");
        cluster.network("gc-net", "bgp", "gc-pool");
        cluster.service("gc", "web", "gc-net");
        eventually(() -> assertThat(cluster.slb("gc", "web").getStatus().getVip()).isEqualTo("10.71.0.1"));
        controller.close();
        cluster.client().services().inNamespace("gc").withName("web").delete();
        // the garbage collector marks the owned object; its finalizer holds it until a controller runs
        eventually(() -> assertThat(cluster.slb("gc", "web").getMetadata().getDeletionTimestamp()).isNotNull());
        restartController();
        eventually(() -> assertThat(cluster.slb("gc", "web")).isNull());
        // the address went back to the pool
        cluster.service("gc", "next", "gc-net");
        eventually(() -> assertThat(cluster.slb("gc", "next").getStatus().getVip()).isEqualTo("10.71.0.1"));
    }

    /**
     * Issue 12 item 2 with the real webhook: a Node joins whose InternalIP is the VIP an ARPAdvertisement
     * announces; moving that advertisement is then refused by the webhook (docs/admission.md). The refusal is a condition
     * and a Warning event carrying the webhook's own message, retried with backoff, and it clears once the cause
     * is gone.
     */
    @Test
    void aWriteTheWebhookRefusesBecomesAConditionAndAWarningWithItsMessageAndIsRetriedWithBackoff() {
        cluster.pool("deny-pool", "arp", "10.72.0.1-10.72.0.1");
        cluster.network("deny-net", "arp", "deny-pool");
        cluster.node("deny-b", "172.30.0.2");
        cluster.service("deny", "web", "deny-net");
        cluster.endpoints("deny", "web", "deny-a");
        eventually(() -> assertThat(cluster.arp("deny", "web").getSpec().getNodeName()).isEqualTo("deny-a"));
        eventually(() -> assertThat(status("deny", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY));

        cluster.node("deny-intruder", "10.72.0.1");
        cluster.slice("deny", "web", List.of(MockCluster.endpoint("10.244.9.9", "deny-b", true)));
        String webhookSays = "spec.address: 10.72.0.1 is the InternalIP of Node deny-intruder";
        eventually(() -> {
            Condition c = condition(status("deny", "web"), JuneauConstants.CONDITION_AVAILABLE);
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_WRITE_DENIED);
            assertThat(c.getMessage()).contains("arpadvertisements.validate.juneau.loutres.me").contains(webhookSays);
        });
        eventually(() -> assertThat(cluster.events("deny", "web", JuneauConstants.REASON_WRITE_DENIED))
                .singleElement().satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains(webhookSays);
                }));
        ARPAdvertisement arp = cluster.arp("deny", "web");
        assertThat(arp.getSpec().getNodeName()).as("the refused move changed nothing").isEqualTo("deny-a");
        assertThat(status("deny", "web").getVip()).isEqualTo("10.72.0.1");
        assertThat(Scrape.unlabelled(controller, "juneau_writes_denied_total")).isGreaterThanOrEqualTo(1.0);

        // backoff from 1 s doubling: a blind retry loop (20 ms doubling) would try about eight times in 4 s
        long before = arpWrites();
        sleep(4_000);
        assertThat(arpWrites() - before).as("writes of the refused advertisement in 4 s").isLessThanOrEqualTo(4);

        // the cause goes away: a retry goes through and the condition clears
        cluster.client().nodes().withName("deny-intruder").delete();
        eventually(Duration.ofSeconds(60), () -> {
            assertThat(cluster.arp("deny", "web").getSpec().getNodeName()).isEqualTo("deny-b");
            assertThat(status("deny", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
        });
    }

    private long arpWrites() {
        String path = "/apis/" + JuneauConstants.GROUP + "/v1alpha1/arpadvertisements/"
                + JuneauConstants.arpAdvertisementName("deny", "web");
        return cluster.dispatcher().requests().stream()
                .filter(r -> MockCluster.CONTROLLER_AGENT.equals(r.userAgent()) && !"GET".equals(r.method()))
                .map(TestDispatcher.Request::path).filter(p -> p.startsWith(path)).count();
    }
}
