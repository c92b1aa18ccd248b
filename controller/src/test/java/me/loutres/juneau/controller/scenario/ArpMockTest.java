package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.stream.IntStream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.election.ArpElection;
import org.junit.jupiter.api.Test;

/** docs/phases-and-conditions.md: one ARPAdvertisement per arp VIP, moved in place, sticky; none for bgp; name collisions reported. */
class ArpMockTest extends ScenarioBase {

    /** Of a few node names, the one the rendezvous hash likes least for this VIP: any other beats it. */
    private static String weakestFor(String vip) {
        return IntStream.range(0, 26).mapToObj(i -> "node-" + (char) ('a' + i))
                .min((x, y) -> Long.compareUnsigned(ArpElection.score(vip, x), ArpElection.score(vip, y)))
                .orElseThrow();
    }

    /** A node name that beats {@code incumbent} for this VIP in the rendezvous hash, so only stickiness keeps it. */
    private static String challengerOf(String vip, String incumbent) {
        return IntStream.range(0, 1000).mapToObj(i -> "w" + i + "-worker")
                .filter(n -> Long.compareUnsigned(ArpElection.score(vip, n), ArpElection.score(vip, incumbent)) > 0)
                .findFirst().orElseThrow();
    }

    @Test
    void theAdvertisementMovesInPlaceAndStaysWithItsNodeWhileThatNodeIsReady() {
        cluster.pool("mv-pool", "arp", "10.50.0.1-10.50.0.8");
        cluster.network("mv-net", "arp", "mv-pool");
        cluster.service("mv", "web", "mv-net");
        String incumbent = weakestFor("10.50.0.1");
        cluster.endpoints("mv", "web", incumbent);
        eventually(() -> {
            assertThat(status("mv", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
            ARPAdvertisement arp = cluster.arp("mv", "web");
            assertThat(arp).isNotNull();
            assertThat(arp.getSpec().getNodeName()).isEqualTo(incumbent);
            assertThat(arp.getSpec().getAddress()).isEqualTo("10.50.0.1");
            assertThat(arp.getSpec().getExternalNetwork()).isEqualTo("mv-net");
            assertThat(arp.getMetadata().getLabels())
                    .containsEntry(JuneauConstants.LABEL_SERVICE_NAMESPACE, "mv")
                    .containsEntry(JuneauConstants.LABEL_SERVICE_NAME, "web");
        });
        String uid = cluster.arp("mv", "web").getMetadata().getUid();

        // a node the hash prefers joins: the holder keeps the VIP (every move costs a neighbour-cache timeout)
        String challenger = challengerOf("10.50.0.1", incumbent);
        cluster.slice("mv", "web", List.of(MockCluster.endpoint("10.244.1.1", incumbent, true),
                MockCluster.endpoint("10.244.1.2", challenger, true)));
        eventually(() -> assertThat(status("mv", "web").getAdvertisingNodes()).contains(challenger));
        settle();
        assertThat(cluster.arp("mv", "web").getSpec().getNodeName()).isEqualTo(incumbent);
        assertThat(status("mv", "web").getArpAnnouncingNode()).isEqualTo(incumbent);

        // the holder's backend turns not ready: the advertisement moves, same object
        cluster.slice("mv", "web", List.of(MockCluster.endpoint("10.244.1.1", incumbent, false),
                MockCluster.endpoint("10.244.1.2", challenger, true)));
        eventually(() -> {
            ARPAdvertisement arp = cluster.arp("mv", "web");
            assertThat(arp.getSpec().getNodeName()).isEqualTo(challenger);
            assertThat(arp.getMetadata().getUid()).isEqualTo(uid);
            assertThat(status("mv", "web").getArpAnnouncingNode()).isEqualTo(challenger);
        });
        eventually(() -> assertThat(cluster.events("mv", "web", JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED))
                .extracting(e -> e.getMessage())
                .anySatisfy(m -> assertThat(m).contains(incumbent + " -> " + challenger)));

        // nobody left: the advertisement goes, the VIP stays, the phase says Degraded
        cluster.slice("mv", "web", List.of(MockCluster.endpoint("10.244.1.2", challenger, false)));
        eventually(() -> {
            assertThat(cluster.arp("mv", "web")).isNull();
            ServiceLoadBalancerStatus s = status("mv", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_DEGRADED);
            assertThat(s.getVip()).isEqualTo("10.50.0.1");
            assertThat(s.getArpAnnouncingNode()).isNull();
        });
    }

    @Test
    void stickinessSurvivesARestartBecauseTheCurrentNodeIsReadFromTheAdvertisement() {
        cluster.pool("st-pool", "arp", "10.51.0.1-10.51.0.8");
        cluster.network("st-net", "arp", "st-pool");
        cluster.service("st", "web", "st-net");
        String incumbent = weakestFor("10.51.0.1");
        cluster.endpoints("st", "web", incumbent);
        eventually(() -> assertThat(cluster.arp("st", "web")).isNotNull());
        String challenger = challengerOf("10.51.0.1", incumbent);

        restartController();
        cluster.slice("st", "web", List.of(MockCluster.endpoint("10.244.2.1", incumbent, true),
                MockCluster.endpoint("10.244.2.2", challenger, true)));
        eventually(() -> assertThat(status("st", "web").getAdvertisingNodes()).contains(challenger));
        settle();
        assertThat(cluster.arp("st", "web").getSpec().getNodeName()).isEqualTo(incumbent);
    }

    @Test
    void onlyAnExistingNodeIsNamedAndANodeThatAppearsIsElectedThroughTheNodeIndex() {
        cluster.pool("gh-pool", "arp", "10.54.0.1-10.54.0.8");
        cluster.network("gh-net", "arp", "gh-pool");
        cluster.service("gh", "web", "gh-net");
        // written directly: the endpoint names a node that has no Node object (yet)
        cluster.create(MockCluster.sliceOf("gh", "web", List.of(MockCluster.endpoint("10.244.3.1", "ghost", true))));
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("gh", "web");
            assertThat(s.getAdvertisingNodes()).containsExactly("ghost");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ALLOCATED);
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getMessage()).contains("none is elected to answer ARP");
        });
        settle();
        assertThat(cluster.arp("gh", "web")).isNull();

        cluster.ensureNode("ghost");
        eventually(() -> {
            assertThat(cluster.arp("gh", "web")).isNotNull();
            assertThat(cluster.arp("gh", "web").getSpec().getNodeName()).isEqualTo("ghost");
            assertThat(status("gh", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
        });
    }

    @Test
    void bgpNetworksHaveNoAdvertisementAndAStaleOneIsDeleted() {
        cluster.pool("bgp-pool", "bgp", "10.52.0.0/24");
        cluster.network("bgp-net", "bgp", "bgp-pool");
        ARPAdvertisement stale = new ARPAdvertisement();
        stale.setMetadata(new ObjectMetaBuilder().withName(JuneauConstants.arpAdvertisementName("bgp", "web"))
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAMESPACE, "bgp")
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAME, "web").build());
        stale.setSpec(new ARPAdvertisementSpec("old-arp-net", "10.52.0.1", "node-1"));
        // left over from an arp network (people may not write these: the webhook says "managed by Juneau")
        cluster.beforeTheWebhook(() -> cluster.create(stale));

        cluster.service("bgp", "web", "bgp-net");
        cluster.endpoints("bgp", "web", "node-1", "node-2");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("bgp", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
            assertThat(s.getAdvertisingNodes()).containsExactly("node-1", "node-2");
            assertThat(s.getArpAnnouncingNode()).isNull();
            assertThat(cluster.arp("bgp", "web")).isNull();
        });
    }

    @Test
    void aNameCollisionIsReportedAndTheOtherServicesAdvertisementIsNeverTouched() {
        cluster.pool("col-pool", "arp", "10.53.0.1-10.53.0.8");
        cluster.network("col-net", "arp", "col-pool");
        cluster.service("col-a", "x", "col-net");            // slb-col-a-x
        cluster.endpoints("col-a", "x", "node-1");
        eventually(() -> assertThat(cluster.arp("col-a", "x")).isNotNull());
        ARPAdvertisement before = cluster.arp("col-a", "x");

        cluster.service("col", "a-x", "col-net");            // slb-col-a-x as well
        cluster.endpoints("col", "a-x", "node-2");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("col", "a-x");
            assertThat(s.getVip()).isEqualTo("10.53.0.2");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ALLOCATED);
            assertThat(s.getArpAnnouncingNode()).isNull();
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getReason())
                    .isEqualTo(JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT);
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getMessage())
                    .contains("\"slb-col-a-x\"").contains("Service col-a/x");
        });
        eventually(() -> assertThat(cluster.events("col", "a-x", JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT))
                .singleElement().satisfies(e -> assertThat(e.getType()).isEqualTo("Warning")));
        settle();
        ARPAdvertisement after = cluster.arp("col-a", "x");
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo(before.getMetadata().getResourceVersion());
        assertThat(after.getSpec()).isEqualTo(before.getSpec());
    }
}
