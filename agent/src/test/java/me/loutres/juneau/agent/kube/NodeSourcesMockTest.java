package me.loutres.juneau.agent.kube;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.plan.PlanObjects;
import me.loutres.juneau.agent.testing.AgentCluster;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.runtime.watch.ApiConnection;
import me.loutres.juneau.runtime.watch.WatchedCache;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's ServiceLoadBalancers against the mock API server (issue 38): the node's view holds only those whose
 * status names the node and follows one that leaves or joins it; another node's Service does not wake the agent.
 */
class NodeSourcesMockTest {
    final AgentCluster cluster = new AgentCluster();
    final WatchedCache watches = new WatchedCache("agent watches", new ApiConnection(), WatchedCache.Policy.DEFAULT);
    final AtomicInteger wakes = new AtomicInteger();

    @AfterEach
    void stop() {
        watches.close();
        cluster.close();
    }

    void create(String name, String vip, String... nodes) {
        ServiceLoadBalancer slb = PlanObjects.slb(name, "public", vip, nodes);
        slb.getMetadata().setUid(null);
        ServiceLoadBalancerStatus status = slb.getStatus();
        ServiceLoadBalancer created = cluster.client().resources(ServiceLoadBalancer.class).inNamespace("default")
                .resource(slb).create();
        created.setStatus(status); // as the controller writes it: a create leaves the status out
        cluster.client().resources(ServiceLoadBalancer.class).inNamespace("default").resource(created)
                .updateStatus();
    }

    void advertisedBy(String name, String... nodes) {
        cluster.client().resources(ServiceLoadBalancer.class).inNamespace("default").withName(name)
                .editStatus(s -> {
                    s.getStatus().setAdvertisingNodes(List.of(nodes));
                    return s;
                });
    }

    List<String> viewed(NodeSources sources) {
        return sources.view(List.of()).loadBalancers().stream()
                .map(s -> s.getMetadata().getName() + "=" + s.getStatus().getVip()).sorted().toList();
    }

    @Test
    void theViewHoldsOnlyTheNodesServiceLoadBalancersAndFollowsThem() {
        create("web", "198.18.100.1", "node-a", "node-b");
        create("db", "198.18.100.2", "node-b");
        create("idle", "198.18.100.3");
        NodeSources sources = new NodeSources(cluster.newAgentClient(), watches, "node-a", "juneau-system", null,
                Clock.systemUTC(), new AgentMetrics(), wakes::incrementAndGet);
        watches.start();
        eventually(() -> assertThat(watches.synced()).isTrue());

        eventually(() -> assertThat(viewed(sources)).containsExactly("web=198.18.100.1"));

        advertisedBy("db", "node-b", "node-a");
        eventually(() -> assertThat(viewed(sources)).containsExactly("db=198.18.100.2", "web=198.18.100.1"));

        advertisedBy("web", "node-b");
        eventually(() -> assertThat(viewed(sources)).as("its route goes").containsExactly("db=198.18.100.2"));

        cluster.client().resources(ServiceLoadBalancer.class).inNamespace("default").withName("db").delete();
        eventually(() -> assertThat(viewed(sources)).isEmpty());

        create("other", "198.18.100.4", "node-b");
        advertisedBy("idle", "node-c");
        create("mine", "198.18.100.5", "node-a");
        eventually(() -> assertThat(viewed(sources)).containsExactly("mine=198.18.100.5"));
        assertThat(wakes.get()).as("the node's own changes woke the agent").isPositive();
    }

    @Test
    void anotherNodesServiceDoesNotWakeTheAgentAndTheNodesOwnDo() {
        LoadBalancerStore store = new LoadBalancerStore("node-a");
        LoadBalancerEvents events = new LoadBalancerEvents(new java.util.concurrent.atomic.AtomicReference<>(store),
                wakes::incrementAndGet);
        var other = LoadBalancerStoreTest.g(LoadBalancerStoreTest.slb("db", "3", "u2", "\"node-b\"", ""));
        var mine = LoadBalancerStoreTest.g(LoadBalancerStoreTest.slb("web", "4", "u1", "\"node-a\"", ""));
        store.put("shop/db", other);
        store.put("shop/web", mine);

        events.onAdd(other);
        assertThat(wakes.get()).as("a Service of node-b only").isZero();
        events.onAdd(mine);
        assertThat(wakes.get()).isEqualTo(1);
        events.onUpdate(mine, mine);
        events.onDelete(mine, false);
        assertThat(wakes.get()).as("the informer hands these over only for what the store held").isEqualTo(3);
    }
}
