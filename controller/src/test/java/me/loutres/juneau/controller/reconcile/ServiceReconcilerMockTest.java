package me.loutres.juneau.controller.reconcile;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.plan.DesiredService;
import me.loutres.juneau.plan.ServicePlanner;
import me.loutres.juneau.plan.ServiceSnapshot;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.runtime.Result;
import me.loutres.juneau.runtime.Term;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One planner call per pass, on every path (docs/design.md, "The path of one Service"), against the local API
 * server: a new Service goes from nothing to an address, an advertisement and an ingress in one call; a refused
 * advertisement is answered by the plan itself; a book that moved under the plan makes the pass start over at once
 * without writing anything. The planner's calls are counted through the reconciler's planner hook.
 */
class ServiceReconcilerMockTest {
    private static final ServiceKey KEY = new ServiceKey("shop", "web");

    private MockCluster cluster;
    private ClusterCache cache;
    private ServiceReconciler reconciler;
    private LeaderState st;
    /** The snapshots the planner was called with. */
    private final List<ServiceSnapshot> calls = new ArrayList<>();
    /** Runs after each planner call, before the applier: what another pass might do in between. */
    private Runnable afterPlan = () -> {
    };

    @BeforeEach
    void setUp() {
        cluster = new MockCluster();
        cluster.pool("pool-a", "arp", "198.18.0.1-198.18.0.9");
        cluster.network("net", "arp", "pool-a");
        cluster.service("shop", "web", "net");
        cluster.endpoints("shop", "web", "node-a");
        KubernetesClient client = cluster.newControllerClient();
        cache = new ClusterCache(client, "juneau-system");
        cache.start().join();
        KubeWriter writer = new KubeWriter(client, cache);
        EventRecorder events = new EventRecorder(writer, "test", Clock.systemUTC());
        ControllerMetrics metrics = new ControllerMetrics();
        Requeue none = new NoRequeue();
        reconciler = new ServiceReconciler(cache, writer, events, metrics, none, Clock.systemUTC(),
                new MalformedReports(events, metrics), true, ManagedServices.CLASSED, snapshot -> {
                    calls.add(snapshot);
                    DesiredService d = ServicePlanner.pass(snapshot);
                    afterPlan.run();
                    return d;
                });
        st = new LeaderState(new Term(1), new AllocationBook(), new PendingServices());
        eventually(() -> {
            assertThat(cache.service(KEY)).isNotNull();
            assertThat(cache.endpointSlicesOf(KEY)).isNotEmpty();
            assertThat(cache.pool("pool-a")).isNotNull();
            assertThat(cache.network("net")).isNotNull();
        });
        cluster.dispatcher().clearRequests();
    }

    @AfterEach
    void tearDown() {
        if (cache != null) {
            cache.close();
        }
        cluster.close();
    }

    /** The controller's writes since the last call, as "METHOD path". */
    private List<String> writes() {
        List<String> w = cluster.dispatcher().requests().stream()
                .filter(r -> r.isWrite() && MockCluster.CONTROLLER_AGENT.equals(r.userAgent()))
                .map(r -> r.method() + " " + r.path()).toList();
        cluster.dispatcher().clearRequests();
        return w;
    }

