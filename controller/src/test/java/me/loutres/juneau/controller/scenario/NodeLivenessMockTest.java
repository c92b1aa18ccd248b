package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.testing.Eventually;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.plan.NodeLiveness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/phases-and-conditions.md end to end against the mock API server: node agents' Leases (renewed here the way the agent renews
 * them: every 1 s with a 3 s duration while it owns a VIP) decide who may answer ARP. The bounds asserted are the
 * user-facing ones of the issue: a powered-off owner loses its VIPs within the Lease duration plus one renew
 * interval; a released Lease (agent shut down) moves them at once.
 */
class NodeLivenessMockTest extends ScenarioBase {
    private static final String NS = "juneau-system";
    private static final int DURATION_SECONDS = 3;
    private static final Duration RENEW = Duration.ofSeconds(1);

    private ScheduledExecutorService agents;
    /** Nodes whose "agent" renews, and when each last renewed. */
    private final Map<String, Instant> renewing = new ConcurrentHashMap<>();
    private final Map<String, Instant> lastRenewal = new ConcurrentHashMap<>();

    @BeforeEach
    void startAgents() {
        agents = Executors.newSingleThreadScheduledExecutor();
        agents.scheduleAtFixedRate(() -> renewing.keySet().forEach(n -> {
            try {
                Instant now = Instant.now();
                writeLease(n, "agent-" + n, now, DURATION_SECONDS);
                lastRenewal.put(n, now);
            } catch (RuntimeException e) {
                // a missed renewal is what a loaded node does too; the next one comes in a second
            }
        }), 0, RENEW.toMillis(), TimeUnit.MILLISECONDS);
    }

    @AfterEach
    void stopAgents() {
        agents.shutdownNow();
        renewing.clear();
    }

    private void writeLease(String node, String holder, Instant renewed, int seconds) {
        Lease l = new LeaseBuilder().withNewMetadata().withNamespace(NS).withName(NodeLiveness.LEASE_PREFIX + node)
                .endMetadata().withNewSpec().withHolderIdentity(holder).withRenewTime(micro(renewed))
                .withLeaseDurationSeconds(seconds).endSpec().build();
        cluster.client().leases().inNamespace(NS).resource(l).createOr(op -> op.update());
    }

    private static java.time.ZonedDateTime micro(Instant t) {
        return t.truncatedTo(java.time.temporal.ChronoUnit.MICROS).atZone(java.time.ZoneOffset.UTC);
    }

    private void agentRuns(String... nodes) {
        for (String n : nodes) {
            writeLease(n, "agent-" + n, Instant.now(), DURATION_SECONDS);
            lastRenewal.put(n, Instant.now());
            renewing.put(n, Instant.now());
        }
    }

    private String owner(String ns) {
        return Eventually.value("an ARPAdvertisement", () -> {
            ARPAdvertisement a = cluster.arp(ns, "web");
            return a == null ? null : a.getSpec().getNodeName();
        }, n -> n != null);
    }

    private void oneService(String ns, String prefix, String... nodes) {
        cluster.pool(ns + "-pool", "arp", prefix + ".1-" + prefix + ".4");
        cluster.network(ns + "-net", "arp", ns + "-pool");
        cluster.service(ns, "web", ns + "-net");
        cluster.endpoints(ns, "web", nodes);
    }

    @Test
    void anOwnerWhoseLeaseRunsOutLosesItsVipWithinTheLeaseDurationPlusOneRenewInterval() {
        agentRuns("exp-a", "exp-b");
        oneService("exp", "10.81.0", "exp-a", "exp-b");
        String owner = owner("exp");
        String other = owner.equals("exp-a") ? "exp-b" : "exp-a";

        renewing.remove(owner);    // powered off: no more renewals, no event either
        Instant last = lastRenewal.get(owner);
        String moved = Eventually.value("the VIP moves", () -> owner("exp"), n -> n.equals(other));
        Duration took = Duration.between(last, Instant.now());
        assertThat(moved).isEqualTo(other);
        assertThat(took).as("from the owner's last renewal to the move")
                .isLessThanOrEqualTo(Duration.ofSeconds(DURATION_SECONDS).plus(RENEW));
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("exp", "web");
            assertThat(s.getArpAnnouncingNode()).isEqualTo(other);
            assertThat(s.getAdvertisingNodes()).as("a dead node keeps its ready endpoint").contains(owner, other);
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
        });
    }

    @Test
    void aReleasedLeaseMovesTheVipAtOnce() {
        agentRuns("rel-a", "rel-b");
        oneService("rel", "10.82.0", "rel-a", "rel-b");
        String owner = owner("rel");
        String other = owner.equals("rel-a") ? "rel-b" : "rel-a";

        // the agent shuts down: it stops renewing and releases with a long duration, so only the release can
        // explain a move within the next seconds
        renewing.remove(owner);
        Instant released = Instant.now();
        writeLease(owner, "", released, 30);
        Eventually.value("the VIP moves", () -> owner("rel"), n -> n.equals(other));
        assertThat(Duration.between(released, Instant.now())).isLessThan(Duration.ofSeconds(DURATION_SECONDS));
    }

    @Test
    void whenEveryReadyNodeIsDeadNobodyAnswersAndAvailableSaysWhich() {
        agentRuns("dead-a", "dead-b");
        oneService("dead", "10.83.0", "dead-a", "dead-b");
        owner("dead");
        eventually(() -> assertThat(status("dead", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY));

        renewing.clear();
        writeLease("dead-a", "", Instant.now(), 30);
        writeLease("dead-b", "", Instant.now(), 30);
        eventually(() -> {
            assertThat(cluster.arp("dead", "web")).isNull();
            ServiceLoadBalancerStatus s = status("dead", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_DEGRADED);
            assertThat(s.getArpAnnouncingNode()).isNull();
            assertThat(s.getAdvertisingNodes()).containsExactly("dead-a", "dead-b");
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getMessage())
                    .contains("dead by its agent's Lease (dead-a, dead-b)");
        });

        // one agent comes back: its node answers again
        agentRuns("dead-b");
        eventually(() -> assertThat(owner("dead")).isEqualTo("dead-b"));
        eventually(() -> assertThat(status("dead", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY));
    }

    /** As in a cluster: only nodes whose agent holds a Lease may be elected (no --arp-without-agents). */
    @Override
    protected ControllerOptions options(String identity) {
        return MockCluster.fastOptions(identity).withArpWithoutAgents(false);
    }

    @Test
    void aNodeWithoutAnAgentLeaseIsNoArpCandidateUntilItsAgentComes() {
        oneService("nolease", "10.84.0", "nolease-a");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("nolease", "web");
            assertThat(s.getAdvertisingNodes()).as("it has a ready backend").containsExactly("nolease-a");
            assertThat(s.getArpAnnouncingNode()).isNull();
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ALLOCATED);
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getMessage())
                    .contains("no node with a ready backend runs a juneau-agent", "nolease-a", "--arp-without-agents");
        });
        assertThat(cluster.arp("nolease", "web")).isNull();

        // its agent starts: the Lease appearing is enough to elect it (no other event comes)
        agentRuns("nolease-a");
        assertThat(owner("nolease")).isEqualTo("nolease-a");
        eventually(() -> assertThat(status("nolease", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY));
    }
}
