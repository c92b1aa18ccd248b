package me.loutres.juneau.controller.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.testing.Eventually;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;

/**
 * "Never twice" (docs/allocation.md): 500 Services, 480 addresses. The controller is stopped mid-way and another one
 * takes over (a restart; then two replicas contending for the Lease, the leader crashing without releasing
 * it). No VIP ever changes, no address is held twice, and every Service ends Ready or Pending for exhaustion.
 */
class RestartMockTest {
    private static final int SERVICES = 500;
    private static final int ADDRESSES = 480;
    private static final String FIRST = "10.70.0.1";

    @Test
    void aRestartMidWayChangesNoVipAndHandsOutNoAddressTwice() {
        try (MockCluster c = populated()) {
            JuneauController first = c.startController("restart-first");
            Map<String, String> before = vipsWhenAtLeast(c, SERVICES / 3);
            first.close();
            Map<String, String> atStop = vips(c);

            c.startController("restart-second");
            assertConverged(c, atStop);
            assertThat(atStop).containsAllEntriesOf(before);
        }
    }

    @Test
    void twoReplicasContendForTheLeaseAndTheLeaderCrashesMidWay() {
        try (MockCluster c = populated()) {
            JuneauController a = c.startController("replica-a");
            JuneauController b = c.startController("replica-b");
            Eventually.until("one replica leads", () -> a.isLeader() || b.isLeader());
            assertThat(a.isLeader() && b.isLeader()).as("both lead").isFalse();
            JuneauController leader = a.isLeader() ? a : b;
            JuneauController standby = leader == a ? b : a;
            Eventually.until("a standby is ready too", standby::isReady);

            vipsWhenAtLeast(c, SERVICES / 3);
            c.crash(leader);    // the Lease is not released: the standby waits for it to expire
            Map<String, String> atCrash = vips(c);

            Eventually.until("the standby takes over", standby::isLeader);
            assertConverged(c, atCrash);
        }
    }

    private static MockCluster populated() {
        MockCluster c = new MockCluster();
        c.pool("big", "arp", FIRST + "-" + Ipv4.format(Ipv4.parse(FIRST) + ADDRESSES - 1));
        c.network("big-net", "arp", "big");
        for (int i = 0; i < SERVICES; i++) {
            c.service("ns-" + (i % 10), "svc-" + i, "big-net");
            c.endpoints("ns-" + (i % 10), "svc-" + i, "node-" + (i % 7), "node-" + ((i + 3) % 7));
        }
        return c;
    }

    private static Map<String, String> vipsWhenAtLeast(MockCluster c, int n) {
        return Eventually.value("at least " + n + " VIPs recorded", () -> vips(c), m -> m.size() >= n);
    }

    private static Map<String, String> vips(MockCluster c) {
        Map<String, String> m = new HashMap<>();
        for (ServiceLoadBalancer s : c.slbs()) {
            if (s.getStatus() != null && s.getStatus().getVip() != null) {
                m.put(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(), s.getStatus().getVip());
            }
        }
        return m;
    }

    private static void assertConverged(MockCluster c, Map<String, String> earlier) {
        Eventually.eventually(java.time.Duration.ofSeconds(90), () -> {
            Map<String, String> phases = c.phases();
            assertThat(phases).hasSize(SERVICES);
            Map<String, Long> byPhase = phases.values().stream()
                    .collect(Collectors.groupingBy(p -> String.valueOf(p), Collectors.counting()));
            assertThat(byPhase).containsOnly(Map.entry(JuneauConstants.PHASE_READY, (long) ADDRESSES),
                    Map.entry(JuneauConstants.PHASE_PENDING, (long) (SERVICES - ADDRESSES)));
            // the pool's counts are written up to 200 ms after the last allocation (coalesced), so waited for too
            assertThat(c.getPool("big").getStatus().getAllocated()).isEqualTo((long) ADDRESSES);
        });
        List<ServiceLoadBalancer> slbs = c.slbs();
        Map<String, String> now = vips(c);
        assertThat(now).as("VIPs never change").containsAllEntriesOf(earlier);
        assertThat(new HashSet<>(now.values())).as("no address held twice").hasSize(now.size());
        long first = Ipv4.parse(FIRST);
        assertThat(now.values()).allSatisfy(v -> assertThat(Ipv4.parse(v)).isBetween(first, first + ADDRESSES - 1));
        for (ServiceLoadBalancer s : slbs) {
            if (JuneauConstants.PHASE_PENDING.equals(s.getStatus().getPhase())) {
                assertThat(s.getStatus().getConditions()).anySatisfy(cond ->
                        assertThat(cond.getReason()).isEqualTo(JuneauConstants.REASON_POOL_EXHAUSTED));
            }
        }
        // one ARPAdvertisement per VIP, naming a node with a ready backend, and the Service ingress to match
        List<ARPAdvertisement> arps = c.arps();
        assertThat(arps).hasSize(ADDRESSES);
        Set<String> advertised = arps.stream().map(a -> a.getSpec().getAddress()).collect(Collectors.toSet());
        assertThat(advertised).isEqualTo(new HashSet<>(now.values()));
        Map<String, Service> services = c.client().services().inAnyNamespace().list().getItems().stream()
                .collect(Collectors.toMap(s -> s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(),
                        s -> s));
        for (Map.Entry<String, String> e : now.entrySet()) {
            Service svc = services.get(e.getKey());
            assertThat(svc.getStatus().getLoadBalancer().getIngress()).extracting(LoadBalancerIngress::getIp)
                    .as("ingress of %s", e.getKey()).containsExactly(e.getValue());
        }
    }
}
