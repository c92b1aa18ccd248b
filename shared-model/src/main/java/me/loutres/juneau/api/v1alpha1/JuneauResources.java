package me.loutres.juneau.api.v1alpha1;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.util.List;

/**
 * Juneau's kinds, to make known to a client's JSON mapping
 * ({@code KINDS.forEach(client.getKubernetesSerialization()::registerKubernetesResource)}, idempotent). fabric8
 * reads every watch event as an untyped object unless its kind is registered, and then converts that object to the informer's class: every ServiceLoadBalancer event
 * was parsed once and converted once more (about 40 % of the informer threads' CPU with 10,000 Services).
 * Registered, an event is read straight into its class. The node agent keeps its untyped reads on purpose (it
 * reports malformed advertisements), so the registration is per client, not global (and made where the client is:
 * shared-model calls no client).
 */
public final class JuneauResources {
    public static final List<Class<? extends KubernetesResource>> KINDS = List.of(AddressPool.class,
            ExternalNetwork.class, ServiceLoadBalancer.class, ARPAdvertisement.class, BGPPeer.class, BFDProfile.class,
            BGPSession.class, NodeNetwork.class);

    private JuneauResources() {
    }
}
