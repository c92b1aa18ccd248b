package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.BGPSessionSpec;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;
import me.loutres.juneau.api.v1alpha1.WithheldNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * Who announces, end to end against the local API server: Kubernetes' exclusion label and an ExternalNetwork's
 * nodeSelector limit advertisingNodes, a relabelled Node re-queues its Services (no other event comes), an excluded
 * ARP owner is replaced at once while lifting the exclusion moves nothing back, and condition Announced follows
 * the BGPSessions the agents write.
 */
class NodeSelectionMockTest extends ScenarioBase {
    static final String EXCLUDE = JuneauConstants.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS;

    private void label(String node, String key, String value) {
        cluster.ensureNode(node);
        cluster.client().nodes().withName(node).edit(n -> {
            Map<String, String> l = n.getMetadata().getLabels() == null ? new HashMap<>()
                    : new HashMap<>(n.getMetadata().getLabels());
            if (value == null) {
                l.remove(key);
            } else {
                l.put(key, value);
            }
            n.getMetadata().setLabels(l);
            return n;
        });
    }

    private ExternalNetwork selectingNetwork(String name, String type, String pool, String zone) {
        ExternalNetwork n = new ExternalNetwork();
        n.getMetadata().setName(name);
        ExternalNetworkSpec spec = new ExternalNetworkSpec(type, List.of(pool));
        spec.setNodeSelector(new LabelSelectorBuilder().addNewMatchExpression().withKey("zone").withOperator("In")
                .withValues(zone).endMatchExpression().build());
        n.setSpec(spec);
        return cluster.client().resource(n).create();
    }

    private String owner(String ns, String name) {
        return Eventually.value("an ARPAdvertisement", () -> {
            ARPAdvertisement a = cluster.arp(ns, name);
            return a == null ? null : a.getSpec().getNodeName();
        }, n -> n != null);
    }

