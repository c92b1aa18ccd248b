package me.loutres.juneau.controller.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.plan.ServicePlanner;
import me.loutres.juneau.runtime.LostLeadershipException;
import me.loutres.juneau.runtime.Term;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The one set of verbs every kind is written through, against the local API server: nothing reaches the server once
 * the term has expired, a write at a stale resourceVersion gets a 409 and the RecentWrites overlay forgets the key, a
 * delete forgets it, and a cluster-scoped kind (ARPAdvertisement, AddressPool), a namespaced one (ServiceLoadBalancer)
 * and an untracked one (Event) are all written where they live. The cache is not started, so what the overlay holds
 * is only what the writer told it.
 */
class KubeWriterMockTest {
    private static final String ARP = JuneauConstants.arpAdvertisementName("shop", "web");

    private MockCluster cluster;
    private ClusterCache cache;
    private KubeWriter writer;
    private WrittenKinds kinds;
    private final AtomicLong nanos = new AtomicLong();
    /** A leader's term of 10 s on a clock the test moves. */
    private final Term term = new Term(1, nanos::get, Duration.ofSeconds(10), 0);

    @BeforeEach
    void setUp() {
        cluster = TwoNodeArpCluster.create();
        KubernetesClient client = cluster.newControllerClient();
        cache = new ClusterCache(client, "juneau-system");
        writer = new KubeWriter(client, cache);
        kinds = writer.kinds();
    }

    @AfterEach
    void tearDown() {
        cache.close();
        cluster.close();
    }

    private static ARPAdvertisement advertisement(String node) {
        return ServicePlanner.advertisement("shop", "web", "net", "198.18.0.1", node);
    }

    private ServiceLoadBalancer shell() {
        return ServicePlanner.shell(cluster.service("shop", "web", "net"), null).orElseThrow();
    }

    private AddressPool poolRead() {
        return cluster.getPool("pool-a");
    }

    /** The controller's requests since the last call, as "METHOD path". */
    private List<String> controllerRequests() {
        List<String> r = cluster.dispatcher().requests().stream()
                .filter(q -> MockCluster.CONTROLLER_AGENT.equals(q.userAgent()))
                .map(q -> q.method() + " " + q.path()).toList();
        cluster.dispatcher().clearRequests();
        return r;
    }

    @Test
    void everyVerbRefusesToWriteOnceTheTermHasExpired() {
        ARPAdvertisement arp = writer.create(term, kinds.arps(), advertisement("node-a"));
        AddressPool pool = poolRead();
        controllerRequests();
        nanos.set(Duration.ofSeconds(11).toNanos());
        assertThat(term.expired()).isTrue();

        Map<String, Runnable> verbs = new LinkedHashMap<>();
        verbs.put("create", () -> writer.create(term, kinds.slbs(), shell()));
        verbs.put("update", () -> writer.update(term, kinds.arps(), arp));
        verbs.put("updateStatus", () -> writer.updateStatus(term, kinds.pools(),
                WriteBodies.withStatus(pool, new AddressPoolStatus(9L, 0L, 9L))));
        verbs.put("mergePatch", () -> writer.mergePatch(term, kinds.arps(), arp,
                ArpWriter.MATCH.patch(arp, advertisement("node-b"))));
        verbs.put("delete", () -> writer.delete(term, kinds.arps(), arp));
        // the one write to a kind the agents own: a dead node's BGPSession marked Unknown (DeadNodeSessions)
        me.loutres.juneau.api.v1alpha1.BGPSession session = new me.loutres.juneau.api.v1alpha1.BGPSession();
        session.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("tor.node-a")
                .withResourceVersion("1").build());
        verbs.put("deadNodeSessionStatus", () -> writer.deadNodeSessionStatus(term, session));
        verbs.forEach((verb, write) -> assertThatThrownBy(write::run).as(verb)
                .isInstanceOf(LostLeadershipException.class));

