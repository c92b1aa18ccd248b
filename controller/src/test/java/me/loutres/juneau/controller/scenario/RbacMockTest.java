package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.Scrape;
import me.loutres.juneau.testing.RbacCheck;
import org.junit.jupiter.api.Test;

/**
 * Least privilege, checked both ways: every API call the controller makes while it goes through every path of
 * docs/phases-and-conditions.md (recorded by the mock API server) is granted by {@code manifests/base/controller/rbac.yaml}, and the
 * file grants nothing those calls do not use.
 */
class RbacMockTest {
    static final Path RBAC = Path.of("..", "manifests", "base", "controller", "rbac.yaml");

    @Test
    void everyCallIsGrantedAndEveryGrantIsUsed() throws Exception {
        try (MockCluster c = new MockCluster()) {
            exerciseEveryPath(c);
            List<String[]> calls = c.dispatcher().requests().stream()
                    .filter(r -> MockCluster.CONTROLLER_AGENT.equals(r.userAgent()))
                    .map(r -> new String[] {r.method(), r.path()}).toList();
            RbacCheck.assertCallsMatchGrants("controller", RBAC, calls, c.client());
            // the cluster's ServiceCIDRs (docs/allocation.md, "Pools overlapping the cluster's ranges"): read
            // through the informer only, a list and a watch, never a write
            assertThat(calls.stream().filter(call -> call[1].contains("/servicecidrs"))
                    .map(call -> call[0] + (call[1].contains("watch=true") ? " watch" : " list")).distinct())
                    .containsExactlyInAnyOrder("GET list", "GET watch");
            // who may use a network reads Namespace labels (docs/install.md, "Sharing a cluster between teams"):
            // a list and a watch of namespaces, never a get or a write
            assertThat(calls.stream().filter(call -> call[1].matches("/api/v1/namespaces(\\?.*)?"))
                    .map(call -> call[0] + (call[1].contains("watch=true") ? " watch" : " list")).distinct())
                    .containsExactlyInAnyOrder("GET list", "GET watch");
        }
    }

    /** Every kind of write and read: create/update/move/delete, finalizer, statuses, events (also repeated), Lease. */
    private static void exerciseEveryPath(MockCluster c) {
        c.node("node-a", "192.168.10.1");
        // both Nodes exist before any slice names them: a Node whose add event reached the controller after the
        // slice naming it made one extra move (node -> <none> -> node), so the third move repeated no event
        c.node("node-b", "192.168.10.2");
        c.pool("rbac-arp", "arp", "10.90.0.1-10.90.0.2");
        c.network("rbac-arp-net", "arp", "rbac-arp");
        c.pool("rbac-bgp", "bgp", "10.91.0.0/30");
        c.network("rbac-bgp-net", "bgp", "rbac-bgp");
        JuneauController ctl = c.startController("rbac-first");

        c.service("r", "web", "rbac-arp-net");
        c.endpoints("r", "web", "node-a");
        eventually(() -> assertThat(c.arp("r", "web")).isNotNull());
        // moves back and forth: the third move repeats the first event (an update of the existing event)
        for (String node : List.of("node-b", "node-a", "node-b")) {
            c.endpoints("r", "web", node);
            eventually(() -> assertThat(c.arp("r", "web").getSpec().getNodeName()).isEqualTo(node));
        }
        c.slice("r", "web", List.of(MockCluster.endpoint("10.244.0.1", "node-b", false)));
        eventually(() -> assertThat(c.arp("r", "web")).isNull());

        // the spec of a ServiceLoadBalancer follows its Service's annotations
        c.serviceRequesting("r", "wants", "rbac-arp-net", "10.90.0.2");
        eventually(() -> assertThat(c.slb("r", "wants")).isNotNull());
        c.client().services().inNamespace("r").withName("wants").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"" + JuneauConstants.ANNOTATION_REQUESTED_IP + "\":null}}}");
        eventually(() -> assertThat(c.slb("r", "wants").getSpec().getRequestedIP()).isNull());

