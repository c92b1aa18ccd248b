package me.loutres.juneau.agent.plan;

import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * What one node's agent knows, as plain data: the input of {@link NodePlanner}.
 *
 * @param node           this node's name
 * @param nodeLabels     its Node's labels (empty when the Node is not known yet)
 * @param internalIp     its Node's InternalIP, or null
 * @param routerId       {@code --router-id}, or null for the InternalIP
 * @param advertisements the ARPAdvertisements labelled with this node
 * @param loadBalancers  every ServiceLoadBalancer
 * @param networks       every ExternalNetwork
 * @param peers          every BGPPeer
 * @param profiles       every BFDProfile
 * @param secrets        the Secrets of juneau-system that peers name, by name, each its keys and values as base64
 *                       of their bytes, as a Secret's {@code data} holds them (only the Secrets that exist)
 */
public record NodeView(String node, Map<String, String> nodeLabels, String internalIp, String routerId,
                       List<ARPAdvertisement> advertisements, List<ServiceLoadBalancer> loadBalancers,
                       List<ExternalNetwork> networks, List<BGPPeer> peers, List<BFDProfile> profiles,
                       Map<String, Map<String, String>> secrets) {
    public NodeView {
        nodeLabels = Map.copyOf(nodeLabels == null ? Map.of() : nodeLabels);
        advertisements = List.copyOf(advertisements);
        loadBalancers = List.copyOf(loadBalancers);
        networks = List.copyOf(networks);
        peers = List.copyOf(peers);
        profiles = List.copyOf(profiles);
        secrets = Map.copyOf(secrets);
    }

    @Override
    public String toString() {
        // never the secrets' values
        return "NodeView[" + node + ", " + advertisements.size() + " ARPAdvertisement(s), " + loadBalancers.size()
                + " ServiceLoadBalancer(s), " + peers.size() + " BGPPeer(s)]";
    }
}
