package me.loutres.juneau.cli.demo;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.JuneauController;

/**
 * Load benchmark of {@code juneau up} (not a test; outside {@code mvn verify}): the same stack `up` starts (local
 * API server, webhook over HTTPS in front of it, controller), then N managed Services created through the API
 * server by concurrent clients (each write reviewed by the webhook), and the time until every one has its VIP in
 * its ServiceLoadBalancer's status. A watch on ServiceLoadBalancers sees each VIP arrive (a list of every object
 * every few hundred milliseconds would cost the machine more than the stack it measures); one list at the end
 * checks the count and that the VIPs are distinct. Prints create time, time to all VIPs, the CPU time each part
 * used per Service (threads grouped by name) and the heap.
 *
 * <p>{@code --stock-mock}: the baseline, fabric8's stock mock API server (CRUD mode, plain HTTP, no admission: it
 * cannot call a webhook) with the same controller, the same Services and the same measurement.
 *
 * <p>{@code --kubeconfig FILE}: against an API server already running (e.g. {@code juneau up --no-controller
 * --kubeconfig-out FILE}) with a controller started beside it as its own process, whose memory is then read from
 * outside (BENCHMARKS.md, controller memory at 10,000 Services); the CPU figures then cover only this client.
 *
 * <pre>
 * cd cli && CP="target/test-classes:target/classes:$(ls target/lib/*.jar | tr '\n' ':')"
 * java -Xmx3g -cp "$CP" me.loutres.juneau.cli.demo.UpLoadBenchmark [N] [--threads T] [--workers W] [--warmup N]
 *     [--stock-mock | --kubeconfig FILE] [--arp] [--endpoint-slices]
 * </pre>
 */
public final class UpLoadBenchmark {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The stock mock logs every request through java.util.logging (held here: JUL keeps loggers weakly). */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    private UpLoadBenchmark() {
    }

    /** What the Services are created against. */
    private interface Target extends AutoCloseable {
        KubernetesClient admin();

        String describe();

        @Override
        void close();
    }

    /** {@code --arp}: the pool and network announce by ARP, so the controller also writes an ARPAdvertisement per VIP. */
    private static boolean arp;
    /**
     * {@code --endpoint-slices}: each Service gets one EndpointSlice (one ready endpoint on node-a, -b or -c in turn),
     * written by the same client thread right after it, as the cluster's EndpointSlice controller would.
     */
    private static boolean endpointSlices;

