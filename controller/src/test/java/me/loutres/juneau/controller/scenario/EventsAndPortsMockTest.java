package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.PortStatus;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.controller.testing.Scrape;
import org.junit.jupiter.api.Test;

/** docs/phases-and-conditions.md step 6: Events without duplicates; named targetPorts resolved or warned about once. */
class EventsAndPortsMockTest extends ScenarioBase {

    @Test
    void anUnchangedStateRecordsNoSecondEventThroughChurnAndARestart() {
        cluster.pool("ev-pool", "arp", "10.60.0.1-10.60.0.1");
        cluster.network("ev-net", "arp", "ev-pool");
        cluster.service("ev", "web", "ev-net");
        cluster.endpoints("ev", "web", "node-1");
        eventually(() -> assertThat(status("ev", "web").getVip()).isEqualTo("10.60.0.1"));
        cluster.service("ev", "late", "ev-net");
        eventually(() -> {
            assertThat(status("ev", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
            assertThat(status("ev", "late").getPhase()).isEqualTo(JuneauConstants.PHASE_PENDING);
        });
        settle();

        // churn that changes nothing the controller decides: annotations, a re-written slice, a restart
        for (int i = 0; i < 3; i++) {
            for (String name : List.of("web", "late")) {
                touch("ev", name, i);
            }
            cluster.endpoints("ev", "web", "node-1");
        }
        settle();
        restartController();
        eventually(() -> assertThat(Scrape.allocated(controller, "ev-pool")).isEqualTo(1.0));
        settle();

        assertOne("web", JuneauConstants.EVENT_IP_ALLOCATED, "Normal",
                "allocated VIP 10.60.0.1 from AddressPool ev-pool of ExternalNetwork \"ev-net\"");
        // the first node is part of the allocation news when the endpoints were seen by then; otherwise it is
        // one change <none> -> node-1 later. Either way: said once.
        List<Event> moves = cluster.events("ev", "web", JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED);
        if (cluster.events("ev", "web", JuneauConstants.EVENT_IP_ALLOCATED).get(0).getMessage()
                .endsWith("; node node-1 is elected to answer ARP for it")) {
            assertThat(moves).isEmpty();
        } else {
            assertOne("web", JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED, "Normal", "<none> -> node-1");
        }
        assertOne("late", JuneauConstants.EVENT_ALLOCATION_FAILED, "Warning", JuneauConstants.REASON_POOL_EXHAUSTED);
        assertThat(cluster.events("ev", "web", JuneauConstants.EVENT_ALLOCATION_FAILED)).isEmpty();
        assertThat(cluster.events("ev", "late", JuneauConstants.EVENT_IP_ALLOCATED)).isEmpty();
    }

    /**
     * An allocation is one event write in the term that made it: the takeover re-announcement (docs/operations.md)
     * is for allocations of an earlier term, so the reconciles that follow a new allocation patch no event.
     */
    @Test
    void anAllocationCostsOneEventWriteInTheTermThatMadeIt() {
        cluster.pool("ew-pool", "bgp", "10.62.0.0/28");
        cluster.network("ew-net", "bgp", "ew-pool");
        settle();
        long before = eventWrites("ew-");
        for (int i = 0; i < 5; i++) {
            cluster.service("ew", "ew-" + i, "ew-net");
        }
        eventually(() -> {
            for (int i = 0; i < 5; i++) {
                assertThat(status("ew", "ew-" + i).getVip()).isNotNull();
            }
        });
        // churn the controller looks at and decides nothing about: each Service is reconciled again
        for (int i = 0; i < 5; i++) {
            touch("ew", "ew-" + i, 1);
        }
        settle();
        assertThat(cluster.dispatcher().requests().stream().filter(r -> r.path().contains("/events")
                && r.path().contains("ew-") && "PATCH".equals(r.method())).toList())
                .as("no event patched again in the term that recorded it").isEmpty();
        assertThat(eventWrites("ew-") - before).as("one IPAllocated event created per Service").isEqualTo(5);
    }

    private long eventWrites(String prefix) {
        return cluster.dispatcher().requests().stream().filter(r -> r.isWrite() && r.path().contains("/events")
                && r.path().contains("/namespaces/ew/")).count();
    }

    /** An annotation change the controller does not care about (a merge patch: no version to race with). */
    private void touch(String ns, String name, int i) {
        cluster.client().services().inNamespace(ns).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"example.com/touch\":\"" + i + "\"}}}");
    }

    private void assertOne(String svc, String reason, String type, String text) {
        List<Event> events = cluster.events("ev", svc, reason);
        assertThat(events).as("%s events on %s", reason, svc).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo(type);
            assertThat(e.getMessage()).contains(text);
            assertThat(e.getCount()).isEqualTo(1);
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("Service");
            assertThat(e.getInvolvedObject().getUid()).isEqualTo(cluster.svc("ev", svc).getMetadata().getUid());
        });
    }

    @Test
    void namedTargetPortsAreResolvedFromTheSlicesAndAnUnresolvableOneIsLeftOutWithOneWarning() {
        cluster.pool("np-pool", "bgp", "10.61.0.0/24");
        cluster.network("np-net", "bgp", "np-pool");
        cluster.create(MockCluster.managedService("np", "web", "np-net").editSpec()
                .withPorts(MockCluster.port("https", 443, "web-tls"), MockCluster.port("metrics", 9090, "nope"),
                        MockCluster.port("http", 80, 8080))
                .endSpec().build());
        cluster.create(new EndpointSliceBuilder().withNewMetadata().withNamespace("np").withName("web-abc")
                .addToLabels(JuneauConstants.SERVICE_NAME_LABEL, "web").endMetadata().withAddressType("IPv4")
                .withEndpoints(MockCluster.endpoint("10.244.9.1", "node-1", true))
                .withPorts(new EndpointPortBuilder().withName("https").withProtocol("TCP").withPort(8443).build(),
                        new EndpointPortBuilder().withName("http").withProtocol("TCP").withPort(8080).build())
                .build());

        eventually(() -> assertThat(status("np", "web").getPorts()).extracting(PortStatus::toString)
                .containsExactly("http:80/TCP->8080", "https:443/TCP->8443"));
        eventually(() -> assertThat(cluster.events("np", "web", JuneauConstants.EVENT_TARGET_PORT_NOT_FOUND))
                .singleElement().satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains("metrics");
                }));

        // more reconciles of the same problem: still one warning
        for (int i = 0; i < 3; i++) {
            touch("np", "web", i);
        }
        settle();
        assertThat(cluster.events("np", "web", JuneauConstants.EVENT_TARGET_PORT_NOT_FOUND)).hasSize(1)
                .allSatisfy(e -> assertThat(e.getCount()).isEqualTo(1));
    }
}
