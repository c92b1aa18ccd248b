package me.loutres.juneau.controller.bench;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.Scrape;
import me.loutres.juneau.controller.testing.TestDispatcher;
import me.loutres.juneau.ip.Ipv4;

/**
 * Load benchmark of the controller against the local API server with the webhook in front (module
 * {@code apiserver}; not a test; never run by mvn verify):
 * N managed Services of an arp network, each with an EndpointSlice of two ready endpoints on two of 10 nodes.
 *
 * <ol>
 * <li>time from controller start until every ServiceLoadBalancer shows a VIP (seen by a watch), and until every
 * one is Ready with its ARPAdvertisement;</li>
 * <li>the controller's heap after GC: heap used after a full GC with the converged controller running, minus heap
 * used after a full GC once it is closed (the mock server's objects are in both);</li>
 * <li>failover: for T Services one after the other, the endpoint on the node named by the ARPAdvertisement turns
 * not ready; latency until a watch sees the advertisement name another node — measured from the slice update
 * request (end to end, two mock hops included) and from the moment a watch saw the slice change (the controller
 * side: its informer, reconcile, the patch, one mock hop back).</li>
 * </ol>
 *
 * <p>With {@code --controller-process} the controller runs in its own JVM; its CPU time (utime + stime of
 * {@code /proc/PID/stat}) and resident set ({@code /proc/PID/status}) are printed at convergence and after the failover
 * trials. {@code --controller-classpath CP} gives that JVM another class path, e.g. with another HTTP client for
 * fabric8 (BENCHMARKS.md, "One HTTP stack").
 *
 * <p>Usage: {@code ControllerLoadBenchmark [services...] [--trials T] [--workers W] [--controller-process
 * [--controller-classpath CP]]}, e.g. {@code 1000 10000}.
 */