        assertThat(controllerRequests()).as("nothing reached the server").isEmpty();
        assertThat(cluster.arp("shop", "web").getSpec().getNodeName()).isEqualTo("node-a");
        assertThat(kinds.arps().recent().read(ARP, null)).as("the overlay keeps what was written")
                .isNotNull();
    }

    @Test
    void aStaleStatusOfAClusterScopedKindGetsA409AndTheOverlayForgetsIt() {
        AddressPool read = poolRead();
        AddressPool written = writer.updateStatus(term, kinds.pools(),
                WriteBodies.withStatus(read, new AddressPoolStatus(9L, 1L, 8L)));
        assertThat(kinds.pools().recent().read("pool-a", null)).isEqualTo(written);

        // the same base again: its resourceVersion is the one before the write above
        assertThatThrownBy(() -> writer.updateStatus(term, kinds.pools(),
                WriteBodies.withStatus(read, new AddressPoolStatus(9L, 2L, 7L))))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));

        assertThat(kinds.pools().recent().read("pool-a", null)).as("forgotten").isNull();
        assertThat(poolRead().getStatus().getAllocated()).isEqualTo(1L);
    }

    @Test
    void aStaleUpdateOfANamespacedKindGetsA409AndTheOverlayForgetsIt() {
        ServiceLoadBalancer created = writer.create(term, kinds.slbs(), shell());
        assertThat(created.getMetadata().getNamespace()).isEqualTo("shop");
        ServiceLoadBalancer relabelled = WriteBodies.copy(created, ServiceLoadBalancer.class);
        relabelled.getMetadata().setLabels(Map.of("a", "1"));
        writer.update(term, kinds.slbs(), relabelled);
        assertThat(kinds.slbs().recent().read("shop/web", null).getMetadata().getLabels()).containsEntry("a", "1");

        ServiceLoadBalancer stale = WriteBodies.copy(created, ServiceLoadBalancer.class);
        stale.getMetadata().setLabels(Map.of("a", "2"));
        assertThatThrownBy(() -> writer.update(term, kinds.slbs(), stale))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));

        assertThat(kinds.slbs().recent().read("shop/web", null)).as("forgotten").isNull();
        assertThat(cluster.slb("shop", "web").getMetadata().getLabels()).containsEntry("a", "1");
    }

    @Test
    void aStaleMergePatchGetsA409AndTheOverlayForgetsIt() {
        ARPAdvertisement created = writer.create(term, kinds.arps(), advertisement("node-a"));
        writer.mergePatch(term, kinds.arps(), created, ArpWriter.MATCH.patch(created, advertisement("node-b")));
        assertThat(kinds.arps().recent().read(ARP, null).getSpec().getNodeName()).isEqualTo("node-b");

        assertThatThrownBy(() -> writer.mergePatch(term, kinds.arps(), created,
                ArpWriter.MATCH.patch(created, advertisement("node-a"))))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));

        assertThat(kinds.arps().recent().read(ARP, null)).as("forgotten").isNull();
        ARPAdvertisement now = cluster.arp("shop", "web");
        assertThat(now.getSpec().getNodeName()).isEqualTo("node-b");
        assertThat(now.getMetadata().getLabels()).containsEntry(JuneauConstants.LABEL_NODE, "node-b");
        assertThat(now.getMetadata().getUid()).as("moved in place").isEqualTo(created.getMetadata().getUid());
    }

    @Test
    void aDeleteForgetsTheKeyForAClusterScopedAndANamespacedKind() {
        ARPAdvertisement arp = writer.create(term, kinds.arps(), advertisement("node-a"));
        ServiceLoadBalancer slb = writer.create(term, kinds.slbs(), shell());
        assertThat(kinds.arps().recent().read(ARP, null)).isNotNull();
        assertThat(kinds.slbs().recent().read("shop/web", null)).isNotNull();

        writer.delete(term, kinds.arps(), arp);
        writer.delete(term, kinds.slbs(), slb);

        assertThat(kinds.arps().recent().read(ARP, null)).isNull();
        assertThat(kinds.slbs().recent().read("shop/web", null)).isNull();
        assertThat(cluster.arp("shop", "web")).isNull();
        assertThat(cluster.slb("shop", "web").getMetadata().getDeletionTimestamp())
                .as("deleted, held by the controller's finalizer").isNotNull();
        assertThat(controllerRequests()).filteredOn(r -> r.startsWith("DELETE")).containsExactly(
                "DELETE /apis/juneau.loutres.me/v1alpha1/arpadvertisements/" + ARP,
                "DELETE /apis/juneau.loutres.me/v1alpha1/namespaces/shop/serviceloadbalancers/web");
    }

    @Test
    void aNamespacedStatusIsWrittenThroughTheStatusSubresource() {
        ServiceLoadBalancer created = writer.create(term, kinds.slbs(), shell());
        ServiceLoadBalancerStatus status = new ServiceLoadBalancerStatus();
        status.setPhase(JuneauConstants.PHASE_PENDING);
        controllerRequests();

        ServiceLoadBalancer written = writer.updateStatus(term, kinds.slbs(), WriteBodies.withStatus(created, status));

        assertThat(controllerRequests()).containsExactly(
                "PUT /apis/juneau.loutres.me/v1alpha1/namespaces/shop/serviceloadbalancers/web/status");
        assertThat(written.getStatus().getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
        assertThat(cluster.slb("shop", "web").getStatus().getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
        assertThat(kinds.slbs().recent().read("shop/web", null)).isEqualTo(written);
    }

    @Test
    void anUntrackedKindIsCreatedAndPatchedInItsNamespace() {
        cluster.ensureNamespace("shop");
        Event event = new EventBuilder().withNewMetadata().withNamespace("shop").withName("web.1").endMetadata()
                .withNewInvolvedObject().withKind("Service").withNamespace("shop").withName("web").endInvolvedObject()
                .withReason("Example").withMessage("m").withType(EventRecorder.NORMAL)
                .withFirstTimestamp("2026-01-01T00:00:00Z").withLastTimestamp("2026-01-01T00:00:00Z").build();
        writer.create(term, kinds.events(), event);

        Event target = new EventBuilder().withNewMetadata().withNamespace("shop").withName("web.1").endMetadata()
                .build();
        writer.mergePatch(term, kinds.events(), target, "{\"lastTimestamp\":\"2026-01-02T00:00:00Z\"}");

        Event stored = cluster.client().v1().events().inNamespace("shop").withName("web.1").get();
        assertThat(stored.getLastTimestamp()).isEqualTo("2026-01-02T00:00:00Z");
        assertThat(stored.getFirstTimestamp()).as("only lastTimestamp moves").isEqualTo("2026-01-01T00:00:00Z");
        assertThat(stored.getMessage()).isEqualTo("m");
    }
}
