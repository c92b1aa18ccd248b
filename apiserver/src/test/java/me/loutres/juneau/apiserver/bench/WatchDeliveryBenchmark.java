package me.loutres.juneau.apiserver.bench;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.apiserver.LocalApiServer;

/**
 * Watch delivery latency of fabric8's client with the HTTP client the build's {@link LocalApiServer#client(String)}
 * gives it (vert.x here; run from a build on another client to compare; not a test, never run by mvn verify): the
 * local API server in this JVM, one client writing ConfigMaps and another client's informer watching them, both
 * made by {@link LocalApiServer#client(String)}. For every object, the time from just
 * before its create request is sent until the informer's handler sees it: the writer's request, the server's watch
 * fan-out, the watcher's HTTP client reading the event and the informer handing it to its handler.
 *
 * <ol>
 * <li><b>paced</b>: N creates one after the other, 5 ms apart, so each event travels alone;</li>
 * <li><b>burst</b>: N creates from 8 threads at once, so events queue in the watch stream and the client.</li>
 * </ol>
 *
 * <p>Usage: {@code WatchDeliveryBenchmark [paced N] [burst N] [rounds R]}, default {@code 1000 3000 2}: R rounds of
 * both, the first round a warm-up that is printed but not summed. BENCHMARKS.md, "One HTTP stack", has the
 * command and results.
 */
public final class WatchDeliveryBenchmark {
    private static final int BURST_THREADS = 8;

    public static void main(String[] args) throws Exception {
        int paced = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int burst = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        try (LocalApiServer server = LocalApiServer.start(0);
                KubernetesClient writer = server.client(Identities.ADMIN_TOKEN);
                KubernetesClient watcher = server.client(Identities.ADMIN_TOKEN)) {
            System.out.printf("watch delivery benchmark: fabric8's HTTP client %s, %d CPUs, java %s%n",
                    watcher.getHttpClient().getClass().getName(), Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"));
            for (int r = 1; r <= rounds; r++) {
                String label = r == 1 && rounds > 1 ? " (warm-up)" : "";
                run(writer, watcher, "paced-" + r, paced, 1, label);
                run(writer, watcher, "burst-" + r, burst, BURST_THREADS, label);
            }
        }
        System.exit(0);
    }

    private static void run(KubernetesClient writer, KubernetesClient watcher, String namespace, int n, int threads,
            String label) throws Exception {
        writer.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName(namespace).endMetadata().build()).create();
        Map<String, Long> sent = new ConcurrentHashMap<>();
        Map<String, Long> seen = new ConcurrentHashMap<>();
        CountDownLatch all = new CountDownLatch(n);
        SharedIndexInformer<ConfigMap> informer = watcher.configMaps().inNamespace(namespace)
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(ConfigMap cm) {
                        if (seen.putIfAbsent(cm.getMetadata().getName(), System.nanoTime()) == null) {
                            all.countDown();
                        }
                    }

                    @Override
                    public void onUpdate(ConfigMap before, ConfigMap after) {
                    }

                    @Override
                    public void onDelete(ConfigMap cm, boolean unknownFinalStateUnknown) {
                    }
                });
        informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
        long cpu0 = processCpu();
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t;
            writers.add(pool.submit(() -> {
                for (int i = first; i < n; i += threads) {
                    String name = "cm-" + i;
                    sent.put(name, System.nanoTime());
                    writer.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
                            .withName(name).endMetadata().addToData("i", Integer.toString(i)).build()).create();
                    if (threads == 1) {
                        sleep(5);
                    }
                }
                return null;
            }));
        }
        for (Future<?> w : writers) {
            w.get();
        }
        pool.shutdown();
        if (!all.await(120, TimeUnit.SECONDS)) {
            System.out.printf("%s: only %d of %d seen after 120 s%n", namespace, seen.size(), n);
        }
        long elapsed = System.nanoTime() - t0;
        long cpu = processCpu() - cpu0;
        informer.close();
        double[] ms = sent.entrySet().stream().filter(e -> seen.containsKey(e.getKey()))
                .mapToDouble(e -> (seen.get(e.getKey()) - e.getValue()) / 1e6).sorted().toArray();
        System.out.printf("%s%s: %d objects from %d thread(s) in %.1f s, create -> informer p50 %.2f / p90 %.2f / p99"
                + " %.2f / max %.2f ms; this JVM's CPU %.2f ms per object (server and both clients)%n", namespace,
                label, ms.length, threads, elapsed / 1e9, pct(ms, 50), pct(ms, 90), pct(ms, 99),
                ms.length == 0 ? Double.NaN : ms[ms.length - 1], cpu / 1e6 / n);
    }

    private static double pct(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private WatchDeliveryBenchmark() {
    }
}
