package me.loutres.juneau.webhook.fuzz;

import static me.loutres.juneau.webhook.Reviews.CONTROLLER;
import static me.loutres.juneau.webhook.Reviews.GC;
import static me.loutres.juneau.webhook.Reviews.managedService;
import static me.loutres.juneau.webhook.Reviews.serviceLoadBalancer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import me.loutres.juneau.webhook.Reviews;
import me.loutres.juneau.webhook.bench.ServiceReview;

/**
 * The well-formed reviews the fuzzer starts from: one or more per path and operation, each one the rules accept or
 * deny for a real reason against {@code cluster-state.yaml}, so that damage reaches every rule and not only the
 * envelope. The uids are fixed so that a seed of the fuzzer always produces the same bytes.
 */
public final class Seeds {
    /** A seed review and the path it is sent to. */
    public record Seed(String name, String path, ObjectNode review) {
    }

    public static final String AGENT = "system:serviceaccount:juneau-system:juneau-agent";

    private static final List<Seed> ALL = build();

    private Seeds() {
    }

    public static List<Seed> all() {
        return ALL;
    }

    private static List<Seed> build() {
        String web = managedService("web", "public", "Local", null);
        String webRequested = managedService("web", "public", "Local",
                "\"juneau.loutres.me/load-balancer-requested-ip\":\"203.0.113.7\"");
        String webArp = managedService("lan-web", "lan", "Cluster",
                "\"juneau.loutres.me/load-balancer-requested-ip\":\"198.51.100.12\"");
        String slb = serviceLoadBalancer("web", "\"serviceloadbalancer.juneau.loutres.me/allocation-claim\"", "203.0.113.6");
        String pool = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-new"},
                 "spec":{"advertiseMode":"bgp","addresses":["203.0.113.64/28","203.0.113.100-203.0.113.110"]}}""";
        String poolBgp = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-bgp"},
                 "spec":{"advertiseMode":"bgp","addresses":["203.0.113.0/28"]},
                 "status":{"total":16,"allocated":1,"free":15}}""";
        String network = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ExternalNetwork","metadata":{"name":"dmz"},
                 "spec":{"type":"bgp","addressPools":["pool-bgp","pool-missing"]}}""";
        String publicNetwork = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ExternalNetwork","metadata":{"name":"public"},
                 "spec":{"type":"bgp","addressPools":["pool-bgp"]}}""";
        String arp = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ARPAdvertisement",
                 "metadata":{"name":"slb-default-web","labels":{"juneau.loutres.me/service-namespace":"default",
                   "juneau.loutres.me/service-name":"web"}},
                 "spec":{"externalNetwork":"lan","address":"198.51.100.12","nodeName":"node-a"}}""";
        String arpWithStatus = arp.replace("\"nodeName\":\"node-a\"}", "\"nodeName\":\"node-a\"},"
                + "\"status\":{\"node\":\"node-a\",\"announcing\":true}");
        String peer = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"BGPPeer","metadata":{"name":"tor-1"},
                 "spec":{"peerAddress":"198.18.0.1","peerASN":64512,"myASN":64513,"peerPort":179,"holdTime":"9s",
                   "keepaliveTime":"3s","sourceAddress":"198.18.0.10","ebgpMultiHop":false,"bfdProfile":"fast",
                   "passwordSecret":{"name":"tor-auth","key":"password"},
                   "nodeSelectors":[{"matchLabels":{"rack":"r1"},
                     "matchExpressions":[{"key":"zone","operator":"In","values":["a","b"]}]}]}}""";
        String bfd = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"BFDProfile","metadata":{"name":"fast"},
                 "spec":{"receiveInterval":300,"transmitInterval":300,"detectMultiplier":3,"passiveMode":false}}""";
        String bgpNetwork = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ExternalNetwork","metadata":{"name":"edge"},
                 "spec":{"type":"bgp","addressPools":["pool-new"],
                   "nodeSelector":{"matchExpressions":[{"key":"zone","operator":"NotIn","values":["c"]}]},
                   "bgp":{"peers":["tor-1"],"communities":["64512:100","1:2:3","no-export"],"localPref":100,
                     "aggregationLength":32}}}""";
        String session = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"BGPSession","metadata":{"name":"tor-1.node-a",
                   "labels":{"juneau.loutres.me/peer":"tor-1","juneau.loutres.me/node":"node-a"}},
                 "spec":{"peer":"tor-1","nodeName":"node-a"},
                 "status":{"state":"Established","bfdState":"Up","since":"2026-12-01T10:00:00Z","routesAdvertised":3,
                   "observedGeneration":1}}""";
        return List.of(
                seed("BGPPeer CREATE", "/validate/bgppeers", Reviews.custom("BGPPeer", "bgppeers", "CREATE").object(peer)),
                seed("BGPPeer DELETE", "/validate/bgppeers", Reviews.custom("BGPPeer", "bgppeers", "DELETE").oldObject(peer)),
                seed("BFDProfile UPDATE", "/validate/bfdprofiles",
                        Reviews.custom("BFDProfile", "bfdprofiles", "UPDATE").object(bfd).oldObject(bfd)),
                seed("ExternalNetwork CREATE with bgp and a selector", "/validate/externalnetworks",
                        Reviews.custom("ExternalNetwork", "externalnetworks", "CREATE").object(bgpNetwork)),
                seed("BGPSession status by the agent", "/validate/bgpsessions",
                        Reviews.custom("BGPSession", "bgpsessions", "UPDATE").user(AGENT).subResource("status")
                                .object(session).oldObject(session)),
                seed("bench Service CREATE", "/validate/services", parse(new String(ServiceReview.json(),
                        java.nio.charset.StandardCharsets.UTF_8))),
                seed("bench Service CREATE mutate", "/mutate/services", parse(new String(ServiceReview.json(),
                        java.nio.charset.StandardCharsets.UTF_8))),
                seed("Service CREATE", "/validate/services", Reviews.service("CREATE").object(web)),
                seed("Service CREATE mutate Cluster", "/mutate/services", Reviews.service("CREATE").object(webArp)),
                seed("Service UPDATE requested ip", "/validate/services",
                        Reviews.service("UPDATE").object(webRequested).oldObject(web)),
                seed("Service UPDATE mutate", "/mutate/services", Reviews.service("UPDATE").object(webArp).oldObject(webArp)),
                seed("Service DELETE", "/validate/services", Reviews.service("DELETE").oldObject(web)),
                seed("AddressPool CREATE", "/validate/addresspools",
                        Reviews.custom("AddressPool", "addresspools", "CREATE").object(pool)),
                seed("AddressPool UPDATE", "/validate/addresspools",
                        Reviews.custom("AddressPool", "addresspools", "UPDATE").object(poolBgp).oldObject(poolBgp)),
                seed("AddressPool DELETE", "/validate/addresspools",
                        Reviews.custom("AddressPool", "addresspools", "DELETE").oldObject(poolBgp)),
                seed("ExternalNetwork CREATE", "/validate/externalnetworks",
                        Reviews.custom("ExternalNetwork", "externalnetworks", "CREATE").object(network)),
                seed("ExternalNetwork UPDATE", "/validate/externalnetworks",
                        Reviews.custom("ExternalNetwork", "externalnetworks", "UPDATE").object(publicNetwork)
                                .oldObject(publicNetwork)),
                seed("ExternalNetwork DELETE", "/validate/externalnetworks",
                        Reviews.custom("ExternalNetwork", "externalnetworks", "DELETE").oldObject(publicNetwork)),
                seed("ServiceLoadBalancer CREATE by the controller", "/validate/serviceloadbalancers",
                        Reviews.custom("ServiceLoadBalancer", "serviceloadbalancers", "CREATE").user(CONTROLLER).object(slb)),
                seed("ServiceLoadBalancer status by the controller", "/validate/serviceloadbalancers",
                        Reviews.custom("ServiceLoadBalancer", "serviceloadbalancers", "UPDATE").user(CONTROLLER)
                                .subResource("status").object(slb.replace("Ready", "Degraded")).oldObject(slb)),
                seed("ServiceLoadBalancer UPDATE by alice", "/validate/serviceloadbalancers",
                        Reviews.custom("ServiceLoadBalancer", "serviceloadbalancers", "UPDATE")
                                .object(serviceLoadBalancer("web", "", "203.0.113.6")).oldObject(slb)),
                seed("ServiceLoadBalancer DELETE by the GC", "/validate/serviceloadbalancers",
                        Reviews.custom("ServiceLoadBalancer", "serviceloadbalancers", "DELETE").user(GC).oldObject(slb)),
                seed("ARPAdvertisement CREATE by the controller", "/validate/arpadvertisements",
                        Reviews.custom("ARPAdvertisement", "arpadvertisements", "CREATE").user(CONTROLLER).object(arp)),
                seed("ARPAdvertisement status by the agent", "/validate/arpadvertisements",
                        Reviews.custom("ARPAdvertisement", "arpadvertisements", "UPDATE").user(AGENT)
                                .subResource("status").object(arpWithStatus).oldObject(arp)));
    }

    private static Seed seed(String name, String path, Reviews.Builder builder) {
        return seed(name, path, parse(builder.json()));
    }

    private static Seed seed(String name, String path, ObjectNode review) {
        // a fixed uid per seed: Reviews.Builder draws a random one
        ((ObjectNode) review.get("request")).put("uid", java.util.UUID.nameUUIDFromBytes(name.getBytes(
                java.nio.charset.StandardCharsets.UTF_8)).toString());
        return new Seed(name, path, review);
    }

    static ObjectNode parse(String json) {
        try {
            JsonNode node = Reviews.JSON.readTree(json);
            return (ObjectNode) node;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
