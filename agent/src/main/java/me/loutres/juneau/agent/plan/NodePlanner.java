package me.loutres.juneau.agent.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import me.loutres.juneau.agent.bgp.BfdTiming;
import me.loutres.juneau.agent.bgp.BirdConfig;
import me.loutres.juneau.agent.bgp.BirdConfigRenderer;
import me.loutres.juneau.agent.bgp.Community;
import me.loutres.juneau.agent.bgp.Neighbor;
import me.loutres.juneau.agent.bgp.NetworkRoutes;
import me.loutres.juneau.agent.bgp.Prefix;
import me.loutres.juneau.agent.own.Ownership;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BFDProfileSpec;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPPeerSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkBgp;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.Ipv4;

/**
 * The node's one plan (docs/bgp.md): from what its agent sees ({@link NodeView}) to what it must do ({@link NodePlan}):
 * the VIPs it answers ARP for, and the BGP sessions and routes its BIRD runs. Pure: no client, no clock, no I/O; the
 * drivers carry the plan out.
 *
 * <p>Routes: for every ServiceLoadBalancer on a {@code bgp} network whose {@code status.advertisingNodes} holds this
 * node, the VIP's covering prefix of the network's {@code aggregationLength} (32 by default), sent to every peer the
 * network names (all when it names none) whose {@code nodeSelectors} select this node. A node labelled
 * {@code node.kubernetes.io/exclude-from-external-load-balancers}, or outside a network's {@code nodeSelector},
 * announces nothing of it.
 */
public final class NodePlanner {
    static final int DEFAULT_PORT = 179;
    static final String DEFAULT_HOLD = "90s";
    static final int DEFAULT_BFD_INTERVAL_MS = 300;
    static final int DEFAULT_BFD_MULTIPLIER = 3;

    private NodePlanner() {
    }

    public static NodePlan plan(NodeView v) {
        List<String> problems = new ArrayList<>();
        boolean excluded = v.nodeLabels().containsKey(JuneauConstants.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS);
        Map<String, ExternalNetwork> networks = new TreeMap<>();
        if (!excluded) {
            for (ExternalNetwork n : v.networks()) {
                if (n.getSpec() != null && JuneauConstants.MODE_BGP.equals(n.getSpec().getType())
                        && n.getMetadata().getDeletionTimestamp() == null
                        && Selectors.matches(n.getSpec().getNodeSelector(), v.nodeLabels())) {
                    networks.put(n.getMetadata().getName(), n);
                }
            }
        }
        List<NetworkRoutes> routes = new ArrayList<>();
        Map<String, List<Prefix>> prefixes = prefixes(v, networks, problems);
        networks.forEach((name, n) -> routes.add(new NetworkRoutes(name, prefixes.getOrDefault(name, List.of()),
                communities(n, problems), bgp(n).getLocalPref())));

        List<NodePlan.SessionPlan> sessions = new ArrayList<>();
        List<Neighbor> neighbors = new ArrayList<>();
        List<BGPPeer> peers = new ArrayList<>(v.peers());
        peers.sort(Comparator.comparing(p -> p.getMetadata().getName()));
        for (BGPPeer peer : excluded ? List.<BGPPeer>of() : peers) {
            BGPPeerSpec spec = peer.getSpec();
            if (spec == null || peer.getMetadata().getDeletionTimestamp() != null
                    || !Selectors.anyMatches(spec.getNodeSelectors(), v.nodeLabels())) {
                continue; // no session from this node at all
            }
            String name = peer.getMetadata().getName();
            String problem = null;
            try {
                neighbors.add(neighbor(name, spec, v, sendsTo(name, networks)));
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
            }
            Long generation = peer.getMetadata().getGeneration();
            sessions.add(new NodePlan.SessionPlan(name, peer.getMetadata().getUid(),
                    generation == null ? 0 : generation, spec.getPeerAddress(), spec.getBfdProfile() != null,
                    problem));
        }
        String routerId = v.routerId() != null ? v.routerId() : v.internalIp();
        String birdProblem = null;
        if (routerId == null || !Ipv4.isValid(routerId)) {
            birdProblem = "node " + v.node() + " has no InternalIP to use as the BGP router id; pass --router-id";
            routerId = "0.0.0.0";
        }
        return new NodePlan(Ownership.of(v.node(), v.advertisements()), Ownership.invalid(v.node(), v.advertisements()),
                new BirdConfig(routerId, neighbors, routes), sessions, birdProblem, problems);
    }

    private static ExternalNetworkBgp bgp(ExternalNetwork n) {
        return n.getSpec().getBgp() == null ? new ExternalNetworkBgp() : n.getSpec().getBgp();
    }

    private static Map<String, List<Prefix>> prefixes(NodeView v, Map<String, ExternalNetwork> networks,
            List<String> problems) {
        Map<String, List<Prefix>> out = new TreeMap<>();
        for (ServiceLoadBalancer slb : v.loadBalancers()) {
            if (slb.getSpec() == null || slb.getStatus() == null || slb.getMetadata().getDeletionTimestamp() != null
                    || slb.getStatus().getAdvertisingNodes() == null
                    || !slb.getStatus().getAdvertisingNodes().contains(v.node())
                    || !Ipv4.isValid(slb.getStatus().getVip())) {
                continue;
            }
            ExternalNetwork n = networks.get(slb.getSpec().getExternalNetwork());
            if (n == null) {
                continue;
            }
            Integer length = bgp(n).getAggregationLength();
            int len = length == null ? 32 : length;
            if (len < 24 || len > 32) {
                problems.add("ExternalNetwork " + n.getMetadata().getName() + ": spec.bgp.aggregationLength " + len
                        + " is outside 24-32; announcing /32 routes");
                len = 32;
            }
            out.computeIfAbsent(n.getMetadata().getName(), k -> new ArrayList<>())
                    .add(Prefix.covering(Ipv4.parse(slb.getStatus().getVip()), len));
        }
        return out;
    }

