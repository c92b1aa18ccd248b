package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.testing.Eventually;
import me.loutres.juneau.controller.testing.HeldReplies;
import me.loutres.juneau.controller.testing.MockCluster;
import org.junit.jupiter.api.Test;

/**
 * Issue 11: on kube-apiserver, the update that removes the last finalizer of an object being deleted deletes it
 * and answers 200 with the final object ("Finalizers", Kubernetes documentation). The watch's DELETED event is sent
 * at the same moment and may reach the controller before that reply. The controller must not keep the final
 * object as its own recent write then: it would shadow the ServiceLoadBalancer of a Service created again with the
 * same name, which would never get a VIP.
 */
class FinalizerReplyRaceMockTest {

    @Test
    void theDeletedEventOvertakingTheFinalizerReplyDoesNotShadowTheServiceCreatedAgain() throws Exception {
        HeldReplies held = new HeldReplies();
        try (MockCluster c = new MockCluster()) {
            c.pool("race-pool", "bgp", "10.74.0.0/30");
            c.network("race-net", "bgp", "race-pool");
            JuneauController ctl = c.startController(MockCluster.fastOptions("race"), held);
            Eventually.until("controller leads", ctl::isLeader);
            c.service("race", "web", "race-net");
            eventually(() -> assertThat(c.slb("race", "web").getStatus().getVip()).isEqualTo("10.74.0.1"));

            // the next update of the ServiceLoadBalancer itself (not its status) is the finalizer's removal
            String slbPath = "/apis/" + JuneauConstants.GROUP + "/v1alpha1/namespaces/race/serviceloadbalancers/web";
            held.holdNext(r -> "PUT".equals(r.method()) && r.uri().getPath().equals(slbPath));
            c.client().services().inNamespace("race").withName("web").delete();
            assertThat(held.awaitHeld(Duration.ofSeconds(30))).as("the finalizer's removal was answered").isTrue();
            // served: the object is gone and DELETED went out on every watch, while the reply is still held
            eventually(() -> assertThat(c.slb("race", "web")).isNull());
            String uid = c.service("race", "web", "race-net").getMetadata().getUid();
            Thread.sleep(500);   // lets the controller's watches deliver the DELETED and the new Service
            held.release();

            eventually(() -> {
                ServiceLoadBalancer slb = c.slb("race", "web");
                assertThat(slb).as("the ServiceLoadBalancer of the new Service").isNotNull();
                assertThat(slb.getMetadata().getOwnerReferences()).singleElement()
                        .satisfies(o -> assertThat(o.getUid()).isEqualTo(uid));
                assertThat(slb.getStatus().getVip()).isEqualTo("10.74.0.1");
            });
            assertThat(held.delivered()).as("the held reply reached the controller").isTrue();
        }
    }
}
