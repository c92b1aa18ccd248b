package me.loutres.juneau.view;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Collection;
import java.util.Optional;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * What the cross-object admission checks may read of the cluster (SPEC §2): an informer cache in a cluster, a
 * snapshot built from YAML files offline. Implementations return live or immutable objects; callers never modify them.
 */
public interface ClusterView {
    Optional<AddressPool> addressPool(String name);

    Collection<AddressPool> addressPools();

    Optional<ExternalNetwork> externalNetwork(String name);

    Collection<ExternalNetwork> externalNetworks();

    Optional<ServiceLoadBalancer> serviceLoadBalancer(String namespace, String name);

    Collection<ServiceLoadBalancer> serviceLoadBalancers();

    Collection<ARPAdvertisement> arpAdvertisements();

    Optional<Node> node(String name);

    Collection<Node> nodes();
}
