package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.api.v1alpha1.ServiceRef;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.testing.Eventually;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.controller.testing.Scrape;
import org.junit.jupiter.api.Test;

/** Inputs a real cluster produces and the controller once choked on (docs/phases-and-conditions.md). */
class HardeningMockTest extends ScenarioBase {

    @Test
    void aWriteTheApiServerRefusesBecomesAConditionAndAWarningAndIsRetriedWithBackoff() {
        cluster.pool("wd-pool", "arp", "10.87.0.1-10.87.0.4");
        cluster.network("wd-net", "arp", "wd-pool");
        String message = "admission webhook \"arpadvertisements.validate.juneau.loutres.me\" denied the request:"
                + " spec.address 10.87.0.1 is the InternalIP of Node wd-node";
        cluster.dispatcher().denyWrites(r -> "POST".equals(r.method())
                && r.path().contains("/arpadvertisements"), message);
        try {
            cluster.service("wd", "web", "wd-net");
            cluster.endpoints("wd", "web", "wd-node");
            eventually(() -> {
                Condition c = condition(status("wd", "web"), JuneauConstants.CONDITION_AVAILABLE);
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_WRITE_DENIED);
                assertThat(c.getMessage()).contains(message);
            });
            eventually(() -> assertThat(cluster.events("wd", "web", JuneauConstants.REASON_WRITE_DENIED))
                    .singleElement().satisfies(e -> {
                        assertThat(e.getType()).isEqualTo("Warning");
                        assertThat(e.getMessage()).contains(message);
                    }));
            assertThat(status("wd", "web").getVip()).isEqualTo("10.87.0.1");
            assertThat(Scrape.unlabelled(controller, "juneau_writes_denied_total")).isGreaterThanOrEqualTo(1.0);

            // backoff from 1 s doubling: a blind retry loop (20 ms doubling) would try about eight times here
            int before = cluster.dispatcher().denialsSent();
            sleep(4_000);
            assertThat(cluster.dispatcher().denialsSent() - before).as("refused writes in 4 s").isLessThanOrEqualTo(4);
            assertThat(controller.scrapeMetrics()).containsPattern(
                    "juneau_reconcile_errors_total\\{cause=\"write-denied\",kind=\"service\"\\} [1-9]");
        } finally {
            cluster.dispatcher().allowWrites();
        }
        // fixed: the next retry goes through and the condition clears
        eventually(java.time.Duration.ofSeconds(60), () -> {
            assertThat(cluster.arp("wd", "web")).isNotNull();
            assertThat(status("wd", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
        });
    }

    @Test
    void aRequestedIpThatIsANodesInternalIpInAnArpPoolIsAConfigurationError() {
        // the webhook refuses both a pool containing a Node's address and a Service requesting one; a Node that
        // joins with the address a waiting Service requested gets past both
        cluster.pool("ipn-pool", "arp", "10.88.0.1-10.88.0.4");
        cluster.network("ipn-net", "arp", "ipn-pool");
        controller.close();
        cluster.serviceRequesting("ipn", "web", "ipn-net", "10.88.0.2");
        cluster.node("ipnode-1", "10.88.0.2");
        restartController();
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("ipn", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ERROR);
            Condition c = condition(s, JuneauConstants.CONDITION_ALLOCATED);
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_INVALID_CONFIG);
            assertThat(c.getMessage()).contains("10.88.0.2").contains("Node ipnode-1");
            assertThat(s.getVip()).isNull();
        });
    }

    @Test
    void anEmptyRequestedIpAnnotationMeansNone() {
        cluster.pool("empty-pool", "bgp", "10.89.0.0/30");
        cluster.network("empty-net", "bgp", "empty-pool");
        cluster.serviceRequesting("empty", "web", "empty-net", "  ");
        eventually(() -> {
            assertThat(status("empty", "web").getVip()).isEqualTo("10.89.0.1");
            assertThat(cluster.slb("empty", "web").getSpec().getRequestedIP()).isNull();
        });
    }

    @Test
    void aNetworkThatBreaksAfterAllocationIsAnErrorAndTheVipIsKept() {
        cluster.pool("brk-pool", "bgp", "10.90.4.0/30");
        cluster.network("brk-net", "bgp", "brk-pool");
        cluster.service("brk", "web", "brk-net");
        cluster.endpoints("brk", "web", "brk-node");
        eventually(() -> assertThat(status("brk", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY));
        String vip = status("brk", "web").getVip();

        // the webhook refuses to delete a network in use; an admin who removed the webhook configuration could
        cluster.beforeTheWebhook(() -> cluster.client().resources(ExternalNetwork.class).withName("brk-net").delete());
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("brk", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ERROR);
            assertThat(s.getVip()).isEqualTo(vip);
            assertThat(s.getAddressPool()).isEqualTo("brk-pool");
            assertThat(condition(s, JuneauConstants.CONDITION_ALLOCATED).getReason())
                    .isEqualTo(JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE);
        });
        assertThat(ingress("brk", "web")).extracting(i -> i.getIp()).containsExactly(vip);

        cluster.network("brk-net", "bgp", "brk-pool");
        eventually(() -> {
            assertThat(status("brk", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
            assertThat(status("brk", "web").getVip()).isEqualTo(vip);
        });
    }

    @Test
    void aMalformedStatusIsSkippedInRestoreAndReconcileAndItsAddressStaysReserved() {
        try (MockCluster c = new MockCluster()) {
            c.pool("mal-pool", "bgp", "10.91.4.0/30");   // usable: .1 and .2
            c.network("mal-net", "bgp", "mal-pool");
            Service bad = c.service("mal", "bad", "mal-net");
            ServiceLoadBalancer slb = new ServiceLoadBalancer();
            slb.setMetadata(new ObjectMetaBuilder().withNamespace("mal").withName("bad")
                    .withFinalizers(JuneauConstants.FINALIZER).addNewOwnerReference().withApiVersion("v1")
                    .withKind("Service").withName("bad").withUid(bad.getMetadata().getUid()).withController(true)
                    .endOwnerReference().build());
            ServiceLoadBalancerSpec spec = new ServiceLoadBalancerSpec();
            spec.setServiceRef(new ServiceRef("bad"));
            spec.setExternalNetwork("mal-net");
            slb.setSpec(spec);
            // a record from before the webhook (an older version, a restore): people may not write these
            c.beforeTheWebhook(() -> {
                ServiceLoadBalancer created = c.client().resources(ServiceLoadBalancer.class).inNamespace("mal")
                        .resource(slb).create();
                ServiceLoadBalancerStatus broken = new ServiceLoadBalancerStatus();
                broken.setVip("10.91.4.1");    // and no addressPool
                created.setStatus(broken);
                c.client().resources(ServiceLoadBalancer.class).inNamespace("mal").resource(created).updateStatus();
            });

            JuneauController ctl = c.startController("malformed");
            Eventually.until("the controller leads despite the bad record", ctl::isLeader);
            c.service("mal", "good", "mal-net");
            eventually(() -> assertThat(c.slb("mal", "good").getStatus().getVip())
                    .as("the malformed record's address is not handed out").isEqualTo("10.91.4.2"));
            eventually(() -> assertThat(c.events("mal", "bad", JuneauConstants.EVENT_MALFORMED_STATUS))
                    .singleElement().satisfies(e -> assertThat(e.getMessage()).contains("no status.addressPool")));
            assertThat(c.slb("mal", "bad").getStatus().getVip()).isEqualTo("10.91.4.1");
            assertThat(c.slb("mal", "bad").getStatus().getAddressPool()).as("left as it is").isNull();
            assertThat(Scrape.unlabelled(ctl, "juneau_malformed_status_total")).isGreaterThanOrEqualTo(1.0);
            assertThat(ctl.isReady()).isTrue();

            // a third Service waits: the pool is full with the reserved address
            c.service("mal", "third", "mal-net");
            eventually(() -> assertThat(c.slb("mal", "third").getStatus().getPhase())
                    .isEqualTo(JuneauConstants.PHASE_PENDING));
            assertThat(c.slb("mal", "third").getStatus().getVip()).isNull();
        }
    }

    /**
     * Issue 12 item 1: an AddressPool entry that is no valid entry for its mode (admission refuses it; this one was
     * stored before the webhook) is read through the shared parsing: the Services of its network are in Error with
     * a condition naming the entry and its value, and the pool itself gets one Warning event naming the entry and a
     * count in {@code juneau_malformed_objects}; nothing throws in the loop. (Before: one log line for the pool, no
     * event and no metric.)
     */
    @Test
    void aMalformedPoolEntryIsAConfigurationErrorForItsServicesAndOneWarningWithAMetricOnThePool() {
        cluster.beforeTheWebhook(() -> cluster.pool("badent-pool", "bgp", "10.94.0.0/30", "10.94.1.9-10.94.1.1"));
        cluster.network("badent-net", "bgp", "badent-pool");
        for (String name : java.util.List.of("web", "second")) {
            cluster.service("badent", name, "badent-net");
            eventually(() -> {
                ServiceLoadBalancerStatus s = status("badent", name);
                assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ERROR);
                assertThat(condition(s, JuneauConstants.CONDITION_ALLOCATED).getMessage())
                        .contains("AddressPool \"badent-pool\" has an invalid entry").contains("10.94.1.9-10.94.1.1")
                        .doesNotContain("Exception");
            });
        }
        eventually(() -> assertThat(cluster.events("default", "badent-pool", JuneauConstants.EVENT_MALFORMED_ENTRY))
                .singleElement().satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getInvolvedObject().getKind()).isEqualTo("AddressPool");
                    assertThat(e.getMessage()).contains("AddressPool badent-pool spec.addresses[1]")
                            .contains("10.94.1.9-10.94.1.1").contains("offers no address").doesNotContain("Exception");
                }));
        settle();
        // said once: an unchanged pool is not reported again, whatever reconciles it
        assertThat(cluster.events("default", "badent-pool", JuneauConstants.EVENT_MALFORMED_ENTRY)).hasSize(1);
        assertThat(Scrape.value(controller, "juneau_malformed_objects_total", "kind", "AddressPool")).isEqualTo(1.0);
        assertThat(controller.isReady()).isTrue();
        assertThat(controller.isHealthy()).isTrue();
    }

    /**
     * Issue 12 item 1: an ExternalNetwork stored around admission with entries the webhook denies (an empty entry,
     * then a pool listed twice; a null entry never gets past the CRD schema, as on kube-apiserver) gives no address: its Services are Error with reason ExternalNetworkUnavailable naming the
     * entry, and the network itself gets one Warning {@code MalformedEntry} event per change (in {@code default}, about
     * the ExternalNetwork) and a count in {@code juneau_malformed_objects{kind="ExternalNetwork"}}. Fixed, the Service
     * gets its VIP and nothing more is said. (Before: the empty entry read as a pool named "" that does not exist,
     * the repeated pool went unnoticed, and the network never got an event.)
     */
    @Test
    void aMalformedNetworkEntryIsAnErrorForItsServicesAndOneWarningPerChangeWithAMetricOnTheNetwork() {
        cluster.pool("badnet-pool", "bgp", "10.95.0.0/30");
        storeAroundTheWebhook("badnet-net", java.util.List.of("badnet-pool", ""));
        cluster.service("badnet", "web", "badnet-net");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("badnet", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ERROR);
            Condition c = condition(s, JuneauConstants.CONDITION_ALLOCATED);
            assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE);
            assertThat(c.getMessage()).contains("ExternalNetwork \"badnet-net\" spec.addressPools[1] is \"\"")
                    .doesNotContain("Exception");
        });
        eventually(() -> assertThat(cluster.events("default", "badnet-net", JuneauConstants.EVENT_MALFORMED_ENTRY))
                .singleElement().satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getInvolvedObject().getKind()).isEqualTo("ExternalNetwork");
                    assertThat(e.getInvolvedObject().getName()).isEqualTo("badnet-net");
                    assertThat(e.getMessage()).contains("spec.addressPools[1] is \"\", not an AddressPool name")
                            .doesNotContain("Exception");
                }));
        settle();
        assertThat(cluster.events("default", "badnet-net", JuneauConstants.EVENT_MALFORMED_ENTRY))
                .as("said once: an unchanged network is not reported again").hasSize(1);
        assertThat(Scrape.value(controller, "juneau_malformed_objects_total", "kind", "ExternalNetwork")).isEqualTo(1.0);

        // another change, another mistake: said once more
        storeAroundTheWebhook("badnet-net", java.util.List.of("badnet-pool", "badnet-pool"));
        eventually(() -> assertThat(cluster.events("default", "badnet-net", JuneauConstants.EVENT_MALFORMED_ENTRY))
                .hasSize(2).anySatisfy(e -> assertThat(e.getMessage())
                        .contains("spec.addressPools[1] \"badnet-pool\" is already listed at spec.addressPools[0]")));
        eventually(() -> assertThat(condition(status("badnet", "web"), JuneauConstants.CONDITION_ALLOCATED)
                .getMessage()).contains("is already listed"));

        // fixed: the Service gets its VIP, and nothing more is said about the network
        storeAroundTheWebhook("badnet-net", java.util.List.of("badnet-pool"));
        eventually(() -> assertThat(status("badnet", "web").getVip()).isEqualTo("10.95.0.1"));
        settle();
        assertThat(cluster.events("default", "badnet-net", JuneauConstants.EVENT_MALFORMED_ENTRY)).hasSize(2);
        assertThat(Scrape.value(controller, "juneau_malformed_objects_total", "kind", "ExternalNetwork")).isEqualTo(2.0);
        assertThat(controller.isReady()).isTrue();
        assertThat(controller.isHealthy()).isTrue();
    }

    /**
     * Issue 12 item 1, one way objects are read: the controller reads its typed informer objects by the shared
     * reader's rules (KubeReader, as the webhook, {@code validate} and the agent do), once per version. An
     * ExternalNetwork with a null list entry the CRD schema does not cover ({@code metadata.finalizers}; the webhook
     * denies it, kube-apiserver's metadata validation too, this local server stores it) is named the same way: its
     * Services are Error naming the field, the network gets one MalformedEntry Warning and the metric. (Before: the
     * typed object was used as it came, the Service got a VIP from a network no other reader accepts.)
     */
    @Test
    void aNetworkTheSharedReaderRefusesGivesNoAddressAndIsNamedOnce() {
        cluster.pool("unread-pool", "bgp", "10.196.0.0/30");
        cluster.beforeTheWebhook(() -> {
            ExternalNetwork n = new ExternalNetwork();
            n.getMetadata().setName("unread-net");
            n.getMetadata().setFinalizers(java.util.Arrays.asList((String) null));
            n.setSpec(new me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec("bgp", java.util.List.of("unread-pool")));
            cluster.client().resource(n).create();
        });
        cluster.service("unread", "web", "unread-net");
        String problem = "ExternalNetwork \"unread-net\" cannot be read: metadata.finalizers[0]: null is not a valid"
                + " list entry";
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("unread", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_ERROR);
            assertThat(s.getVip()).isNull();
            assertThat(condition(s, JuneauConstants.CONDITION_ALLOCATED).getMessage()).contains(problem);
        });
        eventually(() -> assertThat(cluster.events("default", "unread-net", JuneauConstants.EVENT_MALFORMED_ENTRY))
                .singleElement().satisfies(e -> assertThat(e.getMessage()).contains(problem)));
        settle();
        assertThat(cluster.events("default", "unread-net", JuneauConstants.EVENT_MALFORMED_ENTRY)).hasSize(1);
        assertThat(controller.isHealthy()).isTrue();
    }

    /**
     * The same rule for a ServiceLoadBalancer (docs/phases-and-conditions.md): one the shared reader refuses (a null finalizer entry,
     * stored while no controller ran and around the webhook) is left exactly as it is, said once as a
     * MalformedStatus Warning naming the field, and its VIP stays reserved. (Before: it was reconciled like any
     * other, its status rewritten from a record no other reader accepts.)
     */
    @Test
    void aServiceLoadBalancerTheSharedReaderRefusesIsLeftAloneAndItsVipStaysReserved() {
        cluster.pool("unslb-pool", "bgp", "10.197.0.0/30");   // usable: .1 and .2
        cluster.network("unslb-net", "bgp", "unslb-pool");
        controller.close();
        Service bad = cluster.service("unslb", "bad", "unslb-net");
        cluster.beforeTheWebhook(() -> {
            ServiceLoadBalancer slb = new ServiceLoadBalancer();
            slb.setMetadata(new ObjectMetaBuilder().withNamespace("unslb").withName("bad")
                    .withFinalizers(java.util.Arrays.asList(JuneauConstants.FINALIZER, null)).addNewOwnerReference()
                    .withApiVersion("v1").withKind("Service").withName("bad").withUid(bad.getMetadata().getUid())
                    .withController(true).endOwnerReference().build());
            ServiceLoadBalancerSpec spec = new ServiceLoadBalancerSpec();
            spec.setServiceRef(new ServiceRef("bad"));
            spec.setExternalNetwork("unslb-net");
            slb.setSpec(spec);
            ServiceLoadBalancer created = cluster.client().resources(ServiceLoadBalancer.class).inNamespace("unslb")
                    .resource(slb).create();
            ServiceLoadBalancerStatus st = new ServiceLoadBalancerStatus();
            st.setVip("10.197.0.1");
            st.setAddressPool("unslb-pool");
            created.setStatus(st);
            cluster.client().resources(ServiceLoadBalancer.class).inNamespace("unslb").resource(created).updateStatus();
        });
        assertThat(cluster.slb("unslb", "bad").getMetadata().getFinalizers()).as("stored as written").hasSize(2);
        restartController();
        cluster.service("unslb", "good", "unslb-net");
        eventually(() -> assertThat(status("unslb", "good").getVip()).as("the refused record's VIP stays reserved")
                .isEqualTo("10.197.0.2"));
        eventually(() -> assertThat(cluster.events("unslb", "bad", JuneauConstants.EVENT_MALFORMED_STATUS))
                .singleElement().satisfies(e -> assertThat(e.getMessage())
                        .contains("cannot be read: metadata.finalizers[1]: null is not a valid list entry")
                        .contains("VIP 10.197.0.1 stays reserved").doesNotContain("Exception")));
        settle();
        ServiceLoadBalancerStatus left = status("unslb", "bad");
        assertThat(left.getPhase()).as("left exactly as it is").isNull();
        assertThat(left.getConditions()).isNullOrEmpty();
        assertThat(cluster.events("unslb", "bad", JuneauConstants.EVENT_MALFORMED_STATUS)).hasSize(1);
        assertThat(controller.isHealthy()).isTrue();
    }

    /**
     * And for an ARPAdvertisement: one the shared reader refuses (a null finalizer entry, written around the webhook)
     * is said once as a MalformedEntry Warning on the advertisement with {@code kind="ARPAdvertisement"} in the
     * metric; what the plan reads of it (spec, labels) is intact, so its node goes on answering and nothing is
     * rewritten.
     */
    @Test
    void anAdvertisementTheSharedReaderRefusesIsNamedOnceAndKeepsItsNode() {
        cluster.pool("unarp-pool", "arp", "10.198.0.1-10.198.0.4");
        cluster.network("unarp-net", "arp", "unarp-pool");
        cluster.service("unarp", "web", "unarp-net");
        cluster.endpoints("unarp", "web", "unarp-node");
        eventually(() -> {
            assertThat(status("unarp", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
            assertThat(cluster.arp("unarp", "web")).isNotNull();
        });
        String name = JuneauConstants.arpAdvertisementName("unarp", "web");
        cluster.beforeTheWebhook(() -> {
            me.loutres.juneau.api.v1alpha1.ARPAdvertisement a = cluster.arp("unarp", "web");
            a.getMetadata().setFinalizers(java.util.Arrays.asList((String) null));
            cluster.client().resource(a).update();
        });
        String rv = cluster.arp("unarp", "web").getMetadata().getResourceVersion();
        eventually(() -> assertThat(cluster.events("default", name, JuneauConstants.EVENT_MALFORMED_ENTRY))
                .singleElement().satisfies(e -> {
                    assertThat(e.getInvolvedObject().getKind()).isEqualTo("ARPAdvertisement");
                    assertThat(e.getMessage()).contains("ARPAdvertisement " + name
                            + " cannot be read: metadata.finalizers[0]: null is not a valid list entry");
                }));
        assertThat(Scrape.value(controller, "juneau_malformed_objects_total", "kind", "ARPAdvertisement"))
                .isEqualTo(1.0);
        settle();
        assertThat(cluster.arp("unarp", "web").getMetadata().getResourceVersion()).as("not rewritten").isEqualTo(rv);
        assertThat(cluster.arp("unarp", "web").getSpec().getNodeName()).isEqualTo("unarp-node");
        assertThat(status("unarp", "web").getPhase()).isEqualTo(JuneauConstants.PHASE_READY);
        assertThat(cluster.events("default", name, JuneauConstants.EVENT_MALFORMED_ENTRY)).hasSize(1);
    }

    /** Creates or replaces the ExternalNetwork with these pools while the webhook is away (it would deny them). */
    private void storeAroundTheWebhook(String name, java.util.List<String> pools) {
        cluster.beforeTheWebhook(() -> {
            ExternalNetwork n = cluster.client().resources(ExternalNetwork.class).withName(name).get();
            if (n == null) {
                n = new ExternalNetwork();
                n.getMetadata().setName(name);
            }
            n.setSpec(new me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec("bgp", pools));
            cluster.client().resource(n).createOr(existing -> existing.update());
        });
    }
}