    private static List<Community> communities(ExternalNetwork n, List<String> problems) {
        List<Community> out = new ArrayList<>();
        List<String> texts = bgp(n).getCommunities();
        for (String c : texts == null ? List.<String>of() : texts) {
            try {
                out.add(Communities.parse(c));
            } catch (IllegalArgumentException e) {
                problems.add("ExternalNetwork " + n.getMetadata().getName() + ": spec.bgp.communities: "
                        + e.getMessage() + "; announcing without it");
            }
        }
        return out;
    }

    private static List<String> sendsTo(String peer, Map<String, ExternalNetwork> networks) {
        List<String> out = new ArrayList<>();
        networks.forEach((name, n) -> {
            List<String> named = bgp(n).getPeers();
            if (named == null || named.isEmpty() || named.contains(peer)) {
                out.add(name);
            }
        });
        return out;
    }

    private static Neighbor neighbor(String name, BGPPeerSpec spec, NodeView v, List<String> networks) {
        String address = spec.getPeerAddress();
        if (!Ipv4.isValid(address)) {
            throw new IllegalArgumentException("spec.peerAddress: '" + address + "' is not an IPv4 address");
        }
        if (spec.getPeerASN() == null || spec.getMyASN() == null) {
            throw new IllegalArgumentException("spec.peerASN and spec.myASN are required");
        }
        long hold = seconds("spec.holdTime", spec.getHoldTime() == null ? DEFAULT_HOLD : spec.getHoldTime());
        if (hold != 0 && (hold < 3 || hold > 65535)) {
            throw new IllegalArgumentException("spec.holdTime: " + hold + " s is neither 0s nor within 3-65535 s");
        }
        Integer keepalive = null;
        if (spec.getKeepaliveTime() != null && hold != 0) {
            long k = seconds("spec.keepaliveTime", spec.getKeepaliveTime());
            if (k < 1 || k >= hold) {
                throw new IllegalArgumentException("spec.keepaliveTime: " + k + " s must be at least 1 s and less than"
                        + " the hold time (" + hold + " s)");
            }
            keepalive = (int) k;
        }
        String source = spec.getSourceAddress();
        if (source != null && !Ipv4.isValid(source)) {
            throw new IllegalArgumentException("spec.sourceAddress: '" + source + "' is not an IPv4 address");
        }
        return new Neighbor(name, address, spec.getPeerASN(), spec.getMyASN(),
                spec.getPeerPort() == null ? DEFAULT_PORT : spec.getPeerPort(), (int) hold, keepalive,
                Boolean.TRUE.equals(spec.getEbgpMultiHop()), source, password(spec, v), bfd(spec, v), networks);
    }

    private static long seconds(String field, String text) {
        try {
            return Durations.seconds(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage());
        }
    }

    private static String password(BGPPeerSpec spec, NodeView v) {
        if (spec.getPasswordSecret() == null) {
            return null;
        }
        String secret = spec.getPasswordSecret().getName();
        String key = spec.getPasswordSecret().getKey();
        Map<String, String> data = v.secrets().get(secret);
        if (data == null) {
            throw new IllegalArgumentException("spec.passwordSecret: Secret " + JuneauConstants.SYSTEM_NAMESPACE + "/"
                    + secret + " does not exist (or the agent may not read it)");
        }
        String password = data.get(key);
        if (password == null) {
            throw new IllegalArgumentException("spec.passwordSecret: Secret " + JuneauConstants.SYSTEM_NAMESPACE + "/"
                    + secret + " has no key '" + key + "'");
        }
        if (!BirdConfigRenderer.writablePassword(password)) {
            throw new IllegalArgumentException("spec.passwordSecret: the password in Secret "
                    + JuneauConstants.SYSTEM_NAMESPACE + "/" + secret + " key '" + key + "' must be 1-80 characters"
                    + " without a double quote, backslash or line break");
        }
        return password;
    }

    private static BfdTiming bfd(BGPPeerSpec spec, NodeView v) {
        if (spec.getBfdProfile() == null) {
            return null;
        }
        BFDProfile profile = v.profiles().stream()
                .filter(p -> spec.getBfdProfile().equals(p.getMetadata().getName())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("spec.bfdProfile: BFDProfile " + spec.getBfdProfile()
                        + " does not exist"));
        BFDProfileSpec s = profile.getSpec() == null ? new BFDProfileSpec() : profile.getSpec();
        return new BfdTiming(or(s.getReceiveInterval(), DEFAULT_BFD_INTERVAL_MS),
                or(s.getTransmitInterval(), DEFAULT_BFD_INTERVAL_MS), or(s.getDetectMultiplier(), DEFAULT_BFD_MULTIPLIER),
                Boolean.TRUE.equals(s.getPassiveMode()));
    }

    private static int or(Integer v, int d) {
        return v == null ? d : v;
    }
}
