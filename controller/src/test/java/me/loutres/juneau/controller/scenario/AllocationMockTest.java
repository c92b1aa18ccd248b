package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.api.model.Service;
import java.time.Instant;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.testing.Eventually;
import me.loutres.juneau.controller.testing.ScenarioBase;
import org.junit.jupiter.api.Test;

/** docs/allocation.md: order, requested IPs, exhaustion and release, node addresses, pool counts. */
class AllocationMockTest extends ScenarioBase {

    @Test
    void poolsAreUsedInTheNetworksOrderAndTheLowestFreeAddressFirst() {
        cluster.pool("ord-first", "bgp", "10.40.0.0/24");
        cluster.pool("ord-second", "bgp", "10.40.1.0/30");
        cluster.network("ord-net", "bgp", "ord-second", "ord-first");
        String[] expected = {"10.40.1.1", "10.40.1.2", "10.40.0.1", "10.40.0.2"};
        for (int i = 0; i < expected.length; i++) {
            cluster.service("ord", "svc-" + i, "ord-net");
            String name = "svc-" + i;
            String vip = expected[i];
            eventually(() -> assertThat(status("ord", name).getVip()).isEqualTo(vip));
        }
        assertThat(status("ord", "svc-2").getAddressPool()).isEqualTo("ord-first");
        eventually(() -> {
            assertThat(poolStatus("ord-second")).satisfies(s -> {
                assertThat(s.getTotal()).isEqualTo(2L);
                assertThat(s.getAllocated()).isEqualTo(2L);
                assertThat(s.getFree()).isZero();
            });
            assertThat(poolStatus("ord-first")).satisfies(s -> {
                assertThat(s.getTotal()).isEqualTo(254L);
                assertThat(s.getAllocated()).isEqualTo(2L);
                assertThat(s.getFree()).isEqualTo(252L);
            });
        });
    }

