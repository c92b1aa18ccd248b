package me.loutres.juneau.agent.bgp;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import me.loutres.juneau.bgp.Community;
import me.loutres.juneau.ip.Ipv4;

/** The configurations of the golden files (src/test/resources/bird/NAME.conf), one per feature. */
final class BirdConfigs {
    private BirdConfigs() {
    }

    static Neighbor ebgp(String peer, String address, List<String> networks) {
        return new Neighbor(peer, address, 65000, 65001, 179, 90, null, false, null, null, null, networks);
    }

    static NetworkRoutes routes(String network, List<Community> communities, Long localPref, String... prefixes) {
        return new NetworkRoutes(network, java.util.Arrays.stream(prefixes).map(p -> {
            String[] parts = p.split("/");
            return new Prefix(Ipv4.parse(parts[0]), Integer.parseInt(parts[1]));
        }).toList(), communities, localPref);
    }

    static final String ROUTER = "198.18.0.2";

    static Map<String, BirdConfig> all() {
        Map<String, BirdConfig> m = new TreeMap<>();
        m.put("minimal", new BirdConfig(ROUTER, List.of(ebgp("tor-1", "198.18.0.1", List.of("public"))),
                List.of(routes("public", List.of(), null, "198.18.100.2/32", "198.18.100.1/32"))));
        m.put("no-peers", new BirdConfig(ROUTER, List.of(),
                List.of(routes("public", List.of(), null, "198.18.100.1/32"))));
        m.put("communities", new BirdConfig(ROUTER, List.of(ebgp("tor-1", "198.18.0.1", List.of("public"))),
                List.of(routes("public", List.of(new Community.Standard(65000, 100),
                        new Community.Standard(65535, 65281), new Community.Large(4200000000L, 1, 4294967295L)),
                        null, "198.18.100.1/32"))));
        m.put("local-pref-ibgp-only", new BirdConfig(ROUTER, List.of(
                new Neighbor("rr", "198.18.0.3", 65001, 65001, 179, 90, null, false, null, null, null,
                        List.of("public")),
                ebgp("tor-1", "198.18.0.1", List.of("public"))),
                List.of(routes("public", List.of(), 200L, "198.18.100.1/32"))));
        m.put("aggregation", new BirdConfig(ROUTER, List.of(ebgp("tor-1", "198.18.0.1", List.of("public"))),
                List.of(routes("public", List.of(), null, "198.18.100.0/24"))));
        m.put("multihop-source-address", new BirdConfig(ROUTER, List.of(
                new Neighbor("core", "198.19.0.1", 65000, 65001, 1179, 30, 10, true, "198.18.0.2", null, null,
                        List.of("public"))),
                List.of(routes("public", List.of(), null, "198.18.100.1/32"))));
        m.put("md5", new BirdConfig(ROUTER, List.of(
                new Neighbor("tor-1", "198.18.0.1", 65000, 65001, 179, 90, null, false, null, "s3cret pass", null,
                        List.of("public"))),
                List.of(routes("public", List.of(), null, "198.18.100.1/32"))));
        m.put("bfd", new BirdConfig(ROUTER, List.of(
                new Neighbor("tor-1", "198.18.0.1", 65000, 65001, 179, 9, 3, false, null, null,
                        new BfdTiming(300, 300, 3, false), List.of("public")),
                new Neighbor("tor-2", "198.18.0.4", 65000, 65001, 179, 9, 3, false, null, null,
                        new BfdTiming(100, 200, 5, true), List.of("public"))),
                List.of(routes("public", List.of(), null, "198.18.100.1/32"))));
        m.put("hold-time-zero", new BirdConfig(ROUTER, List.of(
                new Neighbor("tor-1", "198.18.0.1", 65000, 65001, 179, 0, null, false, null, null, null,
                        List.of("public"))),
                List.of(routes("public", List.of(), null, "198.18.100.1/32"))));
        m.put("peers-per-network", new BirdConfig(ROUTER, List.of(
                ebgp("tor-1", "198.18.0.1", List.of("public", "private")),
                ebgp("tor-2", "198.18.0.4", List.of("private"))),
                List.of(routes("public", List.of(new Community.Standard(65000, 1)), null, "198.18.100.1/32"),
                        routes("private", List.of(new Community.Standard(65000, 2)), null, "198.18.101.1/32"))));
        String longPeer = "tor-" + "a".repeat(249); // 253 characters, the longest Kubernetes name
        String longNetwork = "public-" + "b".repeat(93);
        m.put("long-names", new BirdConfig(ROUTER, List.of(
                new Neighbor(longPeer, "198.18.0.1", 65001, 65001, 179, 9, 3, false, "198.18.0.2", null,
                        new BfdTiming(300, 300, 3, false), List.of(longNetwork))),
                List.of(routes(longNetwork, List.of(), 100L, "198.18.100.1/32"))));
        return m;
    }
}
