package me.loutres.juneau.controller.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.controller.testing.FreezingRelay;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.TestDispatcher;
import me.loutres.juneau.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * A term expires by itself (docs/operations.md, "Leader election"): only the leader's connection freezes — its
 * Lease renew hangs, its watches stall, its writes are stuck on the wire — while a standby on its own connection
 * sees the Lease go stale and takes over. When the partition heals, the old leader must send nothing more: its
 * term ran out at its renew deadline, whatever its HTTP calls were doing, so no write of its reaches the server
 * after the standby took over. Every Service ends with its own address.
 */
class FrozenLeaderMockTest {
    private static final String LEADER_AGENT = "juneau-frozen-leader";
    private static final int BEFORE = 30;
    private static final int DURING = 30;

    @Test
    void aLeaderCutOffFromTheApiServerStopsWritingAtItsDeadlineWhileTheStandbyTakesOver() throws Exception {
        try (MockCluster c = new MockCluster(); FreezingRelay relay = new FreezingRelay(c.server().port())) {
            c.pool("frz-pool", "bgp", "10.99.0.0/24");
            c.network("frz-net", "bgp", "frz-pool");
            ControllerOptions fast = MockCluster.fastOptions("frozen-leader");
            JuneauController leader = c.startControllerVia(fast, relay.url(), LEADER_AGENT);
            Eventually.until("the relayed controller leads", leader::isLeader);
            JuneauController standby = c.startController("standby");
            Eventually.until("the standby is ready", standby::isReady);

            for (int i = 0; i < BEFORE; i++) {
                c.service("frz", "before-" + i, "frz-net");
            }
            // mid-work: some Services allocated by the leader, others still queued
            Eventually.until("the leader is allocating", () -> vips(c).size() >= 5);
            relay.freeze();
            for (int i = 0; i < DURING; i++) {
                c.service("frz", "during-" + i, "frz-net");
            }
            Eventually.until(Duration.ofSeconds(30), "the standby takes over", standby::isLeader);
            // the partition outlasts the takeover by a few retry periods (the old leader's own view is not asked)
            Thread.sleep(4 * fast.lease().retryPeriod().toMillis());
            long healed = System.nanoTime();
            relay.heal();

            Eventually.eventually(Duration.ofSeconds(60), () -> assertThat(vips(c)).hasSize(BEFORE + DURING));
            Eventually.until("the standby settles", () -> c.settled(standby, Duration.ofMillis(500)));
            Map<String, String> vips = vips(c);
            assertThat(new HashSet<>(vips.values())).as("no address twice").hasSize(BEFORE + DURING);
            List<TestDispatcher.Request> late = c.dispatcher().requests().stream()
                    .filter(r -> LEADER_AGENT.equals(r.userAgent()) && r.isWrite() && r.atNanos() > healed).toList();
            assertThat(late).as("writes of the old leader after the partition healed").isEmpty();
            assertThat(leader.isLeader()).isFalse();
            assertThat(standby.isLeader()).isTrue();
            assertThat(c.dispatcher().requests().stream()
                    .filter(r -> LEADER_AGENT.equals(r.userAgent()) && r.atNanos() > healed).count())
                    .as("the old leader is talking again (standing by)").isPositive();
        }
    }

    private static Map<String, String> vips(MockCluster c) {
        return c.slbs().stream().filter(s -> s.getStatus() != null && s.getStatus().getVip() != null)
                .collect(Collectors.toMap(s -> s.getMetadata().getName(), (ServiceLoadBalancer s) -> s.getStatus()
                        .getVip()));
    }
}