public final class ControllerLoadBenchmark {
    private static final int NODES = 10;
    private static final String FIRST = "10.200.0.1";

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        int trials = 100;
        int workers = 8;
        boolean process = false;
        int maxMinutes = 20;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--trials" -> trials = Integer.parseInt(args[++i]);
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--controller-process" -> process = true;
                case "--max-minutes" -> maxMinutes = Integer.parseInt(args[++i]);
                case "--controller-classpath" -> childClassPath = args[++i];
                default -> sizes.add(Integer.parseInt(args[i]));
            }
        }
        if (sizes.isEmpty()) {
            sizes = List.of(1000, 10000);
        }
        System.out.printf("controller load benchmark: sizes %s, %d failover trials, %d workers, %s,"
                + " controller %s, %d CPUs, max heap %d MiB%n", sizes, trials, workers, "local API server",
                process ? "in its own JVM (-Xmx" + CHILD_HEAP + ")" : "in this JVM",
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        for (int n : sizes) {
            run(n, trials, workers, process, maxMinutes);
        }
        System.exit(0);
    }

    private static void run(int n, int trials, int workers, boolean process, int maxMinutes)
            throws Exception {
        try (MockCluster c = new MockCluster(new TestDispatcher(false))) {
            long t = System.nanoTime();
            populate(c, n);
            System.out.printf("%n== %,d Services: populated %,d objects in %.1f s%n", n, 2 * n + NODES + 2,
                    secs(System.nanoTime() - t));

            KubernetesClient watcher = c.client();
            Map<String, String> vips = new ConcurrentHashMap<>();
            AtomicInteger ready = new AtomicInteger();
            Map<String, Boolean> readySeen = new ConcurrentHashMap<>();
            SharedIndexInformer<ServiceLoadBalancer> slbWatch = watcher.resources(ServiceLoadBalancer.class)
                    .inAnyNamespace().inform(new Handler<>(s -> {
                        if (s.getStatus() != null && s.getStatus().getVip() != null) {
                            vips.putIfAbsent(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(),
                                    s.getStatus().getVip());
                        }
                        if (s.getStatus() != null && JuneauConstants.PHASE_READY.equals(s.getStatus().getPhase())
                                && s.getStatus().getArpAnnouncingNode() != null
                                && readySeen.putIfAbsent(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(),
                                        true) == null) {
                            ready.incrementAndGet();
                        }
                    }));
            System.gc();
            long heapBefore = usedHeapAfterGc();
            ControllerOptions options = MockCluster.fastOptions("bench-" + n).withWorkers(workers)
                    .withLease(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));
            long start = System.nanoTime();
            KubernetesClient ctlClient = null;
            JuneauController ctl = null;
            Process child = null;
            if (process) {
                child = startChild(c, n, workers);
            } else {
                ctlClient = c.newUntrackedControllerClient();
                ctl = JuneauController.start(ctlClient, options);
            }
            long[] nextReport = {start + 15_000_000_000L};
            long allVips = waitFor(() -> {
                if (System.nanoTime() > nextReport[0]) {
                    nextReport[0] += 15_000_000_000L;
                    System.out.printf("  ... %,d VIPs after %.0f s%n", vips.size(), secs(System.nanoTime() - start));
                }
                return vips.size() >= n;
            }, start, Duration.ofMinutes(maxMinutes));
            System.out.printf("all %,d VIPs assigned after %.1f s (%.0f Services/s)%n", n, secs(allVips - start),
                    n / secs(allVips - start));
            long allReady = waitFor(() -> ready.get() >= n, start, Duration.ofMinutes(20));
            System.out.printf("all %,d Ready with an ARPAdvertisement after %.1f s; distinct VIPs %,d%n", n,
                    secs(allReady - start), vips.values().stream().distinct().count());
            long heapWith = 0;
            if (ctl != null) {
                JuneauController running = ctl;
                long idle = waitFor(() -> Scrape.unfinishedWork(running) == 0, start, Duration.ofMinutes(5));
                System.out.printf("controller idle after %.1f s%n", secs(idle - start));
                ctl.scrapeMetrics().lines().filter(l -> l.startsWith("juneau_reconcile_total")
                        || l.startsWith("juneau_reconcile_duration_seconds_sum")
                        || l.startsWith("juneau_reconcile_duration_seconds_count"))
                        .forEach(l -> System.out.println("  " + l));
                heapWith = usedHeapAfterGc();
            } else {
                System.out.printf("controller JVM at all Ready: %s%n", childCost(child, n));
                System.out.printf("controller JVM heap after a full GC: %s%n", childHeapAfterGc(child));
            }

            // watches of the failover phase, started only now so they add no load to the allocation phase
            Map<String, Long> arpChanged = new ConcurrentHashMap<>();
            Map<String, String> arpNode = new ConcurrentHashMap<>();
            SharedIndexInformer<ARPAdvertisement> arpWatch = watcher.resources(ARPAdvertisement.class)
                    .inform(new Handler<>(a -> {
                        String before = arpNode.put(a.getMetadata().getName(), a.getSpec().getNodeName());
                        if (before != null && !before.equals(a.getSpec().getNodeName())) {
                            arpChanged.put(a.getMetadata().getName(), System.nanoTime());
                        }
                    }));
            Map<String, Long> sliceSeen = new ConcurrentHashMap<>();
            SharedIndexInformer<EndpointSlice> sliceWatch = watcher.discovery().v1().endpointSlices().inAnyNamespace()
                    .inform(new Handler<>(s -> sliceSeen.put(s.getMetadata().getNamespace() + "/"
                            + s.getMetadata().getName(), System.nanoTime())));
            waitFor(() -> arpNode.size() >= n && arpWatch.hasSynced() && sliceWatch.hasSynced(), System.nanoTime(),
                    Duration.ofMinutes(2));

            // failover trials, one at a time, over different Services; trial -1 is a warm-up (the first failover
            // after convergence runs code the allocation phase never ran), printed but not counted
            List<Double> e2e = new ArrayList<>();
            List<Double> controllerSide = new ArrayList<>();
            for (int i = -1; i < trials; i++) {
                int svc = i < 0 ? n - 1 : (int) ((long) i * n / trials);
                String ns = "bench-" + (svc % 20);
                String name = "svc-" + svc;
                String arpName = JuneauConstants.arpAdvertisementName(ns, name);
                String holder = arpNode.get(arpName);
                String[] nodes = nodesOf(svc);
                List<Endpoint> eps = new ArrayList<>();
                for (int k = 0; k < nodes.length; k++) {
                    eps.add(MockCluster.endpoint(endpointIp(svc, k), nodes[k], !nodes[k].equals(holder)));
                }
                arpChanged.remove(arpName);
                // the update carries the version the slice watch has (a GET by name scans the whole mock store)
                EndpointSlice next = MockCluster.sliceOf(ns, name, eps);
                next.getMetadata().setResourceVersion(sliceWatch.getStore().getByKey(ns + "/" + name + "-1")
                        .getMetadata().getResourceVersion());
                long sent = System.nanoTime();
                c.client().resource(next).update();
                long moved = waitFor(() -> arpChanged.containsKey(arpName), sent, Duration.ofSeconds(30));
                long changedAt = arpChanged.get(arpName);
                Long seen = sliceSeen.get(ns + "/" + name + "-1");
                if (i < 0) {
                    System.out.printf("warm-up failover (not counted): %.1f ms%n", (changedAt - sent) / 1e6);
                    continue;
                }
                e2e.add((changedAt - sent) / 1e6);
                controllerSide.add((changedAt - (seen == null ? sent : Math.max(sent, seen))) / 1e6);
                if (moved < 0) {
                    throw new IllegalStateException("no failover for " + arpName);
                }
            }
            System.out.printf("failover over %d trials, end to end (slice update sent -> advertisement moved):"
                    + " p50 %.1f ms, p99 %.1f ms, max %.1f ms (trial #%d)%n", trials, pct(e2e, 50), pct(e2e, 99),
                    pct(e2e, 100), e2e.indexOf(java.util.Collections.max(e2e)));
            System.out.printf("failover, controller side (slice change seen by a watch -> advertisement moved):"
                    + " p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", pct(controllerSide, 50), pct(controllerSide, 99),
                    pct(controllerSide, 100));

            arpWatch.close();
            sliceWatch.close();
            if (child != null) {
                System.out.printf("controller JVM after the failover trials: %s%n", childCost(child, n));
                System.out.printf("controller JVM heap after a full GC, after the failover trials: %s%n",
                        childHeapAfterGc(child));
                child.destroy();
                child.waitFor();
            } else {
                ctl.close();
                ctlClient.close();
                ctl = null;
                ctlClient = null;
                long heapAfter = usedHeapAfterGc();
                System.out.printf("heap after GC: %d MiB before the controller, %d MiB with it converged, %d MiB after"
                        + " it closed -> controller ~%d MiB%n", heapBefore >> 20, heapWith >> 20, heapAfter >> 20,
                        (heapWith - heapAfter) >> 20);
            }
            slbWatch.close();
        }
    }

    static final String CHILD_HEAP = "256m";
    private static String childClassPath = System.getProperty("java.class.path");

    /** CPU time of the controller JVM (all its threads, start-up included) per Service, and its resident set. */
    private static String childCost(Process child, int n) throws Exception {
        String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", child.pid() + "", "stat"));
        // fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        double cpuMs = ticks * 10.0; // USER_HZ is 100 on Linux
        String rss = "?";
        String hwm = "?";
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc", child.pid() + "",
                "status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = line.substring(6).trim();
            } else if (line.startsWith("VmHWM:")) {
                hwm = line.substring(6).trim();
            }
        }
        return String.format("CPU %.1f s (%.2f ms per Service), RSS %s (peak %s)", cpuMs / 1000, cpuMs / n, rss, hwm);
    }

    /**
     * The controller as it runs in its container: {@code ControllerCommand} in a JVM of its own, limited to the
     * heap the target allows, talking to the mock API server through a kubeconfig.
     */
    private static Process startChild(MockCluster c, int n, int workers) throws Exception {
        String url = c.server().url();
        java.nio.file.Path kubeconfig = java.nio.file.Files.createTempFile("bench-kubeconfig", ".yaml");
        java.nio.file.Files.writeString(kubeconfig, "apiVersion: v1\nkind: Config\nclusters:\n- name: local\n"
                + "  cluster: {server: \"" + url + "\", certificate-authority-data: " + c.server().caData() + "}\n"
                + "users:\n- name: bench\n  user: {token: "
                + me.loutres.juneau.apiserver.Identities.CONTROLLER_TOKEN + "}\n"
                + "contexts:\n- name: local\n  context: {cluster: local, user: bench}\ncurrent-context: local\n");
        java.nio.file.Path log = java.nio.file.Path.of("target", "bench-controller-" + n + ".log");
        ProcessBuilder pb = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx" + CHILD_HEAP, "-Djuneau.log.level=INFO",
                "-cp", childClassPath, "me.loutres.juneau.controller.ControllerCommand",
                "--kubeconfig=" + kubeconfig, "--identity=bench-child", "--metrics-port=-1", "--workers=" + workers,
                // no agents run here: as the in-JVM controller (MockCluster.fastOptions), elect nodes without one
                "--arp-without-agents")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        return pb.start();
    }

    /** {@code jcmd <pid> GC.run}, then the used heap from {@code GC.heap_info}. */
    private static String childHeapAfterGc(Process child) throws Exception {
        String pid = String.valueOf(child.pid());
        run("jcmd", pid, "GC.run");
        String info = run("jcmd", pid, "GC.heap_info");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("total (\\d+)K, used (\\d+)K").matcher(info);
        return m.find() ? String.format("%d MiB used of %d MiB committed", Long.parseLong(m.group(2)) >> 10,
                Long.parseLong(m.group(1)) >> 10) : info.trim();
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private static void populate(MockCluster c, int n) throws Exception {
        c.pool("bench-pool", "arp", FIRST + "-" + Ipv4.format(Ipv4.parse(FIRST) + n + 99));
        c.network("bench-net", "arp", "bench-pool");
        for (int i = 0; i < NODES; i++) {
            c.node("node-" + i, "192.168.200." + (i + 1));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int svc = i;
            done.add(pool.submit(() -> {
                String ns = "bench-" + (svc % 20);
                c.service(ns, "svc-" + svc, "bench-net");
                String[] nodes = nodesOf(svc);
                List<Endpoint> eps = new ArrayList<>();
                for (int k = 0; k < nodes.length; k++) {
                    eps.add(MockCluster.endpoint(endpointIp(svc, k), nodes[k], true));
                }
                c.create(MockCluster.sliceOf(ns, "svc-" + svc, eps));
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
    }

    private static String[] nodesOf(int svc) {
        return new String[] {"node-" + (svc % NODES), "node-" + ((svc + 3) % NODES)};
    }

    private static String endpointIp(int svc, int k) {
        return "10." + (200 + k) + "." + (svc / 256) + "." + (svc % 256);
    }

    private static long waitFor(java.util.function.BooleanSupplier done, long since, Duration max)
            throws InterruptedException {
        long deadline = since + max.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not done after " + max);
            }
            Thread.sleep(2);
        }
        return System.nanoTime();
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static double pct(List<Double> values, int p) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        int idx = (int) Math.ceil(p / 100.0 * v.length) - 1;
        return v[Math.max(0, Math.min(v.length - 1, idx))];
    }

    private static double secs(long nanos) {
        return nanos / 1e9;
    }

    /** Calls back on add and update. */
    private record Handler<T>(java.util.function.Consumer<T> onChange) implements ResourceEventHandler<T> {
        @Override
        public void onAdd(T obj) {
            onChange.accept(obj);
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            onChange.accept(newObj);
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        }
    }
}
