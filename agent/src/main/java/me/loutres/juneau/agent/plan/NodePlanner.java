package me.loutres.juneau.agent.plan;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import me.loutres.juneau.agent.bgp.BfdTiming;
import me.loutres.juneau.agent.bgp.BirdConfig;
import me.loutres.juneau.agent.bgp.Neighbor;
import me.loutres.juneau.agent.bgp.NetworkRoutes;
import me.loutres.juneau.agent.bgp.Prefix;
import me.loutres.juneau.agent.own.Ownership;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPPeerSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkBgp;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.bgp.BfdProfileSpecRules;
import me.loutres.juneau.bgp.Communities;
import me.loutres.juneau.bgp.Community;
import me.loutres.juneau.bgp.Md5PasswordRule;
import me.loutres.juneau.bgp.NetworkBgpRules;
import me.loutres.juneau.bgp.PeerSpecRules;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.selection.LabelSelectors;

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
                        && LabelSelectors.matches(n.getSpec().getNodeSelector(), v.nodeLabels())) {
                    networks.put(n.getMetadata().getName(), n);
                }
            }
        }
        List<NetworkRoutes> routes = new ArrayList<>();
        Map<String, List<Prefix>> prefixes = prefixes(v, networks);
        networks.forEach((name, n) -> routes.add(new NetworkRoutes(name, prefixes.getOrDefault(name, List.of()),
                communities(n, problems), bgp(n).getLocalPref())));

        List<NodePlan.SessionPlan> sessions = new ArrayList<>();
        List<Neighbor> neighbors = new ArrayList<>();
        List<BGPPeer> peers = new ArrayList<>(v.peers());
        peers.sort(Comparator.comparing(p -> p.getMetadata().getName()));
        for (BGPPeer peer : excluded ? List.<BGPPeer>of() : peers) {
            BGPPeerSpec spec = peer.getSpec();
            if (spec == null || peer.getMetadata().getDeletionTimestamp() != null
                    || !LabelSelectors.anyMatches(spec.getNodeSelectors(), v.nodeLabels())) {
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

    private static Map<String, List<Prefix>> prefixes(NodeView v, Map<String, ExternalNetwork> networks) {
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
            int len = NetworkBgpRules.aggregationLength(bgp(n));
            out.computeIfAbsent(n.getMetadata().getName(), k -> new ArrayList<>())
                    .add(Prefix.covering(Ipv4.parse(slb.getStatus().getVip()), len));
        }
        return out;
    }

    /**
     * The network's communities; what admission would refuse (stored around it, or by an older version) is left out
     * and named in the plan's problems; a bad aggregationLength falls back to /32 ({@link NetworkBgpRules}).
     */
    private static List<Community> communities(ExternalNetwork n, List<String> problems) {
        ExternalNetworkBgp bgp = bgp(n);
        NetworkBgpRules.problems(bgp).forEach(p -> problems.add("ExternalNetwork " + n.getMetadata().getName() + ": "
                + p + " (the agent ignores that setting)"));
        List<String> texts = bgp.getCommunities() == null ? List.of() : bgp.getCommunities();
        return texts.stream().filter(c -> Communities.problem(c) == null).map(Communities::parse).toList();
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

    /** The session; IllegalArgumentException with every problem admission would name, as it would word them. */
    private static Neighbor neighbor(String name, BGPPeerSpec spec, NodeView v, List<String> networks) {
        List<String> problems = PeerSpecRules.problems(spec);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        PeerSpecRules.Timers timers = PeerSpecRules.timers(spec);
        return new Neighbor(name, spec.getPeerAddress(), spec.getPeerASN(), spec.getMyASN(), PeerSpecRules.port(spec),
                timers.holdSeconds(), timers.keepaliveSeconds(), Boolean.TRUE.equals(spec.getEbgpMultiHop()),
                spec.getSourceAddress(), password(spec, v), bfd(spec, v), networks);
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
        byte[] bytes = Base64.getDecoder().decode(password);
        Md5PasswordRule.problem(bytes).ifPresent(problem -> {
            throw new IllegalArgumentException("spec.passwordSecret: the value of key '" + key + "' in Secret "
                    + JuneauConstants.SYSTEM_NAMESPACE + "/" + secret + " " + problem + "; " + Md5PasswordRule.ACCEPTED);
        });
        return Md5PasswordRule.text(bytes);
    }

    private static BfdTiming bfd(BGPPeerSpec spec, NodeView v) {
        if (spec.getBfdProfile() == null) {
            return null;
        }
        BFDProfile profile = v.profiles().stream()
                .filter(p -> spec.getBfdProfile().equals(p.getMetadata().getName())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("spec.bfdProfile: BFDProfile " + spec.getBfdProfile()
                        + " does not exist"));
        List<String> problems = BfdProfileSpecRules.problems(profile.getSpec());
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("spec.bfdProfile: BFDProfile " + spec.getBfdProfile() + ": "
                    + String.join("; ", problems));
        }
        BfdProfileSpecRules.Timing t = BfdProfileSpecRules.timing(profile.getSpec());
        return new BfdTiming(t.receiveMs(), t.transmitMs(), t.multiplier(), t.passive());
    }
}
