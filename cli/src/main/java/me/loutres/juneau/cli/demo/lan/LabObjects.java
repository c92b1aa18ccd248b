package me.loutres.juneau.cli.demo.lan;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Collection;
import me.loutres.juneau.api.JuneauConstants;

/**
 * The cluster objects both namespace LANs (ARP and BGP) share: a Node per lab host, the Service {@code default/web}
 * on ExternalNetwork {@code lab} with a ready backend on node-a and node-b, and the readiness switch of a backend.
 * Only the pools, networks and peers differ between the two scenarios.
 */
final class LabObjects {
    static final String NS = "default";
    static final String SVC = "web";
    private static final String SLICE = SVC + "-lab";

    private LabObjects() {
    }

    /** One Ready Node per host, its InternalIP the host's address on the LAN. */
    static void nodes(KubernetesClient admin, Collection<ArpLab.Host> hosts) {
        for (ArpLab.Host n : hosts) {
            admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(n.name())
                    .addToLabels("kubernetes.io/hostname", n.name()).endMetadata()
                    .withNewStatus().addNewAddress().withType("InternalIP").withAddress(n.ip()).endAddress()
                    .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build())
                    .create();
        }
    }

    /** The managed Service on network {@code lab} and its EndpointSlice: one ready backend on each of two nodes. */
    static void serviceWithBackends(KubernetesClient admin) {
        serviceWithBackends(admin, SVC, "lab");
    }

    /** A managed Service on {@code network} with a ready backend on node-a and node-b (slice {@code name-lab}). */
    static void serviceWithBackends(KubernetesClient admin, String name, String network) {
        admin.services().inNamespace(NS).resource(new ServiceBuilder().withNewMetadata().withName(name)
                .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, network).endMetadata()
                .withNewSpec().withType("LoadBalancer").withLoadBalancerClass(JuneauConstants.LOAD_BALANCER_CLASS)
                .withExternalTrafficPolicy("Local").addToSelector("app", name).addNewPort().withName("http")
                .withPort(80).withNewTargetPort(8080).withProtocol("TCP").endPort().endSpec().build()).create();
        EndpointSlice slice = new EndpointSliceBuilder().withNewMetadata().withName(name + "-lab").withNamespace(NS)
                .addToLabels(JuneauConstants.SERVICE_NAME_LABEL, name).endMetadata().withAddressType("IPv4")
                .withEndpoints(endpoint("10.244.1.10", "node-a"), endpoint("10.244.2.10", "node-b"))
                .addNewPort().withName("http").withPort(8080).withProtocol("TCP").endPort().build();
        admin.discovery().v1().endpointSlices().inNamespace(NS).resource(slice).create();
    }

    /** Deletes a Service made by {@link #serviceWithBackends(KubernetesClient, String, String)} and its slice. */
    static void deleteService(KubernetesClient admin, String name) {
        admin.services().inNamespace(NS).withName(name).delete();
        admin.discovery().v1().endpointSlices().inNamespace(NS).withName(name + "-lab").delete();
    }

    /** The node's backend turns ready or not ready (what a failing readiness probe does). */
    static void setReady(KubernetesClient admin, String node, boolean ready) {
        EndpointSlice s = admin.discovery().v1().endpointSlices().inNamespace(NS).withName(SLICE).get();
        s.getEndpoints().stream().filter(e -> node.equals(e.getNodeName())).forEach(e -> {
            e.getConditions().setReady(ready);
            e.getConditions().setServing(ready);
        });
        admin.discovery().v1().endpointSlices().inNamespace(NS).resource(s).update();
    }

    private static Endpoint endpoint(String ip, String node) {
        return new EndpointBuilder().withAddresses(ip).withNodeName(node).withNewConditions().withReady(true)
                .withServing(true).withTerminating(false).endConditions().build();
    }
}