    @Test
    void aNewServiceGoesFromNothingToAnnouncedInOnePlannerCall() {
        Result r = reconciler.reconcile(KEY, st);

        assertThat(r).isEqualTo(Result.DONE);
        assertThat(calls).hasSize(1);
        ServiceLoadBalancer slb = cluster.slb("shop", "web");
        assertThat(slb.getStatus().getVip()).isEqualTo("198.18.0.1");
        assertThat(slb.getStatus().getObservedGeneration()).as("the written shell's generation")
                .isEqualTo(slb.getMetadata().getGeneration()).isPositive();
        assertThat(slb.getStatus().getArpAnnouncingNode()).isEqualTo("node-a");
        assertThat(cluster.arp("shop", "web").getSpec().getNodeName()).isEqualTo("node-a");
        assertThat(cluster.svc("shop", "web").getStatus().getLoadBalancer().getIngress())
                .extracting(LoadBalancerIngress::getIp).containsExactly("198.18.0.1");
        assertThat(st.book().holds("shop/web", me.loutres.juneau.ip.Ipv4.parse("198.18.0.1"))).isTrue();
        assertThat(writes()).isNotEmpty();

        // the cache catches up with its own writes: the next pass is one call again, and writes nothing
        eventually(() -> assertThat(cache.serviceLoadBalancer(KEY).getStatus()).isNotNull());
        eventually(() -> assertThat(cache.arpAdvertisement(JuneauConstants.arpAdvertisementName("shop", "web")))
                .isNotNull());
        eventually(() -> assertThat(cache.service(KEY).getStatus().getLoadBalancer().getIngress()).isNotEmpty());
        assertThat(reconciler.reconcile(KEY, st)).isEqualTo(Result.DONE);
        assertThat(calls).hasSize(2);
        assertThat(writes()).isEmpty();
    }

    @Test
    void aRefusedAdvertisementIsAnsweredByThePlanItselfNotASecondCall() {
        cluster.dispatcher().denyWrites(r -> r.path().contains("arpadvertisements"), "no advertisements today");

        Result r = reconciler.reconcile(KEY, st);

        assertThat(r.failed()).isTrue();
        assertThat(r.cause()).isEqualTo("write-denied");
        assertThat(calls).hasSize(1);
        ServiceLoadBalancer slb = cluster.slb("shop", "web");
        assertThat(slb.getStatus().getVip()).isEqualTo("198.18.0.1");
        assertThat(slb.getStatus().getArpAnnouncingNode()).as("nobody answers an advertisement refused").isNull();
        assertThat(slb.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_WRITE_DENIED);
            assertThat(c.getMessage()).contains("no advertisements today");
        });
        assertThat(cluster.arp("shop", "web")).isNull();
        assertThat(cluster.events("shop", "web", JuneauConstants.REASON_WRITE_DENIED)).hasSize(1);
    }

    @Test
    void aBookThatMovedUnderThePlanStartsThePassOverAtOnceWritingNothing() {
        afterPlan = () -> st.book().allocate("shop/other", List.of("pool-a"), OptionalLong.empty());

        Result stale = reconciler.reconcile(KEY, st);

        assertThat(stale.failed()).isFalse();
        assertThat(stale.requeueAfter()).as("at once").isEqualTo(Duration.ZERO);
        assertThat(calls).hasSize(1);
        assertThat(writes()).as("nothing written on stale grounds").isEmpty();
        assertThat(cluster.slb("shop", "web")).isNull();
        assertThat(st.book().allocationOf("shop/web")).isEmpty();

        afterPlan = () -> {
        };
        assertThat(reconciler.reconcile(KEY, st)).isEqualTo(Result.DONE);
        assertThat(calls).hasSize(2);
        assertThat(cluster.slb("shop", "web").getStatus().getVip()).as("the next free one").isEqualTo("198.18.0.2");
    }

    @Test
    void aBookChangeThatLeavesTheAnswerAsPlannedIsCommitted() {
        long[] versions = new long[2];
        afterPlan = () -> {
            // a Node outside the pool appears: the book changes, its answer for this Service does not
            versions[0] = calls.get(0).allocator().version();
            st.book().syncNodes(List.of(new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata()
                    .withName("node-x").endMetadata().withNewStatus().addNewAddress().withType("InternalIP")
                    .withAddress("192.0.2.10").endAddress().endStatus().build()));
            versions[1] = st.book().view((a, b) -> true).version();
        };

        Result r = reconciler.reconcile(KEY, st);

        assertThat(versions[1]).as("the book moved under the plan").isNotEqualTo(versions[0]);
        assertThat(r).isEqualTo(Result.DONE);
        assertThat(calls).hasSize(1);
        assertThat(cluster.slb("shop", "web").getStatus().getVip()).isEqualTo("198.18.0.1");
    }
}