    @Test
    void aRequestedIpHeldByAnotherServiceWaitsAndIsTakenWhenReleased() {
        cluster.pool("req-pool", "bgp", "10.41.0.0/24");
        cluster.network("req-net", "bgp", "req-pool");
        cluster.serviceRequesting("req", "holder", "req-net", "10.41.0.5");
        eventually(() -> assertThat(status("req", "holder").getVip()).isEqualTo("10.41.0.5"));

        // the webhook refuses a requested IP that is already a VIP; one that got in before it (or past a cache
        // that had not seen the holder yet) waits for it
        cluster.beforeTheWebhook(() -> cluster.serviceRequesting("req", "wants", "req-net", "10.41.0.5"));
        eventually(() -> {
            Condition c = condition(status("req", "wants"), JuneauConstants.CONDITION_ALLOCATED);
            assertThat(status("req", "wants").getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_REQUESTED_IP_IN_USE);
            assertThat(c.getMessage()).contains("10.41.0.5").contains("Service req/holder");
        });
        eventually(() -> assertThat(cluster.events("req", "wants", JuneauConstants.EVENT_ALLOCATION_FAILED))
                .singleElement().satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).startsWith(JuneauConstants.REASON_REQUESTED_IP_IN_USE + ": ")
                            .contains("req/holder");
                }));

        cluster.client().services().inNamespace("req").withName("holder").delete();
        eventually(() -> {
            assertThat(status("req", "wants").getVip()).isEqualTo("10.41.0.5");
            assertThat(status("req", "wants").getPhase()).isEqualTo(JuneauConstants.PHASE_ALLOCATED);
        });
    }

    @Test
    void exhaustionPutsServicesInPendingAndAReleaseGoesToTheOldestWaiter() {
        cluster.pool("exh-pool", "bgp", "10.42.0.1/32");
        cluster.network("exh-net", "bgp", "exh-pool");
        cluster.service("exh", "holder", "exh-net");
        eventually(() -> assertThat(status("exh", "holder").getVip()).isEqualTo("10.42.0.1"));

        // older by creationTimestamp (whole seconds, set by the API server), but later by name: only the age can
        // make it win
        Service older = cluster.service("exh", "z-older", "exh-net");
        Instant olderAt = Instant.parse(older.getMetadata().getCreationTimestamp());
        Eventually.until("the API server's clock moved to the next second",
                () -> Instant.now().getEpochSecond() > olderAt.getEpochSecond());
        cluster.service("exh", "a-younger", "exh-net");
        eventually(() -> {
            for (String n : List.of("z-older", "a-younger")) {
                assertThat(status("exh", n).getPhase()).as(n).isEqualTo(JuneauConstants.PHASE_PENDING);
                assertThat(condition(status("exh", n), JuneauConstants.CONDITION_ALLOCATED).getMessage()).as(n)
                        .contains("exh-pool (1/1 used)");
            }
        });

        cluster.client().services().inNamespace("exh").withName("holder").delete();
        eventually(() -> assertThat(status("exh", "z-older").getVip()).isEqualTo("10.42.0.1"));
        settle();
        assertThat(status("exh", "a-younger").getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);

        // the pool grows (entries are append-only): the waiting Service is retried through the index
        cluster.client().resources(AddressPool.class).withName("exh-pool").patch(PatchContext.of(PatchType.JSON),
                "[{\"op\":\"add\",\"path\":\"/spec/addresses/-\",\"value\":\"10.42.0.9/32\"}]");
        eventually(() -> assertThat(status("exh", "a-younger").getVip()).isEqualTo("10.42.0.9"));
        eventually(() -> assertThat(poolStatus("exh-pool").getAllocated()).isEqualTo(2L));
    }

    @Test
    void nodeInternalIpsAreNeverHandedOutFromArpPools() {
        // the Node joins after the pool: the webhook refuses a pool entry containing an existing Node's InternalIP
        cluster.pool("excl-arp", "arp", "10.43.0.1-10.43.0.3");
        cluster.network("excl-net", "arp", "excl-arp");
        cluster.node("excl-node", "10.43.0.1");
        cluster.service("excl", "web", "excl-net");
        eventually(() -> assertThat(status("excl", "web").getVip()).isEqualTo("10.43.0.2"));
        eventually(() -> assertThat(poolStatus("excl-arp").getTotal()).isEqualTo(2L));
    }

    @Test
    void aPoolChangeReconcilesExactlyTheServicesOfItsNetworks() {
        cluster.pool("idx-a", "bgp", "10.44.0.0/24");
        cluster.network("idx-net-a", "bgp", "idx-a");
        cluster.pool("idx-b", "bgp", "10.45.0.0/24");
        cluster.network("idx-net-b", "bgp", "idx-b");
        for (int i = 0; i < 3; i++) {
            cluster.service("idx", "a-" + i, "idx-net-a");
        }
        for (int i = 0; i < 12; i++) {
            cluster.service("idx", "b-" + i, "idx-net-b");
        }
        eventually(() -> {
            for (int i = 0; i < 3; i++) {
                assertThat(status("idx", "a-" + i).getVip()).isNotNull();
            }
            for (int i = 0; i < 12; i++) {
                assertThat(status("idx", "b-" + i).getVip()).isNotNull();
            }
        });
        settle();
        double before = serviceReconciles();

        // a new entry changes nothing for Services that already have their VIP: no writes, so no echoes either
        cluster.client().resources(AddressPool.class).withName("idx-a").patch(PatchContext.of(PatchType.JSON),
                "[{\"op\":\"add\",\"path\":\"/spec/addresses/-\",\"value\":\"10.44.1.0/24\"}]");
        eventually(() -> assertThat(poolStatus("idx-a").getTotal()).isEqualTo(508L));
        settle();
        assertThat(serviceReconciles() - before).as("reconciles after a change of pool idx-a").isEqualTo(3.0);
    }

    private double serviceReconciles() {
        return controller.scrapeMetrics().lines()
                .filter(l -> l.startsWith("juneau_reconcile_total{kind=\"service\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private AddressPoolStatus poolStatus(String name) {
        AddressPool p = cluster.getPool(name);
        assertThat(p.getStatus()).as("status of AddressPool %s", name).isNotNull();
        return p.getStatus();
    }
}
