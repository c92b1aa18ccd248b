package me.loutres.juneau.agent.plan;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BFDProfileSpec;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPPeerSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkBgp;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.SecretKeyRef;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;

/** The objects of the planner's table tests, small and explicit. */
public final class PlanObjects {
    private PlanObjects() {
    }

    public static ObjectMeta meta(String name) {
        return new ObjectMetaBuilder().withName(name).withUid("uid-" + name).withGeneration(1L).build();
    }

    public static ExternalNetwork bgpNetwork(String name, ExternalNetworkBgp bgp, LabelSelector nodeSelector) {
        ExternalNetwork n = new ExternalNetwork();
        n.setMetadata(meta(name));
        ExternalNetworkSpec spec = new ExternalNetworkSpec("bgp", List.of("pool-" + name));
        spec.setBgp(bgp);
        spec.setNodeSelector(nodeSelector);
        n.setSpec(spec);
        return n;
    }

    public static ExternalNetworkBgp bgp(List<String> peers, List<String> communities, Long localPref, Integer aggregation) {
        ExternalNetworkBgp b = new ExternalNetworkBgp();
        b.setPeers(peers);
        b.setCommunities(communities);
        b.setLocalPref(localPref);
        b.setAggregationLength(aggregation);
        return b;
    }

    public static ServiceLoadBalancer slb(String name, String network, String vip, String... nodes) {
        ServiceLoadBalancer s = new ServiceLoadBalancer();
        ObjectMeta m = meta(name);
        m.setNamespace("default");
        s.setMetadata(m);
        s.setSpec(new ServiceLoadBalancerSpec(name, network, null));
        ServiceLoadBalancerStatus st = new ServiceLoadBalancerStatus();
        st.setVip(vip);
        st.setAdvertisingNodes(List.of(nodes));
        s.setStatus(st);
        return s;
    }

    public static BGPPeer peer(String name, String address, long peerAs, long myAs) {
        BGPPeer p = new BGPPeer();
        p.setMetadata(meta(name));
        BGPPeerSpec spec = new BGPPeerSpec();
        spec.setPeerAddress(address);
        spec.setPeerASN(peerAs);
        spec.setMyASN(myAs);
        p.setSpec(spec);
        return p;
    }

    public static BGPPeer withSelector(BGPPeer p, Map<String, String> labels) {
        p.getSpec().setNodeSelectors(List.of(new LabelSelectorBuilder().withMatchLabels(labels).build()));
        return p;
    }

    public static BGPPeer withPassword(BGPPeer p, String secret, String key) {
        SecretKeyRef ref = new SecretKeyRef();
        ref.setName(secret);
        ref.setKey(key);
        p.getSpec().setPasswordSecret(ref);
        return p;
    }

    public static BFDProfile profile(String name, Integer rx, Integer tx, Integer mult, Boolean passive) {
        BFDProfile p = new BFDProfile();
        p.setMetadata(meta(name));
        BFDProfileSpec s = new BFDProfileSpec();
        s.setReceiveInterval(rx);
        s.setTransmitInterval(tx);
        s.setDetectMultiplier(mult);
        s.setPassiveMode(passive);
        p.setSpec(s);
        return p;
    }
}
