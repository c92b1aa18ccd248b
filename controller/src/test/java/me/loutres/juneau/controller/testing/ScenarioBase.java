package me.loutres.juneau.controller.testing;

import me.loutres.juneau.testing.Eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.JuneauController;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * One mock cluster and one running controller per test class; each test works in its own namespace, pools and
 * networks, so tests do not see each other's objects.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ScenarioBase {
    protected MockCluster cluster;
    protected JuneauController controller;

    @BeforeAll
    void startCluster() {
        cluster = new MockCluster();
        beforeController(cluster);
        controller = cluster.startController(options("controller-" + getClass().getSimpleName()));
        Eventually.until("controller leads", controller::isLeader);
    }

    /** How the class's controller runs ({@link MockCluster#fastOptions} unless a class needs otherwise). */
    protected me.loutres.juneau.controller.ControllerOptions options(String identity) {
        return MockCluster.fastOptions(identity);
    }

    /** Objects that must exist before the controller starts. */
    protected void beforeController(MockCluster c) {
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    protected ServiceLoadBalancerStatus status(String ns, String name) {
        ServiceLoadBalancer slb = cluster.slb(ns, name);
        assertThat(slb).as("ServiceLoadBalancer %s/%s", ns, name).isNotNull();
        assertThat(slb.getStatus()).as("status of %s/%s", ns, name).isNotNull();
        return slb.getStatus();
    }

    protected static Condition condition(ServiceLoadBalancerStatus s, String type) {
        return s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst()
                .orElseThrow(() -> new AssertionError("no condition " + type + " in " + s.getConditions()));
    }

    protected List<LoadBalancerIngress> ingress(String ns, String name) {
        Service svc = cluster.svc(ns, name);
        if (svc.getStatus() == null || svc.getStatus().getLoadBalancer() == null
                || svc.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return svc.getStatus().getLoadBalancer().getIngress();
    }

    /** Stops the controller (releasing the Lease) and starts a fresh one: a restart of the process. */
    protected void restartController() {
        controller.close();
        controller = cluster.startController(options("controller-" + getClass().getSimpleName() + "-"
                + System.nanoTime()));
        Eventually.until("restarted controller leads", controller::isLeader);
    }

    /** Lets time pass (to count what a controller does meanwhile, never to wait for a result). */
    protected static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }

    /** Waits until the controller has nothing left to do and the echoes of its writes are in. */
    protected void settle() {
        Eventually.until("controller settled", () -> cluster.settled(controller, java.time.Duration.ofMillis(250)));
    }
}
