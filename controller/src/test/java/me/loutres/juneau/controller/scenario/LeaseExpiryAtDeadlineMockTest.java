package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.plan.NodeLiveness;
import me.loutres.juneau.runtime.Leadership;
import me.loutres.juneau.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md, "Node liveness after an outage", with the controller's DEFAULT Lease timing (retry period 2 s)
 * and no agent renewing often enough to move what the Lease watch has shown: the VIP's other node holds an idle 30 s
 * Lease it does not renew during the test. The only Lease events are then the leader's own renewals, every 2 s: a
 * node whose 3 s Lease ran out used to wait for the next of them, up to one retry period late, after an API-server
 * freeze as well as without one. The controller now writes a tick through the watch at the deadline
 * ({@code NodeLivenessWatch}): both failovers come within the Lease duration plus 1 s.
 */
class LeaseExpiryAtDeadlineMockTest extends ScenarioBase {
    private static final String NS = "juneau-system";
    private static final int OWNED_SECONDS = 3;
    private static final int IDLE_SECONDS = 30;

    private ScheduledExecutorService agents;
    private final Set<String> renewing = ConcurrentHashMap.newKeySet();
    /** The renew time each node's agent last wrote successfully. */
    private final Map<String, Instant> lastRenewal = new ConcurrentHashMap<>();

    @BeforeEach
    void startAgents() {
        agents = Executors.newScheduledThreadPool(2);
    }

    @AfterEach
    void stopAgents() {
        agents.shutdownNow();
        renewing.clear();
    }

    /** client-go's 15 s / 10 s / 2 s, as the controller runs by default; only nodes with an agent Lease are elected. */
    @Override
    protected ControllerOptions options(String identity) {
        return MockCluster.fastOptions(identity).withLease(Leadership.Timing.defaults()).withArpWithoutAgents(false);
    }

    private void ownerRuns(String node) {
        renewing.add(node);
        writeLease(node, OWNED_SECONDS);
        agents.scheduleAtFixedRate(() -> {
            if (renewing.contains(node)) {
                try {
                    writeLease(node, OWNED_SECONDS);
                } catch (RuntimeException e) {
                    // a renewal that failed on the frozen server: the agent tries again next second
                }
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    private void writeLease(String node, int seconds) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        cluster.client().leases().inNamespace(NS).resource(new LeaseBuilder().withNewMetadata().withNamespace(NS)
                .withName(NodeLiveness.LEASE_PREFIX + node).endMetadata().withNewSpec().withHolderIdentity("agent-" + node)
                .withRenewTime(now.atZone(ZoneOffset.UTC)).withLeaseDurationSeconds(seconds).endSpec().build())
                .createOr(op -> op.update());
        lastRenewal.put(node, now);
    }

    private String owner(String ns) {
        return Eventually.value("an ARPAdvertisement", () -> {
            ARPAdvertisement a = cluster.arp(ns, "web");
            return a == null ? null : a.getSpec().getNodeName();
        }, n -> n != null);
    }

    /** A Service on {@code owner} (renewing a 3 s Lease) and {@code idle} (one 30 s Lease, never renewed). */
    private void oneReadyService(String ns, String prefix, String owner, String idle) {
        ownerRuns(owner);
        cluster.pool(ns + "-pool", "arp", prefix + ".1-" + prefix + ".4");
        cluster.network(ns + "-net", "arp", ns + "-pool");
        cluster.service(ns, "web", ns + "-net");
        cluster.endpoints(ns, "web", owner);
        assertThat(owner(ns)).isEqualTo(owner);
        eventually(() -> assertThat(status(ns, "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY));
        writeLease(idle, IDLE_SECONDS);
        cluster.endpoints(ns, "web", owner, idle);
        settle();
        assertThat(owner(ns)).isEqualTo(owner);
    }

    private Instant movedTo(String ns, String node) {
        Eventually.value("the VIP moves to " + node, () -> owner(ns), n -> n.equals(node));
        return Instant.now();
    }

    @Test
    void aNodeThatStopsRenewingLosesItsVipAtItsDeadlineNotAtTheLeadersNextRenewal() {
        // three times: where the deadline falls in the leader's 2 s rhythm varies
        for (int i = 1; i <= 3; i++) {
            String ns = "dl" + i;
            oneReadyService(ns, "10.93." + i, ns + "-a", ns + "-b");

            renewing.remove(ns + "-a"); // switched off
            sleep(50); // a renewal under way lands
            Instant deadline = lastRenewal.get(ns + "-a").plusSeconds(OWNED_SECONDS);
            Duration late = Duration.between(deadline, movedTo(ns, ns + "-b"));
            System.out.println("LeaseExpiryAtDeadlineMockTest: VIP moved " + late.toMillis()
                    + " ms after the Lease deadline (no outage, retry period 2 s)");
            assertThat(late).as("from the Lease deadline to the move").isLessThanOrEqualTo(Duration.ofSeconds(1));
        }
    }

    @Test
    void aNodeThatDiedDuringAFreezeLosesItsVipWithinTheLeaseDurationPlusOneSecondWithTheDefaultRetryPeriod()
            throws Exception {
        oneReadyService("df", "10.94.0", "df-a", "df-b");

        renewing.remove("df-a"); // powered off as the API server froze
        Instant thawed;
        try (AutoCloseable frozen = cluster.apiServerFrozen()) {
            Thread.sleep(2000L * OWNED_SECONDS);
            thawed = Instant.now();
        }
        Duration took = Duration.between(thawed, movedTo("df", "df-b"));
        System.out.println("LeaseExpiryAtDeadlineMockTest: VIP moved " + took.toMillis()
                + " ms after the thaw (Lease 3 s, retry period 2 s)");
        assertThat(took).as("from the end of the freeze to the move")
                .isLessThanOrEqualTo(Duration.ofSeconds(OWNED_SECONDS + 1));
    }
}