    public static void main(String[] args) throws Exception {
        int n = 10_000;
        int threads = 16;
        boolean stock = false;
        int workers = LocalStack.WORKERS;
        int warmup = 0;
        java.nio.file.Path kubeconfig = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--threads")) {
                threads = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--workers")) {
                workers = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--stock-mock")) {
                stock = true;
            } else if (args[i].equals("--kubeconfig")) {
                kubeconfig = java.nio.file.Path.of(args[++i]);
            } else if (args[i].equals("--warmup")) {
                warmup = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--arp")) {
                arp = true;
            } else if (args[i].equals("--endpoint-slices")) {
                endpointSlices = true;
            } else {
                n = Integer.parseInt(args[i]);
            }
        }
        Logs.quiet();
        try (Target target = kubeconfig != null ? running(kubeconfig)
                : stock ? stockMock(workers) : localStack(workers)) {
            run(target, n, threads, warmup);
        }
    }

    private static Target localStack(int workers) throws Exception {
        LocalStack stack = LocalStack.start(0, 0, true, workers);
        if (!stack.awaitReady(Duration.ofSeconds(60))) {
            stack.close();
            throw new IllegalStateException("the stack did not become ready");
        }
        return new Target() {
            @Override
            public KubernetesClient admin() {
                return stack.api().adminClient();
            }

            @Override
            public String describe() {
                return "local API server (apiserver, HTTPS), every write reviewed by the webhook over HTTPS, "
                        + workers + " controller workers";
            }

            @Override
            public void close() {
                stack.close();
            }
        };
    }

    /** An API server already running, as its admin kubeconfig reaches it. */
    private static Target running(java.nio.file.Path kubeconfig) throws java.io.IOException {
        KubernetesClient admin = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                io.fabric8.kubernetes.client.Config.fromKubeconfig(java.nio.file.Files.readString(kubeconfig))).build();
        return new Target() {
            @Override
            public KubernetesClient admin() {
                return admin;
            }

            @Override
            public String describe() {
                return "the API server of " + kubeconfig + " (its controller runs in another process)";
            }

            @Override
            public void close() {
                admin.close();
            }
        };
    }

    /** fabric8's stock mock in CRUD mode with Juneau's CRDs, the local Nodes, and the controller as `up` runs it. */
    private static Target stockMock(int workers) throws Exception {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        KubernetesClient admin = server.createClient();
        for (Class<? extends CustomResource<?, ?>> kind : List.of(AddressPool.class, ExternalNetwork.class,
                ServiceLoadBalancer.class, ARPAdvertisement.class)) {
            admin.apiextensions().v1().customResourceDefinitions().resource(crd(kind)).create();
        }
        for (int i = 0; i < LocalStack.NODE_NAMES.size(); i++) {
            admin.nodes().resource(LocalStack.node(LocalStack.NODE_NAMES.get(i), "192.168.10." + (11 + i))).create();
        }
        KubernetesClient controllerClient = server.createClient();
        JuneauController controller = JuneauController.start(controllerClient, ControllerOptions
                .defaults("juneau-local-controller").withMetricsPort(-1).withWorkers(workers)
                .withLease(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(controller.isReady() && controller.isLeader()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return new Target() {
            @Override
            public KubernetesClient admin() {
                return admin;
            }

            @Override
            public String describe() {
                return "fabric8 stock mock (CRUD, HTTP), no admission, " + workers + " controller workers";
            }

            @Override
            public void close() {
                controller.close();
                controllerClient.close();
                admin.close();
                server.destroy();
            }
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition crd(
            Class<? extends CustomResource<?, ?>> kind) {
        CustomResourceDefinitionBuilder b = CustomResourceDefinitionContext.v1CRDFromCustomResourceType((Class) kind);
        if (kind != ExternalNetwork.class && kind != ARPAdvertisement.class) {
            b = b.editSpec().editFirstVersion().withNewSubresources().withNewStatus().endStatus().endSubresources()
                    .endVersion().endSpec();
        }
        return b.build();
    }

    private static void run(Target target, int n, int threads, int warmup) throws Exception {
        KubernetesClient admin = target.admin();
        // its watch reads ServiceLoadBalancers straight into their class, as the controller's and webhook's do
        me.loutres.juneau.api.v1alpha1.JuneauResources.KINDS.forEach(admin.getKubernetesSerialization()::registerKubernetesResource);
        AddressPool pool = new AddressPool();
        pool.getMetadata().setName("bench-pool");
        String mode = arp ? JuneauConstants.MODE_ARP : JuneauConstants.MODE_BGP;
        // 65,536 addresses: room for 50,000 Services (documentation range 198.18.0.0/15 in ARP mode)
        pool.setSpec(new AddressPoolSpec(mode, List.of(arp ? "198.18.0.1-198.18.255.254" : "10.200.0.0/16")));
        admin.resource(pool).create();
        ExternalNetwork net = new ExternalNetwork();
        net.getMetadata().setName("bench");
        net.setSpec(new ExternalNetworkSpec(mode, List.of("bench-pool")));
        admin.resource(net).create();
        if (arp) {
            // an ARP VIP is announced only by a node whose agent holds its Lease: one per node, held for a day, as
            // if each node ran its agent (none runs here)
            for (String node : LocalStack.NODE_NAMES) {
                admin.leases().inNamespace(JuneauConstants.SYSTEM_NAMESPACE).resource(
                        new io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder().withNewMetadata()
                                .withName(JuneauConstants.AGENT_LEASE_PREFIX + node).endMetadata().withNewSpec()
                                .withHolderIdentity(node).withLeaseDurationSeconds(86_400)
                                .withRenewTime(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC)).endSpec()
                                .build()).createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
            }
        }
        Thread.sleep(500); // the webhook's view sees the network before Services name it
        if (warmup > 0) {
            // a first round in its own namespace, left in place: the measured round then runs on warm code, with
            // that many Services (and VIPs) already in the store
            admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                    .withName("warmup").endMetadata().build()).create();
            long w0 = System.nanoTime();
            Round r = round(admin, "warmup", warmup, threads);
            System.out.printf("warm-up: %d Services in namespace warmup, %s, all VIPs after %.1f s%n", warmup,
                    r.complete() ? "all with a VIP" : "TIMED OUT", (System.nanoTime() - w0) / 1e9);
        }
        Map<String, Long> cpu0 = cpuByPart();
        long process0 = processCpu();
        long t0 = System.nanoTime();
        Round r = round(admin, "default", n, threads);
        long created = r.created();
        boolean complete = r.complete();
        Map<String, String> vipByName = r.vipByName();
        long all = System.nanoTime();
        Map<String, Long> cpu1 = cpuByPart();
        long process1 = processCpu();
        report(target, admin, n, threads, t0, created, all, complete, vipByName, cpu0, cpu1, process0, process1);
    }

    private record Round(long created, boolean complete, Map<String, String> vipByName) {
    }

    /** Creates n Services in the namespace from the client threads and waits until each has its VIP. */
    private static Round round(KubernetesClient admin, String namespace, int n, int threads) throws Exception {
        Map<String, String> vipByName = new ConcurrentHashMap<>();
        CountDownLatch allVips = new CountDownLatch(n);
        Watch watch = admin.resources(ServiceLoadBalancer.class).inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, ServiceLoadBalancer slb) {
                if (slb.getStatus() != null && slb.getStatus().getVip() != null
                        && vipByName.putIfAbsent(slb.getMetadata().getName(), slb.getStatus().getVip()) == null) {
                    allVips.countDown();
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                System.out.println("the ServiceLoadBalancer watch closed: " + cause.getMessage());
            }
        });

        ExecutorService clients = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "bench-client");
            t.setDaemon(true); // never shut down (see below), so it must not keep the JVM alive
            return t;
        });
        List<Future<?>> done = new ArrayList<>();
        int per = (n + threads - 1) / threads;
        for (int t = 0; t < threads; t++) {
            int from = t * per;
            int to = Math.min(n, from + per);
            done.add(clients.submit(() -> {
                for (int i = from; i < to; i++) {
                    admin.resource(service(namespace, "svc-" + i)).create();
                    if (endpointSlices) {
                        admin.resource(endpointSlice(namespace, "svc-" + i, i)).create();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        long created = System.nanoTime();
        boolean complete = allVips.await(5, TimeUnit.MINUTES);
        watch.close();
        // the pool's threads stay until the end: a thread that ended would drop out of the CPU count
        return new Round(created, complete, vipByName);
    }

    private static void report(Target target, KubernetesClient admin, int n, int threads, long t0, long created,
            long all, boolean complete, Map<String, String> vipByName, Map<String, Long> cpu0, Map<String, Long> cpu1,
            long process0, long process1) {

        System.out.println(target.describe());
        System.out.printf("created %d Services in %.1f s (%.0f/s, %d client threads)%n", n, (created - t0) / 1e9,
                n / ((created - t0) / 1e9), threads);
        System.out.printf("%s: %d of %d Services have a VIP %.1f s after the first create (%.1f s after the last)%n",
                complete ? "all VIPs" : "TIMED OUT", vipByName.size(), n, (all - t0) / 1e9, (all - created) / 1e9);
        int listed = 0;
        Set<String> vips = new HashSet<>();
        for (ServiceLoadBalancer slb : admin.resources(ServiceLoadBalancer.class).inNamespace("default").list()
                .getItems()) {
            if (slb.getStatus() != null && slb.getStatus().getVip() != null) {
                listed++;
                vips.add(slb.getStatus().getVip());
            }
        }
        System.out.printf("checked by a list afterwards: %d ServiceLoadBalancers with a VIP, %d distinct VIPs%n", listed,
                vips.size());
        long processMs = (process1 - process0) / 1_000_000;
        System.out.printf("CPU from the first create to the last VIP: %.1f s for the process (%.2f cores over %.1f s), "
                + "%.2f ms per Service; by thread group (ms per Service):%n", processMs / 1e3,
                (process1 - process0) / (double) (all - t0), (all - t0) / 1e9, processMs / (double) n);
        long counted = 0;
        for (Map.Entry<String, Long> e : cpu1.entrySet()) {
            long used = e.getValue() - cpu0.getOrDefault(e.getKey(), 0L);
            counted += used;
            System.out.printf("  %-58s %8.2f%n", e.getKey(), used / 1e6 / n);
        }
        System.out.printf("  %-58s %8.2f%n", "(threads that ended in between, JIT, GC)",
                ((process1 - process0) - counted) / 1e6 / n);
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.out.printf("heap used after GC: %d MiB%n", (rt.totalMemory() - rt.freeMemory()) >> 20);
    }

    /** CPU time of the live threads, summed by the part their name says they belong to. */
    private static Map<String, Long> cpuByPart() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String part : List.of(API_SERVER, ADMISSION_CLIENT, WEBHOOK, CONTROLLER, HANDLERS, VERTX, BENCH, OTHER)) {
            out.put(part, 0L);
        }
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = THREADS.getThreadCpuTime(info.getThreadId());
            if (cpu > 0) {
                out.merge(part(info.getThreadName()), cpu, Long::sum);
            }
        }
        return out;
    }

    private static final String API_SERVER = "API server (Jetty threads)";
    private static final String ADMISSION_CLIENT = "API server's webhook client (HttpClient threads)";
    private static final String WEBHOOK = "webhook (Jetty threads)";
    private static final String CONTROLLER = "controller (workers, informer handlers, lease)";
    private static final String HANDLERS = "fabric8 event handler threads (informers of controller and webhook)";
    private static final String VERTX = "fabric8 clients' I/O and JSON (vert.x: all clients; the stock mock's server)";
    private static final String BENCH = "benchmark client threads";
    private static final String OTHER = "other live threads (mock server, JVM)";

    private static String part(String thread) {
        if (thread.startsWith("local-apiserver")) {
            return API_SERVER;
        }
        if (thread.startsWith("HttpClient-") || thread.startsWith("admission-")) {
            return ADMISSION_CLIENT;
        }
        if (thread.startsWith("webhook")) {
            return WEBHOOK;
        }
        if (thread.startsWith("juneau-")) {
            return CONTROLLER;
        }
        if (thread.matches("-?\\d*-?pool-\\d+-thread-\\d+")) {
            return HANDLERS;
        }
        if (thread.startsWith("vert.x-")) {
            return VERTX;
        }
        if (thread.equals("bench-client")) {
            return BENCH;
        }
        return OTHER;
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice endpointSlice(String namespace,
            String service, int i) {
        return new io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder().withNewMetadata()
                .withNamespace(namespace).withName(service + "-abcde")
                .addToLabels("kubernetes.io/service-name", service)
                .addToLabels("endpointslice.kubernetes.io/managed-by", "endpointslice-controller.k8s.io").endMetadata()
                .withAddressType("IPv4")
                .addNewEndpoint().withAddresses("10.244." + (i / 250 % 250) + "." + (i % 250 + 1))
                .withNewConditions().withReady(true).withServing(true).withTerminating(false).endConditions()
                .withNodeName(LocalStack.NODE_NAMES.get(i % LocalStack.NODE_NAMES.size())).endEndpoint()
                .addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort().build();
    }

    private static Service service(String namespace, String name) {
        return new ServiceBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "bench").endMetadata()
                .withNewSpec().withType("LoadBalancer").withLoadBalancerClass(JuneauConstants.LOAD_BALANCER_CLASS)
                .withExternalTrafficPolicy("Local")
                .withPorts(new ServicePortBuilder().withName("http").withProtocol("TCP").withPort(80)
                        .withTargetPort(new IntOrString(8080)).build())
                .endSpec().build();
    }
}
