package me.loutres.juneau.cli.demo;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * Load benchmark of {@code juneau up} (not a test; outside {@code mvn verify}): the same stack `up` starts (local
 * API server, webhook over HTTPS in front of it, controller), then N managed Services created through the API
 * server by concurrent clients (each write reviewed by the webhook), and the time until every one has its VIP in
 * its ServiceLoadBalancer's status. Prints create time, time to all VIPs and the number of distinct VIPs.
 *
 * <pre>java -cp ... me.loutres.juneau.cli.demo.UpLoadBenchmark [N] [--threads T]</pre>
 */
public final class UpLoadBenchmark {
    private UpLoadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int n = 10_000;
        int threads = 16;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--threads")) {
                threads = Integer.parseInt(args[++i]);
            } else {
                n = Integer.parseInt(args[i]);
            }
        }
        Logs.quiet();
        try (LocalStack stack = LocalStack.start(0, 0, true)) {
            if (!stack.awaitReady(Duration.ofSeconds(60))) {
                throw new IllegalStateException("the stack did not become ready");
            }
            KubernetesClient admin = stack.api().adminClient();
            AddressPool pool = new AddressPool();
            pool.getMetadata().setName("bench-pool");
            pool.setSpec(new AddressPoolSpec(JuneauConstants.MODE_BGP, List.of("10.200.0.0/16")));
            admin.resource(pool).create();
            ExternalNetwork net = new ExternalNetwork();
            net.getMetadata().setName("bench");
            net.setSpec(new ExternalNetworkSpec(JuneauConstants.MODE_BGP, List.of("bench-pool")));
            admin.resource(net).create();
            Thread.sleep(500); // the webhook's view sees the network before Services name it

            long t0 = System.nanoTime();
            ExecutorService pool2 = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            int total = n;
            int per = (n + threads - 1) / threads;
            for (int t = 0; t < threads; t++) {
                int from = t * per;
                int to = Math.min(total, from + per);
                done.add(pool2.submit(() -> {
                    for (int i = from; i < to; i++) {
                        admin.resource(service("svc-" + i)).create();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool2.shutdown();
            long created = System.nanoTime();
            System.out.printf("created %d Services in %.1f s (%.0f/s, %d client threads, each reviewed by the "
                    + "webhook)%n", n, (created - t0) / 1e9, n / ((created - t0) / 1e9), threads);
            int withVip = 0;
            Set<String> vips = new HashSet<>();
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (System.nanoTime() < deadline) {
                vips.clear();
                withVip = 0;
                for (ServiceLoadBalancer slb : admin.resources(ServiceLoadBalancer.class).inNamespace("default")
                        .list().getItems()) {
                    if (slb.getStatus() != null && slb.getStatus().getVip() != null) {
                        withVip++;
                        vips.add(slb.getStatus().getVip());
                    }
                }
                if (withVip >= n) {
                    break;
                }
                Thread.sleep(250);
            }
            long all = System.nanoTime();
            System.out.printf("%d of %d Services have a VIP (%d distinct) %.1f s after the first create (%.1f s "
                    + "after the last)%n", withVip, n, vips.size(), (all - t0) / 1e9, (all - created) / 1e9);
            Runtime rt = Runtime.getRuntime();
            System.gc();
            System.out.printf("heap used after GC: %d MiB%n", (rt.totalMemory() - rt.freeMemory()) >> 20);
        }
    }

    private static Service service(String name) {
        return new ServiceBuilder().withNewMetadata().withNamespace("default").withName(name)
                .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "bench").endMetadata()
                .withNewSpec().withType("LoadBalancer").withLoadBalancerClass(JuneauConstants.LOAD_BALANCER_CLASS)
                .withExternalTrafficPolicy("Local")
                .withPorts(new ServicePortBuilder().withName("http").withProtocol("TCP").withPort(80)
                        .withTargetPort(new IntOrString(8080)).build())
                .endSpec().build();
    }
}
