package me.loutres.juneau.agent.net;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import me.loutres.juneau.api.v1alpha1.NodeGateway;
import me.loutres.juneau.api.v1alpha1.NodeInterface;
import me.loutres.juneau.api.v1alpha1.NodeNetworkStatus;

/**
 * What {@code ip -j addr show}, {@code ip -j route show default} and {@code ip -j -6 route show default} say, as a
 * NodeNetwork status (docs/api-reference.md, NodeNetwork): every interface but loopback, sorted by name, with its
 * MAC, whether it is up and its addresses with their prefix length, link-local ones (scope link, 169.254.0.0/16,
 * fe80::/10) left out; the next hops of the default routes of both families, multipath ones included. Pure.
 */
public final class NodeNetworkParse {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NO_MAC = "00:00:00:00:00:00";

    private NodeNetworkParse() {
    }

    public static NodeNetworkStatus parse(String addrJson, String routes4Json, String routes6Json) throws IOException {
        List<NodeInterface> interfaces = new ArrayList<>();
        for (JsonNode link : array(addrJson)) {
            Set<String> flags = texts(link.path("flags"));
            String name = link.path("ifname").asText("");
            if (name.isEmpty() || flags.contains("LOOPBACK")) {
                continue;
            }
            List<String> addresses = new ArrayList<>();
            for (JsonNode a : link.path("addr_info")) {
                String local = a.path("local").asText("");
                if (local.isEmpty() || "link".equals(a.path("scope").asText()) || linkLocal(local)) {
                    continue;
                }
                addresses.add(local + "/" + a.path("prefixlen").asInt());
            }
            String mac = link.path("address").asText("");
            interfaces.add(new NodeInterface(name, mac.isEmpty() || NO_MAC.equals(mac) ? null : mac,
                    flags.contains("UP"), addresses));
        }
        interfaces.sort(Comparator.comparing(NodeInterface::getName));
        List<NodeGateway> gateways = new ArrayList<>();
        gateways(routes4Json, gateways);
        gateways(routes6Json, gateways);
        return new NodeNetworkStatus(interfaces, gateways);
    }

    private static void gateways(String json, List<NodeGateway> out) throws IOException {
        for (JsonNode route : array(json)) {
            if (!"default".equals(route.path("dst").asText())) {
                continue;
            }
            add(route, route.path("dev").asText(null), out);
            for (JsonNode hop : route.path("nexthops")) {
                add(hop, hop.path("dev").asText(route.path("dev").asText(null)), out);
            }
        }
    }

    private static void add(JsonNode hop, String dev, List<NodeGateway> out) {
        String gw = hop.path("gateway").asText("");
        if (!gw.isEmpty()) {
            NodeGateway g = new NodeGateway(gw, dev);
            if (!out.contains(g)) {
                out.add(g);
            }
        }
    }

    private static boolean linkLocal(String address) {
        String a = address.toLowerCase();
        return a.startsWith("169.254.") || a.startsWith("fe8") || a.startsWith("fe9") || a.startsWith("fea")
                || a.startsWith("feb");
    }

    private static JsonNode array(String json) throws IOException {
        if (json == null || json.isBlank()) {
            return JSON.createArrayNode();
        }
        JsonNode n = JSON.readTree(json);
        return n.isArray() ? n : JSON.createArrayNode();
    }

    private static Set<String> texts(JsonNode array) {
        Set<String> out = new TreeSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
