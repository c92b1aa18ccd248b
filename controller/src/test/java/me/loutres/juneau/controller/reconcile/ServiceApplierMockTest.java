package me.loutres.juneau.controller.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.TestDispatcher;
import me.loutres.juneau.plan.DesiredArp;
import me.loutres.juneau.plan.ServicePlanner;
import me.loutres.juneau.plan.WriteDenial;
import me.loutres.juneau.runtime.LostLeadershipException;
import me.loutres.juneau.runtime.Term;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The applier's desired-vs-actual writer for the ARPAdvertisement, against the local API server: it writes only the
 * difference between the advertisement the plan wants and the one that exists, and nothing once the term is over.
 */
class ServiceApplierMockTest {
    private static final ServiceKey KEY = new ServiceKey("shop", "web");
    private static final String NAME = JuneauConstants.arpAdvertisementName("shop", "web");

    private MockCluster cluster;
    private KubernetesClient client;
    private ClusterCache cache;
    private ServiceApplier applier;
    private final Term term = new Term(1);

    @BeforeEach
    void setUp() {
        cluster = TwoNodeArpCluster.create();
        client = cluster.newControllerClient();
        cache = new ClusterCache(client, "juneau-system");
        KubeWriter writer = new KubeWriter(client, cache);
        EventRecorder events = new EventRecorder(writer, "test", Clock.systemUTC());
        ControllerMetrics metrics = new ControllerMetrics();
        Requeue none = new NoRequeue();
        applier = new ServiceApplier(cache, writer, events, metrics, none, new MalformedReports(events, metrics),
                new ServiceMemory(Clock.systemUTC()));
    }

    @AfterEach
    void tearDown() {
        if (cache != null) {
            cache.close();
        }
        cluster.close();
    }

    private static DesiredArp.Present wanted(String vip, String node) {
        return new DesiredArp.Present(ServicePlanner.advertisement("shop", "web", "net", vip, node));
    }

    private ARPAdvertisement actual() {
        return cluster.arp("shop", "web");
    }

    /** The controller's writes to ARPAdvertisements since the last call, as "METHOD". */
    private List<String> arpWrites() {
        List<String> w = cluster.dispatcher().requests().stream()
                .filter(r -> r.isWrite() && MockCluster.CONTROLLER_AGENT.equals(r.userAgent())
                        && r.path().contains("arpadvertisements"))
                .map(TestDispatcher.Request::method).toList();
        cluster.dispatcher().clearRequests();
        return w;
    }

    @Test
    void noneThereIsCreatedAndTheSameOneIsNotWrittenAgain() {
        assertThat(applier.writeArp(term, KEY, null, wanted("198.18.0.1", "node-a"))).isNull();
        assertThat(arpWrites()).containsExactly("POST");
        ARPAdvertisement created = actual();
        assertThat(created.getSpec().getNodeName()).isEqualTo("node-a");
        assertThat(created.getMetadata().getLabels()).containsEntry(JuneauConstants.LABEL_NODE, "node-a");

        assertThat(applier.writeArp(term, KEY, created, wanted("198.18.0.1", "node-a"))).isNull();
        assertThat(arpWrites()).as("desired = actual: no write").isEmpty();
        assertThat(actual().getMetadata().getResourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());
    }

    @Test
    void anotherNodeMovesItInPlace() {
        applier.writeArp(term, KEY, null, wanted("198.18.0.1", "node-a"));
        ARPAdvertisement before = actual();
        arpWrites();

        assertThat(applier.writeArp(term, KEY, before, wanted("198.18.0.1", "node-b"))).isNull();

        assertThat(arpWrites()).containsExactly("PATCH");
        ARPAdvertisement after = actual();
        assertThat(after.getMetadata().getUid()).as("same object").isEqualTo(before.getMetadata().getUid());
        assertThat(after.getSpec().getNodeName()).isEqualTo("node-b");
        assertThat(after.getMetadata().getLabels()).containsEntry(JuneauConstants.LABEL_NODE, "node-b");
    }

    @Test
    void anotherAddressReplacesItSinceTheAddressIsImmutable() {
        applier.writeArp(term, KEY, null, wanted("198.18.0.1", "node-a"));
        ARPAdvertisement before = actual();
        arpWrites();

        assertThat(applier.writeArp(term, KEY, before, wanted("198.18.0.2", "node-a"))).isNull();

        assertThat(arpWrites()).containsExactly("DELETE", "POST");
        ARPAdvertisement after = actual();
        assertThat(after.getMetadata().getUid()).isNotEqualTo(before.getMetadata().getUid());
        assertThat(after.getSpec().getAddress()).isEqualTo("198.18.0.2");
    }

    @Test
    void absentDeletesWhatExistsAndUntouchedLeavesItAlone() {
        applier.writeArp(term, KEY, null, wanted("198.18.0.1", "node-a"));
        arpWrites();

        assertThat(applier.writeArp(term, KEY, actual(), new DesiredArp.Untouched())).isNull();
        assertThat(arpWrites()).isEmpty();

        assertThat(applier.writeArp(term, KEY, actual(), new DesiredArp.Absent())).isNull();
        assertThat(arpWrites()).containsExactly("DELETE");
        assertThat(actual()).isNull();
        assertThat(applier.writeArp(term, KEY, null, new DesiredArp.Absent())).isNull();
        assertThat(arpWrites()).as("nothing to delete").isEmpty();
    }

    @Test
    void aRefusedWriteComesBackAsADenialNamingTheWrite() {
        cluster.dispatcher().denyWrites(r -> r.path().contains("arpadvertisements"), "no advertisements today");

        WriteDenial d = applier.writeArp(term, KEY, null, wanted("198.18.0.1", "node-a"));

        assertThat(d).isNotNull();
        assertThat(d.what()).isEqualTo("create ARPAdvertisement \"" + NAME + "\" for node node-a");
        assertThat(d.message()).contains("no advertisements today");
        assertThat(actual()).isNull();
    }

    @Test
    void anEndedTermWritesNothing() {
        term.end();

        assertThatThrownBy(() -> applier.writeArp(term, KEY, null, wanted("198.18.0.1", "node-a")))
                .isInstanceOf(LostLeadershipException.class);
        assertThat(arpWrites()).isEmpty();
        assertThat(actual()).isNull();
    }
}
