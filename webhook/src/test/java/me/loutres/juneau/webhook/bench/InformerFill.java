package me.loutres.juneau.webhook.bench;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.JuneauResources;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;

/**
 * Fills a running local API server with what {@link ViewSizeLadder#writeState} writes to a file (the pool as
 * 10.0.0.0/12 and 10.255.0.0/16: the API server's Service CIDR 10.96.0.0/12 is not for VIPs): pool, network and
 * 100 Nodes once, then ServiceLoadBalancers (each with its VIP in status) up to the size asked, so the ladder's
 * sizes grow one API server. The ServiceLoadBalancers are written with the controller's kubeconfig (beside the
 * admin one, as {@code juneau up} writes it), since the webhook lets only the controller write them.
 */
final class InformerFill implements AutoCloseable {
    private static final int THREADS = 16;
    private final KubernetesClient admin;
    private final KubernetesClient controller;
    private final ExecutorService clients = Executors.newFixedThreadPool(THREADS);
    private int filled;

    InformerFill(Path adminKubeconfig) throws IOException {
        admin = client(adminKubeconfig);
        controller = client(adminKubeconfig.resolveSibling(adminKubeconfig.getFileName() + ".controller"));
        AddressPool pool = new AddressPool();
        pool.getMetadata().setName("pool-a");
        pool.setSpec(new AddressPoolSpec(JuneauConstants.MODE_BGP, List.of("10.0.0.0/12", "10.255.0.0/16")));
        admin.resource(pool).create();
        ExternalNetwork net = new ExternalNetwork();
        net.getMetadata().setName("public");
        net.setSpec(new ExternalNetworkSpec(JuneauConstants.MODE_BGP, List.of("pool-a")));
        admin.resource(net).create();
        for (int n = 1; n <= 100; n++) {
            admin.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-" + n).endMetadata()
                    .withNewSpec().withPodCIDRs("172.16." + n + ".0/24").endSpec().withNewStatus().addNewAddress()
                    .withType("InternalIP").withAddress("192.168.0." + n).endAddress().endStatus().build()).create();
        }
        for (int ns = 0; ns < 50; ns++) {
            admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                    .withName("ns-" + ns).endMetadata().build()).create();
        }
    }

    private static KubernetesClient client(Path kubeconfig) throws IOException {
        KubernetesClient c = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
        JuneauResources.KINDS.forEach(c.getKubernetesSerialization()::registerKubernetesResource);
        return c;
    }

    /** Creates ServiceLoadBalancers filled+1..size with their status; prints how long that took. */
    void fillTo(int size) throws Exception {
        long start = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int first = filled + 1 + t;
            done.add(clients.submit(() -> {
                for (int i = first; i <= size; i += THREADS) {
                    ServiceLoadBalancer created = controller.resource(slb(i)).create();
                    ServiceLoadBalancerStatus status = new ServiceLoadBalancerStatus();
                    status.setPhase("Ready");
                    status.setVip("10." + ((i >> 16) & 0xff) + "." + ((i >> 8) & 0xff) + "." + (i & 0xff));
                    status.setAddressPool("pool-a");
                    created.setStatus(status);
                    controller.resource(created).updateStatus();
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        System.out.printf("(filled the API server from %,d to %,d ServiceLoadBalancers in %.1f s)%n", filled, size,
                (System.nanoTime() - start) / 1e9);
        filled = size;
    }

    private static ServiceLoadBalancer slb(int i) {
        ServiceLoadBalancer slb = new ServiceLoadBalancer();
        slb.getMetadata().setName("svc-" + i);
        slb.getMetadata().setNamespace("ns-" + (i % 50));
        slb.setSpec(new ServiceLoadBalancerSpec("svc-" + i, "public", null));
        return slb;
    }

    @Override
    public void close() {
        clients.shutdownNow();
        controller.close();
        admin.close();
    }
}