        // a bgp Service, then deletion through the finalizer
        c.service("r", "bgp", "rbac-bgp-net");
        eventually(() -> assertThat(c.slb("r", "bgp").getStatus().getVip()).isNotNull());
        c.client().services().inNamespace("r").withName("bgp").delete();
        eventually(() -> assertThat(c.slb("r", "bgp")).isNull());

        // a Service that stops being managed: the controller deletes its ServiceLoadBalancer (a deleted Service's
        // one is deleted by the garbage collector, the controller only removes the finalizer)
        c.service("r", "leaves", "rbac-bgp-net");
        eventually(() -> assertThat(c.slb("r", "leaves").getStatus().getVip()).isNotNull());
        c.client().services().inNamespace("r").withName("leaves").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"type\":\"ClusterIP\",\"loadBalancerClass\":null}}");
        eventually(() -> assertThat(c.slb("r", "leaves")).isNull());

        // a node whose agent released its Lease: the controller writes its BGPSession Unknown (docs/bgp.md)
        try (var agent = c.newAgentClient("node-a")) {
            var s = new me.loutres.juneau.api.v1alpha1.BGPSession();
            s.getMetadata().setName("tor.node-a");
            s.getMetadata().setLabels(java.util.Map.of(JuneauConstants.LABEL_PEER, "tor", JuneauConstants.LABEL_NODE,
                    "node-a"));
            var spec = new me.loutres.juneau.api.v1alpha1.BGPSessionSpec();
            spec.setPeer("tor");
            spec.setNodeName("node-a");
            s.setSpec(spec);
            agent.resource(s).create();
        }
        c.client().leases().inNamespace("juneau-system").resource(new io.fabric8.kubernetes.api.model.coordination.v1
                .LeaseBuilder().withNewMetadata().withNamespace("juneau-system").withName("juneau-agent-node-a")
                .endMetadata().withNewSpec().withHolderIdentity("").withLeaseDurationSeconds(30)
                .withRenewTime(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC)).endSpec().build()).create();
        eventually(() -> assertThat(c.client().resources(me.loutres.juneau.api.v1alpha1.BGPSession.class)
                .withName("tor.node-a").get().getStatus()).isNotNull());
        // a network that lets one labelled namespace in: a label change of that Namespace re-queues its Service,
        // which then keeps its VIP as NotAllowed
        c.ensureNamespace("r-team");
        c.client().namespaces().withName("r-team").edit(ns -> {
            ns.getMetadata().setLabels(java.util.Map.of("tenant", "gold"));
            return ns;
        });
        c.client().resources(me.loutres.juneau.api.v1alpha1.ExternalNetwork.class).withName("rbac-bgp-net").edit(n -> {
            me.loutres.juneau.api.v1alpha1.ServiceAllocation sa = new me.loutres.juneau.api.v1alpha1.ServiceAllocation();
            sa.setNamespaces(List.of("r"));
            sa.setNamespaceSelectors(List.of(new io.fabric8.kubernetes.api.model.LabelSelectorBuilder()
                    .addToMatchLabels("tenant", "gold").build()));
            n.getSpec().setServiceAllocation(sa);
            return n;
        });
        eventually(() -> {
            c.service("r-team", "tenant", "rbac-bgp-net");
            assertThat(c.svc("r-team", "tenant")).isNotNull();
        });
        eventually(() -> assertThat(c.slb("r-team", "tenant").getStatus().getVip()).isNotNull());
        c.client().namespaces().withName("r-team").edit(ns -> {
            ns.getMetadata().setLabels(java.util.Map.of("tenant", "silver"));
            return ns;
        });
        eventually(() -> assertThat(c.slb("r-team", "tenant").getStatus().getPhase())
                .isEqualTo(JuneauConstants.PHASE_ERROR));

        // a restart: the Lease is released by the first and taken by the second, which restores by listing
        ctl.close();
        JuneauController second = c.startController("rbac-second");
        eventually(() -> assertThat(Scrape.allocated(second, "rbac-arp")).isEqualTo(2.0));
        second.close();
    }
}
