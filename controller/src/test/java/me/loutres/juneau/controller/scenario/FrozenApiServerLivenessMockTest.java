package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.plan.NodeLiveness;
import me.loutres.juneau.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md, "Node liveness after an outage", end to end: the API server frozen (as by SIGSTOP: requests
 * wait, watches deliver nothing) for twice the agents' 3 s Lease. The agents could not renew either and, backing off,
 * renew again only {@link #AGENT_BACKOFF} after it is back, later than the controller takes its Lease again: the Leases
 * the controller then sees ran out. It must not blame the nodes for its own outage — and a node that really died
 * meanwhile still loses its VIP within the Lease duration plus one second after the API server is back.
 */
class FrozenApiServerLivenessMockTest extends ScenarioBase {
    private static final String NS = "juneau-system";
    private static final int DURATION_SECONDS = 3;
    private static final Duration FREEZE = Duration.ofSeconds(2L * DURATION_SECONDS);
    /** How long after the thaw the agents renew again (their retries backed off during the outage). */
    private static final Duration AGENT_BACKOFF = Duration.ofMillis(1500);

    private ScheduledExecutorService agents;
    private final Set<String> renewing = ConcurrentHashMap.newKeySet();
    private final List<Watch> watches = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startAgents() {
        // one thread per agent: a renewal waiting on the frozen server holds up only its own agent, as on a node
        agents = Executors.newScheduledThreadPool(2);
    }

    @AfterEach
    void stopAgents() {
        agents.shutdownNow();
        renewing.clear();
        watches.forEach(Watch::close);
    }

    private void agentRuns(String node) {
        renewing.add(node);
        writeLease(node);
        agents.scheduleAtFixedRate(() -> {
            if (renewing.contains(node)) {
                try {
                    writeLease(node);
                } catch (RuntimeException e) {
                    // a renewal that failed (timed out on the frozen server) is what a real agent sees too
                }
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    private void writeLease(String node) {
        cluster.client().leases().inNamespace(NS).resource(new LeaseBuilder().withNewMetadata().withNamespace(NS)
                .withName(NodeLiveness.LEASE_PREFIX + node).endMetadata().withNewSpec().withHolderIdentity("agent-" + node)
                .withRenewTime(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS).atZone(java.time.ZoneOffset.UTC))
                .withLeaseDurationSeconds(DURATION_SECONDS).endSpec().build()).createOr(op -> op.update());
    }

    /**
     * Freezes the API server for {@link #FREEZE}; the agents among {@code alive} stop renewing for the freeze and
     * {@link #AGENT_BACKOFF} after it. Returns when it thawed.
     */
    private Instant freezeWhileAgentsWait(Set<String> alive) throws Exception {
        renewing.clear();
        Instant thawed;
        try (AutoCloseable frozen = cluster.apiServerFrozen()) {
            Thread.sleep(FREEZE.toMillis());
            thawed = Instant.now();
        }
        agents.schedule(() -> renewing.addAll(alive), AGENT_BACKOFF.toMillis(), TimeUnit.MILLISECONDS);
        return thawed;
    }

    /** As in a cluster: only nodes whose agent holds a Lease may be elected. */
    @Override
    protected ControllerOptions options(String identity) {
        return MockCluster.fastOptions(identity).withArpWithoutAgents(false);
    }

    private String owner(String ns) {
        return Eventually.value("an ARPAdvertisement", () -> {
            ARPAdvertisement a = cluster.arp(ns, "web");
            return a == null ? null : a.getSpec().getNodeName();
        }, n -> n != null);
    }

    private String oneReadyService(String ns, String prefix, String nodeA, String nodeB) {
        agentRuns(nodeA);
        agentRuns(nodeB);
        cluster.pool(ns + "-pool", "arp", prefix + ".1-" + prefix + ".4");
        cluster.network(ns + "-net", "arp", ns + "-pool");
        cluster.service(ns, "web", ns + "-net");
        cluster.endpoints(ns, "web", nodeA, nodeB);
        String owner = owner(ns);
        eventually(() -> assertThat(status(ns, "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY));
        return owner;
    }

    /** Every state the API server stored from now on, in order (the watch queues through the freeze too). */
    private List<String> record(String ns) {
        List<String> seen = new CopyOnWriteArrayList<>();
        watches.add(cluster.client().resources(ARPAdvertisement.class).withName("slb-" + ns + "-web")
                .watch(new Recorder<>(seen, a -> "arp " + (a.getSpec() == null ? null : a.getSpec().getNodeName()))));
        watches.add(cluster.client().resources(ServiceLoadBalancer.class).inNamespace(ns).withName("web")
                .watch(new Recorder<>(seen, s -> "phase " + (s.getStatus() == null ? null : s.getStatus().getPhase()))));
        return seen;
    }

    private record Recorder<T>(List<String> seen, java.util.function.Function<T, String> what) implements Watcher<T> {
        @Override
        public void eventReceived(Action action, T resource) {
            seen.add(action == Action.DELETED ? "deleted " + what.apply(resource) : what.apply(resource));
        }

        @Override
        public void onClose(WatcherException cause) {
        }
    }

    @Test
    void aFrozenApiServerBlamesNoNodeForItsOwnOutage() throws Exception {
        String owner = oneReadyService("fz", "10.91.0", "fz-a", "fz-b");
        List<String> seen = record("fz");

        freezeWhileAgentsWait(Set.of("fz-a", "fz-b"));
        // past the grace a recovered node gets (one Lease duration) and a retry period more
        sleep(Duration.ofSeconds(DURATION_SECONDS + 2).toMillis());

        assertThat(cluster.arp("fz", "web").getSpec().getNodeName()).isEqualTo(owner);
        assertThat(seen).as("every state stored after the freeze began").allSatisfy(s ->
                assertThat(s).isIn("arp " + owner, "phase " + JuneauConstants.PHASE_READY));
    }

    @Test
    void aNodeThatDiedDuringTheFreezeLosesItsVipWithinTheLeaseDurationPlusOneSecondAfterIt() throws Exception {
        String owner = oneReadyService("fd", "10.92.0", "fd-a", "fd-b");
        String other = owner.equals("fd-a") ? "fd-b" : "fd-a";

        // the owner is powered off just as the API server froze: its Lease runs out during the freeze
        Instant thawed = freezeWhileAgentsWait(Set.of(other));
        String moved = Eventually.value("the VIP moves", () -> owner("fd"), n -> n.equals(other));
        Duration took = Duration.between(thawed, Instant.now());
        assertThat(moved).isEqualTo(other);
        assertThat(took).as("from the end of the freeze to the move")
                .isLessThanOrEqualTo(Duration.ofSeconds(DURATION_SECONDS + 1));
    }
}
