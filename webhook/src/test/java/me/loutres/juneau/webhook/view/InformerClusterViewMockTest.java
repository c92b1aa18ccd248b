package me.loutres.juneau.webhook.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPPeerSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkBgp;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.webhook.testing.MockApiServer;
import me.loutres.juneau.webhook.testing.TestObjects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class InformerClusterViewMockTest {
    KubernetesClient client;

    @BeforeEach
    void crds() {
        MockApiServer.installCrds(client);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the informer cache did not catch up within 20 s");
            }
            Thread.sleep(20);
        }
    }

    private static BGPPeer peer(String name, String address, String bfdProfile) {
        BGPPeer peer = new BGPPeer();
        peer.setMetadata(new ObjectMetaBuilder().withName(name).build());
        BGPPeerSpec spec = new BGPPeerSpec();
        spec.setPeerAddress(address);
        spec.setPeerASN(64512L);
        spec.setMyASN(64513L);
        spec.setBfdProfile(bfdProfile);
        peer.setSpec(spec);
        return peer;
    }

    @Test
    void answersTheBgpLookupsThroughIndexesAndKeepsNoSecretValue() throws Exception {
        client.resource(peer("tor-1", "198.18.0.1", "fast")).create();
        client.resource(peer("tor-2", "198.18.0.1", null)).create();
        BFDProfile fast = new BFDProfile();
        fast.setMetadata(new ObjectMetaBuilder().withName("fast").build());
        client.resource(fast).create();
        ExternalNetwork network = new ExternalNetwork();
        network.setMetadata(new ObjectMetaBuilder().withName("edge").build());
        ExternalNetworkSpec networkSpec = new ExternalNetworkSpec("bgp", List.of("pool-a"));
        ExternalNetworkBgp bgp = new ExternalNetworkBgp();
        bgp.setPeers(List.of("tor-2"));
        networkSpec.setBgp(bgp);
        network.setSpec(networkSpec);
        client.resource(network).create();
        client.secrets().inNamespace("juneau-system").resource(new SecretBuilder().withNewMetadata()
                .withName("bgp-auth").withNamespace("juneau-system").endMetadata()
                .addToData("password", "c2VjcmV0").addToData("long", java.util.Base64.getEncoder().encodeToString(
                        "x".repeat(81).getBytes(java.nio.charset.StandardCharsets.US_ASCII))).build()).create();
        client.secrets().inNamespace("default").resource(new SecretBuilder().withNewMetadata()
                .withName("other").withNamespace("default").endMetadata().addToData("password", "eA==").build()).create();

        try (InformerClusterView view = InformerClusterView.start(client)) {
            await(view::synced);
            assertThat(view.bgpPeersWithAddress("198.18.0.1")).extracting(p -> p.getMetadata().getName())
                    .containsExactlyInAnyOrder("tor-1", "tor-2");
            assertThat(view.bgpPeersWithAddress("198.18.0.2")).isEmpty();
            assertThat(view.bgpPeersNamingBfdProfile("fast")).extracting(p -> p.getMetadata().getName())
                    .containsExactly("tor-1");
            assertThat(view.bfdProfile("fast")).isPresent();
            assertThat(view.externalNetworksNamingPeer("tor-2")).extracting(n -> n.getMetadata().getName())
                    .containsExactly("edge");
            assertThat(view.externalNetworksNamingPeer("tor-1")).isEmpty();
            assertThat(view.systemSecretKeys("bgp-auth")).contains(java.util.Set.of("password", "long"));
            // the store keeps, per key, whether the value could be a BGP password, never the value
            assertThat(view.systemSecretPasswordProblem("bgp-auth", "password")).isEmpty();
            assertThat(view.systemSecretPasswordProblem("bgp-auth", "long")).contains("is 81 bytes long");
            assertThat(view.systemSecretKeys("other")).as("only juneau-system is read").isEmpty();
            assertThat(view.informer("Secret").getStore().list()).singleElement()
                    .satisfies(secret -> assertThat(secret.toString()).doesNotContain("c2VjcmV0")
                            .doesNotContain("eHh4eHh4"));

            client.resource(peer("tor-3", "198.18.0.2", null)).create();
            await(() -> view.bgpPeersWithAddress("198.18.0.2").size() == 1);
        }
    }

    /** Who may use a network reads Namespace labels: kept lean (name and labels), followed on change. */
    @Test
    void keepsTheNamespacesNamesAndLabelsOnlyAndFollowsTheirLabels() throws Exception {
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("team-a").addToLabels("tenant", "gold").addToAnnotations("note", "a long annotation")
                .endMetadata().build()).create();
        try (InformerClusterView view = InformerClusterView.start(client)) {
            await(view::synced);
            assertThat(view.namespaceLabels("team-a")).contains(java.util.Map.of("tenant", "gold"));
            assertThat(view.namespaceLabels("team-b")).as("an unknown Namespace has no labels to judge").isEmpty();
            assertThat(view.informer("Namespace").getStore().list()).singleElement()
                    .satisfies(ns -> assertThat(((io.fabric8.kubernetes.api.model.Namespace) ns).getMetadata()
                            .getAnnotations()).isNullOrEmpty());

            client.namespaces().withName("team-a").edit(ns -> {
                ns.getMetadata().getLabels().put("tenant", "silver");
                return ns;
            });
            await(() -> view.namespaceLabels("team-a").equals(java.util.Optional.of(java.util.Map.of("tenant", "silver"))));
        }
    }

    @Test
    void readsEveryKindFromItsCacheAndFollowsChanges() throws Exception {
        client.resource(TestObjects.bgpPool("pool-a", "203.0.113.0/28")).create();
        ExternalNetwork network = new ExternalNetwork();
        network.setMetadata(new ObjectMetaBuilder().withName("public").build());
        ExternalNetworkSpec networkSpec = new ExternalNetworkSpec();
        networkSpec.setType("bgp");
        networkSpec.setAddressPools(List.of("pool-a"));
        network.setSpec(networkSpec);
        client.resource(network).create();
        ServiceLoadBalancer slb = new ServiceLoadBalancer();
        slb.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("shop").build());
        client.resource(slb).create();
        ARPAdvertisement arp = new ARPAdvertisement();
        arp.setMetadata(new ObjectMetaBuilder().withName("slb-shop-web").build());
        ARPAdvertisementSpec arpSpec = new ARPAdvertisementSpec();
        arpSpec.setAddress("198.51.100.10");
        arp.setSpec(arpSpec);
        client.resource(arp).create();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build()).create();

        try (InformerClusterView view = InformerClusterView.start(client)) {
            await(view::synced);
            assertThat(view.addressPool("pool-a")).hasValueSatisfying(p ->
                    assertThat(p.getSpec().getAddresses()).containsExactly("203.0.113.0/28"));
            assertThat(view.addressPool("pool-b")).isEmpty();
            assertThat(view.externalNetwork("public")).isPresent();
            assertThat(view.externalNetworks()).hasSize(1);
            assertThat(view.serviceLoadBalancer("shop", "web")).isPresent();
            assertThat(view.serviceLoadBalancer("default", "web")).isEmpty();
            assertThat(view.serviceLoadBalancers()).hasSize(1);
            assertThat(view.arpAdvertisements()).extracting(a -> a.getSpec().getAddress()).containsExactly("198.51.100.10");
            assertThat(view.node("node-a")).isPresent();
            assertThat(view.nodes()).hasSize(1);

            client.resource(TestObjects.bgpPool("pool-b", "203.0.113.16/28")).create();
            await(() -> view.addressPools().size() == 2);
            assertThat(view.addressPool("pool-b")).isPresent();

            client.resources(AddressPool.class).withName("pool-a").delete();
            await(() -> view.addressPool("pool-a").isEmpty());
        }
    }

    @Test
    void answersTheIndexedQuestionsAndFollowsNewVersions() throws Exception {
        client.resource(TestObjects.bgpPool("pool-a", "203.0.113.0/28")).create();
        ExternalNetwork network = new ExternalNetwork();
        network.setMetadata(new ObjectMetaBuilder().withName("public").build());
        ExternalNetworkSpec networkSpec = new ExternalNetworkSpec();
        networkSpec.setType("bgp");
        networkSpec.setAddressPools(List.of("pool-a"));
        network.setSpec(networkSpec);
        client.resource(network).create();
        ServiceLoadBalancer slb = new ServiceLoadBalancer();
        slb.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("shop").build());
        me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec slbSpec = new me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec();
        slbSpec.setExternalNetwork("public");
        slb.setSpec(slbSpec);
        me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus status = new me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus();
        status.setVip("203.0.113.1");
        slb.setStatus(status);
        client.resource(slb).create();
        client.resource(slb).updateStatus();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().withNewSpec()
                .withPodCIDRs("10.244.1.0/24").endSpec().withNewStatus().addNewAddress().withType("InternalIP")
                .withAddress("192.0.2.7").endAddress().endStatus().build()).create();
        client.resource(new io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDRBuilder().withNewMetadata()
                .withName("kubernetes").endMetadata().withNewSpec().withCidrs("10.96.0.0/12", "fd00:10:96::/108")
                .endSpec().build()).create();
        long vip = me.loutres.juneau.ip.Ipv4.parse("203.0.113.1");

        try (InformerClusterView view = InformerClusterView.start(client)) {
            await(view::synced);
            await(() -> !view.serviceLoadBalancersWithVip(vip).isEmpty());
            assertThat(view.serviceLoadBalancersWithVip(vip)).extracting(s -> s.getMetadata().getName()).containsExactly("web");
            assertThat(view.serviceLoadBalancersOfNetwork("public")).hasSize(1);
            assertThat(view.externalNetworksListingPool("pool-a")).extracting(n -> n.getMetadata().getName())
                    .containsExactly("public");
            assertThat(view.poolEntriesOverlapping(new me.loutres.juneau.ip.AddressRange(vip, vip)))
                    .extracting(e -> e.poolName() + " " + e.text()).containsExactly("pool-a 203.0.113.0/28");
            assertThat(view.nodeInternalIpsIn(me.loutres.juneau.ip.AddressRange.single(
                    me.loutres.juneau.ip.Ipv4.parse("192.0.2.7")))).extracting(h -> h.value()).containsExactly("node-a");
            assertThat(view.learntRangesOverlapping(me.loutres.juneau.ip.AddressRange.single(
                    me.loutres.juneau.ip.Ipv4.parse("10.244.1.9")))).extracting(r -> r.source())
                    .containsExactly("Node node-a podCIDR 10.244.1.0/24");
            assertThat(view.learntRangesOverlapping(me.loutres.juneau.ip.AddressRange.single(
                    me.loutres.juneau.ip.Ipv4.parse("10.100.0.1")))).extracting(r -> r.source())
                    .containsExactly("ServiceCIDR kubernetes 10.96.0.0/12");

            ServiceLoadBalancer moved = client.resources(ServiceLoadBalancer.class).inNamespace("shop").withName("web").get();
            moved.getStatus().setVip("203.0.113.2");
            client.resource(moved).updateStatus();
            await(() -> view.serviceLoadBalancersWithVip(vip).isEmpty());
            assertThat(view.serviceLoadBalancersWithVip(me.loutres.juneau.ip.Ipv4.parse("203.0.113.2"))).hasSize(1);
            client.resources(AddressPool.class).withName("pool-a").delete();
            await(() -> view.poolEntriesOverlapping(new me.loutres.juneau.ip.AddressRange(vip, vip)).isEmpty());
        }
    }

    @Test
    void aNamedObjectTheCacheHasNotSeenYetIsReadFromTheApiServer() {
        client.resource(TestObjects.bgpPool("pool-a", "203.0.113.0/28")).create();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build()).create();
        InformerClusterView view = InformerClusterView.unstarted(client);
        // the pool and network of one `kubectl apply` reach the webhook before the watch event reaches the cache
        assertThat(view.addressPool("pool-a")).hasValueSatisfying(p ->
                assertThat(p.getSpec().getAddresses()).containsExactly("203.0.113.0/28"));
        assertThat(view.node("node-a")).isPresent();
        assertThat(view.addressPool("pool-b")).isEmpty();
        assertThat(view.externalNetwork("public")).isEmpty();
        // lists are never read through: they are the cache's
        assertThat(view.addressPools()).isEmpty();
    }

    @Test
    void anInformerThatStoppedForGoodIsNamedForLivenessAndAClosedViewIsNot() throws Exception {
        try (InformerClusterView view = InformerClusterView.start(client)) {
            await(view::synced);
            assertThat(view.stopped()).isEmpty();
            view.informer("Node").stop();
            await(() -> !view.stopped().isEmpty());
            assertThat(view.stopped()).containsExactly("Node");
            view.close();
            assertThat(view.stopped()).as("closing is not being stuck").isEmpty();
        }
    }
}
