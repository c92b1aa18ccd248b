package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.controller.reconcile.MalformedReports;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.status.PoolConditions;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Conflicts stored around admission (docs/allocation.md, "Conflicts stored around admission"): two creates at the
 * same instant each pass a webhook that reads a cache, so two AddressPools with one range, or two ExternalNetworks
 * listing one pool, can both be stored. 20 rounds of each race with concurrent creates; whatever got stored, the
 * controller says it on every object involved (condition {@code Conflict} naming the other, Warning events), hands
 * no address of the overlap out twice, and keeps each pool's counts its own.
 */
class AdmissionRaceMockTest extends ScenarioBase {
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionRaceMockTest.class);
    private static final int ROUNDS = 20;

    @Test
    void overlappingPoolsStoredByARaceAreReportedAndTheirAddressesHandedOutOnce() throws Exception {
        List<Integer> bothStored = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            String cidr = "10.96." + round + ".0/29";
            int r = round;
            race(() -> cluster.pool("race-a-" + r, "bgp", cidr), () -> cluster.pool("race-b-" + r, "bgp", cidr));
            if (exists("race-a-" + round) && exists("race-b-" + round)) {
                bothStored.add(round);
            }
        }
        LOG.info("overlapping pools: both stored in {} of {} rounds", bothStored.size(), ROUNDS);
        if (bothStored.isEmpty()) {
            // the race was not hit on this machine: store the same state around the webhook, as before it existed
            cluster.beforeTheWebhook(() -> {
                cluster.pool("race-a-x", "bgp", "10.96.99.0/29");
                cluster.pool("race-b-x", "bgp", "10.96.99.0/29");
            });
        }
        List<String> suffixes = bothStored.isEmpty() ? List.of("x") : bothStored.stream().map(String::valueOf).toList();
        for (String s : suffixes) {
            eventually(() -> {
                assertConflict("race-a-" + s, "race-b-" + s);
                assertConflict("race-b-" + s, "race-a-" + s);
            });
            for (String pool : List.of("race-a-" + s, "race-b-" + s)) {
                assertThat(cluster.events("default", pool, MalformedReports.EVENT_CONFLICT))
                        .anySatisfy(e -> assertThat(e.getType()).isEqualTo("Warning"));
            }
        }

        // the overlap's six addresses, asked for through both pools: each handed out once, counted once
        String s = suffixes.get(0);
        cluster.network("race-net-a", "bgp", "race-a-" + s);
        cluster.network("race-net-b", "bgp", "race-b-" + s);
        for (int i = 0; i < 4; i++) {
            cluster.service("race", "via-a-" + i, "race-net-a");
            cluster.service("race", "via-b-" + i, "race-net-b");
        }
        eventually(Duration.ofSeconds(60), () -> {
            List<String> vips = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                for (String side : List.of("via-a-", "via-b-")) {
                    String vip = cluster.slb("race", side + i).getStatus().getVip();
                    if (vip != null) {
                        vips.add(vip);
                    }
                }
            }
            assertThat(vips).hasSize(6);
            assertThat(new HashSet<>(vips)).hasSize(6);
        });
        settle();
        AddressPoolStatus a = cluster.getPool("race-a-" + s).getStatus();
        AddressPoolStatus b = cluster.getPool("race-b-" + s).getStatus();
        assertThat(a.getAllocated() + b.getAllocated()).as("each held address counted by one pool").isEqualTo(6L);
        assertThat(a.getAllocated()).isEqualTo(allocatedThrough("race-a-" + s));
        assertThat(b.getAllocated()).isEqualTo(allocatedThrough("race-b-" + s));
        assertThat(a.getFree()).isZero();
        assertThat(b.getFree()).isZero();
    }

    @Test
    void aPoolListedByTwoNetworksThroughARaceIsReportedOnThePoolAndBothNetworks() throws Exception {
        List<Integer> bothStored = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            cluster.pool("shared-" + round, "bgp", "10.95." + round + ".0/29");
            int r = round;
            race(() -> cluster.network("net-x-" + r, "bgp", "shared-" + r),
                    () -> cluster.network("net-y-" + r, "bgp", "shared-" + r));
            if (network("net-x-" + round) != null && network("net-y-" + round) != null) {
                bothStored.add(round);
            }
        }
        LOG.info("pool in two networks: both stored in {} of {} rounds", bothStored.size(), ROUNDS);
        if (bothStored.isEmpty()) {
            cluster.pool("shared-x", "bgp", "10.95.99.0/29");
            cluster.beforeTheWebhook(() -> {
                cluster.network("net-x-x", "bgp", "shared-x");
                cluster.network("net-y-x", "bgp", "shared-x");
            });
        }
        for (String s : bothStored.isEmpty() ? List.of("x") : bothStored.stream().map(String::valueOf).toList()) {
            eventually(() -> {
                Condition c = conflict("shared-" + s);
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getMessage()).contains("net-x-" + s).contains("net-y-" + s);
                assertThat(cluster.events("default", "net-x-" + s, MalformedReports.EVENT_CONFLICT))
                        .anySatisfy(e -> assertThat(e.getMessage()).contains("net-y-" + s).contains("shared-" + s));
                assertThat(cluster.events("default", "net-y-" + s, MalformedReports.EVENT_CONFLICT))
                        .anySatisfy(e -> assertThat(e.getMessage()).contains("net-x-" + s).contains("shared-" + s));
            });
        }
        // a pool nobody shares says so
        cluster.pool("alone", "bgp", "10.95.200.0/29");
        eventually(() -> assertThat(conflict("alone").getStatus()).isEqualTo("False"));
    }

    /** Runs the two creates at the same instant; a create admission refuses is simply not stored. */
    private static void race(Runnable one, Runnable other) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (Runnable r : List.of(one, other)) {
            Thread t = new Thread(() -> {
                try {
                    go.await(5, TimeUnit.SECONDS);
                    r.run();
                } catch (KubernetesClientException | InterruptedException e) {
                    // refused by admission: the race was lost by this one
                }
            }, "race");
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join(30_000);
        }
    }

    private boolean exists(String pool) {
        return cluster.getPool(pool) != null;
    }

    private ExternalNetwork network(String name) {
        return cluster.client().resources(ExternalNetwork.class).withName(name).get();
    }

    private Condition conflict(String pool) {
        AddressPool p = cluster.getPool(pool);
        assertThat(p.getStatus()).as("status of %s", pool).isNotNull();
        return p.getStatus().getConditions().stream().filter(c -> PoolConditions.CONDITION_CONFLICT.equals(c.getType()))
                .findFirst().orElseThrow(() -> new AssertionError("no Conflict condition on " + pool));
    }

    private void assertConflict(String pool, String other) {
        Condition c = conflict(pool);
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getReason()).isEqualTo("OverlappingPool");
        assertThat(c.getMessage()).contains("AddressPool " + pool + " overlaps AddressPool " + other);
    }

    private long allocatedThrough(String pool) {
        return cluster.slbs().stream().filter(x -> x.getStatus() != null && pool.equals(x.getStatus().getAddressPool()))
                .count();
    }
}
