package me.loutres.juneau.agent.bgp;

import java.util.List;
import java.util.regex.Pattern;

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
    /** Kubernetes object names (DNS-1123 subdomains): safe inside BIRD's quoted symbols and strings. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?");
    /** BIRD's strings end at the next double quote and have no escapes. */
    private static final Pattern PASSWORD = Pattern.compile("[^\"\\\\\\n\\r\\x00]{1,80}");

    private BirdConfigRenderer() {
    }

    public static String protocolName(String peer) {
        return "peer:" + peer;
    }

    public static String staticName(String network) {
        return "net:" + network;
    }

    /** The peer a BGP protocol speaks for, or null for a protocol that is not a peer's. */
    public static String peerOf(String protocol) {
        return protocol.startsWith("peer:") ? protocol.substring(5) : null;
    }

    /** Whether a password can be written into BIRD's configuration (docs/bgp.md says which cannot). */
    public static boolean writablePassword(String password) {
        return PASSWORD.matcher(password).matches();
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
        out.append("\nprotocol static '").append(staticName(name(network.network()))).append("' {\n")
                .append("  ipv4;\n");
        for (Prefix p : network.prefixes()) {
            // blackhole: a route BIRD keeps up without a next hop; BGP sends it with next hop self
            out.append("  route ").append(p).append(" blackhole;\n");
        }
        out.append("}\n");
    }

    private static void renderFilter(StringBuilder out, Neighbor neighbor, List<NetworkRoutes> networks) {
        out.append("\nfilter '").append(exportFilterName(name(neighbor.peer()))).append("' {\n");
        for (NetworkRoutes network : networks) {
            if (!neighbor.networks().contains(network.network())) {
                continue;
            }
            out.append("  if proto = \"").append(staticName(network.network())).append("\" then {\n");
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

    static String exportFilterName(String peer) {
        return "export:" + peer;
    }

    private static void renderSession(StringBuilder out, Neighbor n) {
        out.append("\nprotocol bgp '").append(protocolName(name(n.peer()))).append("' {\n");
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
            if (!writablePassword(n.password())) {
                throw new IllegalArgumentException("the password of peer " + n.peer()
                        + " cannot be written for BIRD (1-80 characters without a double quote, backslash or line break)");
            }
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
                .append("  ipv4 { import none; export filter '").append(exportFilterName(n.peer()))
                .append("'; next hop self; };\n")
                .append("}\n");
    }

    private static String name(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a Kubernetes object name");
        }
        return name;
    }

    private static String address(String address) {
        if (!me.loutres.juneau.ip.Ipv4.isValid(address)) {
            throw new IllegalArgumentException("'" + address + "' is not an IPv4 address");
        }
        return address;
    }
}