    @Test
    void anExcludedOwnerIsReplacedAtOnceAndLiftingTheExclusionMovesNothingBack() {
        List<String> nodes = List.of("ex-a", "ex-b", "ex-c");
        nodes.forEach(cluster::ensureNode);
        cluster.pool("ex-pool", "arp", "10.71.0.1-10.71.0.4");
        cluster.network("ex-net", "arp", "ex-pool");
        cluster.service("ex", "web", "ex-net");
        cluster.endpoints("ex", "web", "ex-a", "ex-b", "ex-c");
        String first = owner("ex", "web");

        label(first, EXCLUDE, "");
        String second = Eventually.value("the VIP moves off the excluded node", () -> owner("ex", "web"),
                n -> !n.equals(first));
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("ex", "web");
            assertThat(s.getAdvertisingNodes()).doesNotContain(first).hasSize(2);
            assertThat(s.getBackendSummary().getTotalReady()).isEqualTo(2);
            assertThat(s.getArpAnnouncingNode()).isEqualTo(second);
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getMessage())
                    .contains(first + ": excluded by " + EXCLUDE);
        });

        label(first, EXCLUDE, null);
        eventually(() -> assertThat(status("ex", "web").getAdvertisingNodes()).containsExactlyElementsOf(nodes));
        assertThat(owner("ex", "web")).as("sticky: lifting the exclusion moves nothing back").isEqualTo(second);
    }

    @Test
    void aNetworksNodeSelectorLimitsAdvertisingNodesAndARelabelledNodeJoins() {
        label("sel-a", "zone", "a");
        label("sel-b", "zone", "b");
        cluster.pool("sel-pool", "bgp", "10.72.0.0/30");
        selectingNetwork("sel-net", "bgp", "sel-pool", "a");
        cluster.service("sel", "web", "sel-net");
        cluster.endpoints("sel", "web", "sel-a", "sel-b");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("sel", "web");
            assertThat(s.getAdvertisingNodes()).containsExactly("sel-a");
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getMessage())
                    .endsWith("not advertising: sel-b: not selected by ExternalNetwork sel-net (zone In [a])");
        });

        label("sel-b", "zone", "a");
        eventually(() -> assertThat(status("sel", "web").getAdvertisingNodes()).containsExactly("sel-a", "sel-b"));

        // every node left out: Degraded, and the message says why
        label("sel-a", "zone", "c");
        label("sel-b", EXCLUDE, "true");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("sel", "web");
            assertThat(s.getPhase()).isEqualTo(JuneauConstants.PHASE_DEGRADED);
            assertThat(s.getAdvertisingNodes()).isEmpty();
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getMessage()).contains(
                    "sel-a: not selected by ExternalNetwork sel-net (zone In [a])", "sel-b: excluded by " + EXCLUDE);
        });
    }

    @Test
    void aRelabelledNodeReQueuesOnlyTheServicesWhoseNetworkTestsThatLabel() {
        label("idx-x", "zone", "a");
        cluster.pool("idx-all", "bgp", "10.76.0.0/28");
        cluster.network("idx-all-net", "bgp", "idx-all");
        cluster.pool("idx-sel", "bgp", "10.77.0.0/30");
        ExternalNetwork sel = new ExternalNetwork();
        sel.getMetadata().setName("idx-sel-net");
        ExternalNetworkSpec spec = new ExternalNetworkSpec("bgp", List.of("idx-sel"));
        spec.setNodeSelector(new LabelSelectorBuilder().addNewMatchExpression().withKey("zone").withOperator("In")
                .withValues("a", "b").endMatchExpression().build());
        sel.setSpec(spec);
        cluster.client().resource(sel).create();
        for (int i = 0; i < 8; i++) {
            cluster.service("idx", "all-" + i, "idx-all-net");
            cluster.endpoints("idx", "all-" + i, "idx-x");
        }
        cluster.service("idx", "sel", "idx-sel-net");
        cluster.endpoints("idx", "sel", "idx-x");
        eventually(() -> assertThat(status("idx", "sel").getAdvertisingNodes()).containsExactly("idx-x"));
        settle();

        double before = serviceReconciles();
        label("idx-x", "team", "web");          // no network tests it
        settle();
        assertThat(serviceReconciles() - before).as("reconciles after a label no network tests").isZero();

        label("idx-x", "zone", "b");            // idx-sel-net tests it; still selected, so nothing to write
        settle();
        assertThat(serviceReconciles() - before).as("reconciles after a label only idx-sel-net tests").isEqualTo(1.0);
    }

    private double serviceReconciles() {
        return controller.scrapeMetrics().lines()
                .filter(l -> l.startsWith("juneau_reconcile_total{kind=\"service\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void relabellingNodesUnderLoadEndsWithEveryServiceRight() throws Exception {
        List<String> nodes = List.of("load-a", "load-b", "load-c", "load-d");
        nodes.forEach(n -> label(n, "zone", "a"));
        cluster.pool("load-arp", "arp", "10.73.0.1-10.73.0.60");
        cluster.network("load-arp-net", "arp", "load-arp");
        cluster.pool("load-bgp", "bgp", "10.74.0.0/26");
        selectingNetwork("load-bgp-net", "bgp", "load-bgp", "a");
        int services = 40;
        for (int i = 0; i < services; i++) {
            String name = "web-" + i;
            cluster.service("load", name, i % 2 == 0 ? "load-arp-net" : "load-bgp-net");
            cluster.endpoints("load", name, nodes.toArray(String[]::new));
        }
        // relabel while the Services are being allocated and planned: exclusion on and off, zones flipping
        ExecutorService relabeller = Executors.newSingleThreadExecutor();
        Random random = new Random(20);
        Future<?> done = relabeller.submit(() -> {
            for (int round = 0; round < 30; round++) {
                String node = nodes.get(random.nextInt(nodes.size()));
                if (random.nextBoolean()) {
                    label(node, EXCLUDE, random.nextBoolean() ? "" : null);
                } else {
                    label(node, "zone", random.nextBoolean() ? "a" : "b");
                }
            }
        });
        done.get(60, TimeUnit.SECONDS);
        relabeller.shutdownNow();
        // the final labels: load-a excluded, load-b in zone b, load-c and load-d in zone a
        label("load-a", EXCLUDE, "drain");
        label("load-b", EXCLUDE, null);
        label("load-b", "zone", "b");
        for (String n : List.of("load-c", "load-d")) {
            label(n, EXCLUDE, null);
            label(n, "zone", "a");
        }
        eventually(() -> {
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < services; i++) {
                ServiceLoadBalancerStatus s = cluster.slb("load", "web-" + i).getStatus();
                List<String> expected = i % 2 == 0 ? List.of("load-b", "load-c", "load-d")
                        : List.of("load-c", "load-d");
                if (s == null || !expected.equals(s.getAdvertisingNodes())
                        || (i % 2 == 0 && !expected.contains(String.valueOf(s.getArpAnnouncingNode())))) {
                    wrong.add("web-" + i + "=" + (s == null ? null : s.getAdvertisingNodes() + "/"
                            + s.getArpAnnouncingNode()));
                }
            }
            assertThat(wrong).isEmpty();
        });
        for (int i = 0; i < services; i += 2) {
            assertThat(cluster.arp("load", "web-" + i).getSpec().getNodeName()).isNotEqualTo("load-a");
        }
    }

    @Test
    void announcedFollowsTheBgpSessionsOfTheAdvertisingNodes() {
        cluster.ensureNode("ann-a");
        cluster.pool("ann-pool", "bgp", "10.75.0.0/30");
        cluster.network("ann-net", "bgp", "ann-pool");
        cluster.service("ann", "web", "ann-net");
        cluster.endpoints("ann", "web", "ann-a");
        eventually(() -> {
            ServiceLoadBalancerStatus s = status("ann", "web");
            assertThat(condition(s, JuneauConstants.CONDITION_AVAILABLE).getStatus()).isEqualTo("True");
            assertThat(condition(s, JuneauConstants.CONDITION_ANNOUNCED).getReason())
                    .isEqualTo(JuneauConstants.REASON_NOT_ANNOUNCED);
            assertThat(condition(s, JuneauConstants.CONDITION_ANNOUNCED).getMessage()).startsWith("ann-a: no BGPSession");
        });

        session("tor-1", "ann-a", "Active", "Connection refused");
        eventually(() -> assertThat(condition(status("ann", "web"), JuneauConstants.CONDITION_ANNOUNCED).getMessage())
                .startsWith("ann-a: no Established session (tor-1: Active, Connection refused)"));

        session("tor-1", "ann-a", "Established", null);
        eventually(() -> {
            var c = condition(status("ann", "web"), JuneauConstants.CONDITION_ANNOUNCED);
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getMessage()).isEqualTo("VIP " + status("ann", "web").getVip()
                    + " is announced by ann-a (tor-1)");
        });

        // Established, but the node's BIRD refused the network: the router never learnt the VIP from ann-a
        String why = "BIRD refused ExternalNetwork ann-net, left out of this node's configuration: bird.conf:21:36 x";
        session("tor-1", "ann-a", "Established", null, List.of(new WithheldNetwork("ann-net", why)));
        eventually(() -> {
            var c = condition(status("ann", "web"), JuneauConstants.CONDITION_ANNOUNCED);
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getMessage()).startsWith("ann-a: its BIRD does not carry the routes of this network (tor-1: "
                    + why + ")");
        });
        session("tor-1", "ann-a", "Established", null, List.of(new WithheldNetwork("other-net", why)));
        eventually(() -> assertThat(condition(status("ann", "web"), JuneauConstants.CONDITION_ANNOUNCED).getStatus())
                .as("another network withheld says nothing about this one").isEqualTo("True"));

        // per route (docs/bgp.md, "Status"): the network is sent, but the configuration ann-a's BIRD runs has no
        // route for this VIP yet (the window between this status write and the agent's configure)
        String vip = status("ann", "web").getVip();
        session("tor-1", "ann-a", "Established", null, null, List.of("10.75.9.1-10.75.9.4"));
        eventually(() -> {
            var c = condition(status("ann", "web"), JuneauConstants.CONDITION_ANNOUNCED);
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getMessage()).startsWith("ann-a: its BIRD does not carry a route for VIP " + vip
                    + " yet (tor-1: not in status.carriedAddresses)");
        });
        session("tor-1", "ann-a", "Established", null, null, List.of("10.75.0.0-10.75.0.3"));
        eventually(() -> {
            var c = condition(status("ann", "web"), JuneauConstants.CONDITION_ANNOUNCED);
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getMessage()).isEqualTo("VIP " + vip + " is announced by ann-a (tor-1)");
        });
    }

    /** Written as the node agent writes it: only agents may create BGPSessions and their status. */
    private void session(String peer, String node, String state, String error) {
        session(peer, node, state, error, null);
    }

    private void session(String peer, String node, String state, String error, List<WithheldNetwork> withheld) {
        session(peer, node, state, error, withheld, null);
    }

    private void session(String peer, String node, String state, String error, List<WithheldNetwork> withheld,
            List<String> carried) {
        String name = JuneauConstants.bgpSessionName(peer, node);
        try (var agent = cluster.newAgentClient(node)) {
            var resource = agent.resources(BGPSession.class).withName(name);
            if (resource.get() == null) {
                BGPSession s = new BGPSession();
                s.getMetadata().setName(name);
                s.getMetadata().setLabels(Map.of(JuneauConstants.LABEL_PEER, peer, JuneauConstants.LABEL_NODE, node));
                BGPSessionSpec spec = new BGPSessionSpec();
                spec.setPeer(peer);
                spec.setNodeName(node);
                s.setSpec(spec);
                agent.resource(s).create();
            }
            BGPSession current = resource.get();
            BGPSessionStatus st = new BGPSessionStatus();
            st.setState(state);
            st.setLastError(error);
            st.setWithheldNetworks(withheld);
            st.setCarriedAddresses(carried);
            current.setStatus(st);
            agent.resource(current).updateStatus();
        }
    }

}
