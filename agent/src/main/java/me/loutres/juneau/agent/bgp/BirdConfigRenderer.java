package me.loutres.juneau.agent.bgp;

import java.nio.charset.StandardCharsets;
import java.util.List;
import me.loutres.juneau.bgp.Community;
import me.loutres.juneau.bgp.Md5PasswordRule;

/**
 * BIRD 2's configuration for a {@link BirdConfig}, as deterministic text. Pure.
 *
 * <p>The shape is chosen so that BIRD's {@code configure} touches only what changed (docs/bgp.md): the routes live in
 * one static protocol per ExternalNetwork (adding or removing a route reconfigures that protocol in place); each peer
 * has its own export filter that accepts the routes of the networks it is sent, keyed by the static protocol's name,
 * and adds the network's communities (and LOCAL_PREF for iBGP peers) on the way out. A changed filter makes BIRD
 * re-send that peer's routes, never restart its session; only a change of the peer's own session options does.
 * Nothing is imported and no kernel protocol exists: the node programs no route (kube-proxy delivers the traffic).
 */
public final class BirdConfigRenderer {
    private BirdConfigRenderer() {
    }

    public static String render(BirdConfig config) {
        StringBuilder out = new StringBuilder(256 + 40 * config.networks().stream()
                .mapToInt(n -> n.prefixes().size()).sum());
        out.append("# Written by the Juneau node agent at every change; BIRD reads it on 'configure'.\n")
                .append("# Do not edit: the next change overwrites it (docs/bgp.md).\n")
                .append("router id ").append(config.routerId()).append(";\n")
                .append("log stderr { info, remote, warning, error, auth, fatal, bug };\n\n")
                .append("protocol device 'juneau-device' {\n}\n");
        if (config.neighbors().stream().anyMatch(n -> n.bfd() != null)) {
            out.append("\n# BFD sessions are requested by the BGP sessions below, each with its own timing\n")
                    .append("protocol bfd 'juneau-bfd' {\n}\n");
        }
        for (NetworkRoutes network : config.networks()) {
            renderRoutes(out, network);
        }
        for (Neighbor neighbor : config.neighbors()) {
            renderFilter(out, neighbor, config.networks());
            renderSession(out, neighbor);
        }
        return out.toString();
    }

    private static void renderRoutes(StringBuilder out, NetworkRoutes network) {
        comment(out, "ExternalNetwork", network.network());
        out.append("\nprotocol static '").append(BirdSymbols.network(network.network())).append("' {\n")
                .append("  ipv4;\n");
        for (Prefix p : network.prefixes()) {
            // blackhole: a route BIRD keeps up without a next hop; BGP sends it with next hop self
            out.append("  route ").append(p).append(" blackhole;\n");
        }
        out.append("}\n");
    }

    private static void renderFilter(StringBuilder out, Neighbor neighbor, List<NetworkRoutes> networks) {
        comment(out, "BGPPeer", neighbor.peer());
        out.append("\nfilter '").append(BirdSymbols.exportFilter(neighbor.peer())).append("' {\n");
        for (NetworkRoutes network : networks) {
            if (!neighbor.networks().contains(network.network())) {
                continue;
            }
            out.append("  if proto = \"").append(BirdSymbols.network(network.network())).append("\" then {\n");
            for (Community c : network.communities()) {
                if (c instanceof Community.Standard s) {
                    out.append("    bgp_community.add((").append(s.asn()).append(", ").append(s.value()).append("));\n");
                } else if (c instanceof Community.Large l) {
                    out.append("    bgp_large_community.add((").append(l.global()).append(", ").append(l.local1())
                            .append(", ").append(l.local2()).append("));\n");
                }
            }
            if (network.localPref() != null && neighbor.internal()) {
                out.append("    bgp_local_pref = ").append(network.localPref()).append(";\n");
            }
            out.append("    accept;\n  }\n");
        }
        out.append("  reject;\n}\n");
    }

    private static void renderSession(StringBuilder out, Neighbor n) {
        out.append("\nprotocol bgp '").append(BirdSymbols.peer(n.peer())).append("' {\n");
        out.append("  local as ").append(n.localAs()).append(";\n");
        if (n.sourceAddress() != null) {
            out.append("  source address ").append(address(n.sourceAddress())).append(";\n");
        }
        out.append("  neighbor ").append(address(n.address())).append(" port ").append(n.port()).append(" as ")
                .append(n.peerAs()).append(";\n");
        out.append("  hold time ").append(n.holdSeconds()).append(";\n");
        if (n.keepaliveSeconds() != null && n.keepaliveSeconds() > 0) {
            out.append("  keepalive time ").append(n.keepaliveSeconds()).append(";\n");
        }
        if (n.multihop()) {
            out.append("  multihop;\n");
        } else if (!n.internal()) {
            out.append("  direct;\n");
        }
        if (n.password() != null) {
            // the planner gives only passwords the rule accepts; a quote written here would break the whole file
            Md5PasswordRule.problem(n.password().getBytes(StandardCharsets.UTF_8)).ifPresent(problem -> {
                throw new IllegalArgumentException("the password of peer " + n.peer() + " " + problem
                        + " and cannot be written for BIRD; " + Md5PasswordRule.ACCEPTED);
            });
            out.append("  password \"").append(n.password()).append("\";\n");
        }
        if (n.bfd() != null) {
            BfdTiming b = n.bfd();
            out.append("  bfd { min rx interval ").append(b.receiveMs()).append(" ms; min tx interval ")
                    .append(b.transmitMs()).append(" ms; multiplier ").append(b.multiplier()).append("; passive ")
                    .append(b.passive() ? "on" : "off").append("; };\n");
        }
        // BIRD waits 5 s before its first connection, 120 s between attempts and 60-300 s after an error by default:
        // a node whose router comes back must announce again within seconds, as MetalLB's FRR does
        out.append("  connect delay time 1;\n  connect retry time 5;\n  error wait time 1, 10;\n");
        // no graceful restart: a peer that kept our routes after the agent died would send traffic to a dead node
        out.append("  graceful restart off;\n")
                .append("  long lived graceful restart off;\n")
                .append("  ipv4 { import none; export filter '").append(BirdSymbols.exportFilter(n.peer()))
                .append("'; next hop self; };\n")
                .append("}\n");
    }

    /** The full name beside a symbol that had to be shortened: what a person reading bird.conf looks for. */
    private static void comment(StringBuilder out, String kind, String name) {
        if (BirdSymbols.shortened(name)) {
            out.append("\n# ").append(kind).append(' ').append(name);
        }
    }

    private static String address(String address) {
        if (!me.loutres.juneau.ip.Ipv4.isValid(address)) {
            throw new IllegalArgumentException("'" + address + "' is not an IPv4 address");
        }
        return address;
    }
}
