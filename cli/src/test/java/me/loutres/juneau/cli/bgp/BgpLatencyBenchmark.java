package me.loutres.juneau.cli.bgp;

import static me.loutres.juneau.cli.lan.ProcStats.cpuTicks;
import static me.loutres.juneau.cli.lan.ProcStats.load;
import static me.loutres.juneau.cli.lan.ProcStats.stats;
import static me.loutres.juneau.cli.lan.ProcStats.status;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.cli.demo.lan.BgpLanScenario;
import me.loutres.juneau.cli.demo.lan.Netns;

/**
 * BGP on the wire, timed at the router (issue 19 item 8; BENCHMARKS.md, "Node agent: BGP on the wire"): the namespace
 * LAN of {@code BgpIT} ({@link BgpLanScenario}: a router BIRD, two node namespaces each with a real agent JVM and its
 * BIRD, the real controller, webhook and local API server in this JVM; 198.18.0.0/15 only). Never part of
 * {@code mvn verify}; needs root and BIRD 2.
 *
 * <ul>
 *   <li><b>withdraw</b>: node-a's backend turns not ready (the EndpointSlice write returns) → node-a is no longer a
 *   next hop of the router kernel's route to the VIP; <b>announce</b>: ready again → it is a next hop again. The
 *   router's {@code ip route} is polled every 2 ms (each poll is a process: a few ms of resolution). Beside each, the
 *   controller's part: until a watch here sees the ServiceLoadBalancer's {@code advertisingNodes} change.</li>
 *   <li><b>bulk</b> (optional): N more Services, each with a ready backend on both nodes, on a second bgp network
 *   (198.18.128.0/18): time until the router holds N + 1 routes, then each agent's and each BIRD's RSS and CPU over
 *   30 s with N + 1 routes announced.</li>
 * </ul>
 *
 * <p>Arguments: trials (30), bulk Services (0: none).
 */
public final class BgpLatencyBenchmark {
    static final List<String> BOTH = List.of("node-a", "node-b");

    private BgpLatencyBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int bulk = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        String reason = BgpLanScenario.unavailableReason();
        if (reason != null) {
            throw new IllegalStateException("cannot run here: " + reason);
        }
        System.out.println("load at start: " + load());
        try (BgpLanScenario lan = BgpLanScenario.start()) {
            Thread cleanup = new Thread(lan::close, "bgp-lan-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
            lan.startAgents();
            Duration up = lan.awaitNextHops(BOTH, System.nanoTime(), Duration.ofSeconds(120));
            if (up == null) {
                throw new IllegalStateException("both next hops never showed: " + lan.routerKernelRoute() + lan.logs());
            }
            System.out.println("both next hops " + up.toMillis() + " ms after the agents started");
            latency(lan, trials);
            if (bulk > 0) {
                bulk(lan, bulk);
            }
            System.out.println("load at end: " + load());
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    static void latency(BgpLanScenario lan, int trials) throws Exception {
        List<Double> withdraw = new ArrayList<>();
        List<Double> announce = new ArrayList<>();
        List<Double> ctlWithdraw = new ArrayList<>();
        List<Double> ctlAnnounce = new ArrayList<>();
        AtomicLong sawOne = new AtomicLong();
        AtomicLong sawBoth = new AtomicLong();
        try (Watch w = lan.admin().resources(ServiceLoadBalancer.class).inNamespace(BgpLanScenario.NS)
                .withName(BgpLanScenario.SVC).watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ServiceLoadBalancer slb) {
                        List<String> nodes = slb.getStatus() == null || slb.getStatus().getAdvertisingNodes() == null
                                ? List.of() : slb.getStatus().getAdvertisingNodes();
                        if (nodes.equals(List.of("node-b"))) {
                            sawOne.compareAndSet(0, System.nanoTime());
                        } else if (nodes.size() == 2) {
                            sawBoth.compareAndSet(0, System.nanoTime());
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                })) {
            for (int t = -1; t < trials; t++) { // trial -1 warms up and is not counted
                Thread.sleep(500);
                sawOne.set(0);
                long t0 = System.nanoTime();
                lan.setReady("node-a", false);
                Duration gone = lan.awaitNextHops(List.of("node-b"), t0, Duration.ofSeconds(30));
                Thread.sleep(500);
                sawBoth.set(0);
                long t1 = System.nanoTime();
                lan.setReady("node-a", true);
                Duration back = lan.awaitNextHops(BOTH, t1, Duration.ofSeconds(30));
                if (gone == null || back == null) {
                    throw new IllegalStateException("trial " + t + ": next hops did not follow: "
                            + lan.routerKernelRoute());
                }
                if (t >= 0) {
                    withdraw.add(gone.toNanos() / 1e6);
                    announce.add(back.toNanos() / 1e6);
                    ctlWithdraw.add(sawOne.get() == 0 ? Double.NaN : (sawOne.get() - t0) / 1e6);
                    ctlAnnounce.add(sawBoth.get() == 0 ? Double.NaN : (sawBoth.get() - t1) / 1e6);
                }
            }
        }
        System.out.println("withdraw (EndpointSlice write -> node-a's next hop gone at the router): " + stats(withdraw));
        System.out.println("  of which the controller (-> advertisingNodes seen): " + stats(ctlWithdraw));
        System.out.println("announce (EndpointSlice write -> node-a's next hop back at the router): " + stats(announce));
        System.out.println("  of which the controller (-> advertisingNodes seen): " + stats(ctlAnnounce));
        System.out.println("load after the trials: " + load());
    }

    static void bulk(BgpLanScenario lan, int n) throws Exception {
        KubernetesClient admin = lan.admin();
        AddressPool pool = new AddressPool();
        pool.setMetadata(new ObjectMetaBuilder().withName("bulk").build());
        pool.setSpec(new AddressPoolSpec("bgp", List.of("198.18.128.0/18")));
        admin.resources(AddressPool.class).resource(pool).create();
        ExternalNetwork net = new ExternalNetwork();
        net.setMetadata(new ObjectMetaBuilder().withName("bulk").build());
        net.setSpec(new ExternalNetworkSpec("bgp", List.of("bulk")));
        admin.resources(ExternalNetwork.class).resource(net).create();
        admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("bulk").endMetadata().build()).create();
        String router = lan.lab().namespaces().stream().filter(s -> s.contains("router")).findFirst().orElseThrow();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            String name = "s" + i;
            admin.services().inNamespace("bulk").resource(new ServiceBuilder().withNewMetadata().withName(name)
                    .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "bulk").endMetadata()
                    .withNewSpec().withType("LoadBalancer").withLoadBalancerClass(JuneauConstants.LOAD_BALANCER_CLASS)
                    .withExternalTrafficPolicy("Local").addToSelector("app", name).addNewPort().withName("http")
                    .withPort(80).withNewTargetPort(8080).withProtocol("TCP").endPort().endSpec().build()).create();
            admin.discovery().v1().endpointSlices().inNamespace("bulk").resource(new EndpointSliceBuilder()
                    .withNewMetadata().withName(name + "-x").addToLabels(JuneauConstants.SERVICE_NAME_LABEL, name)
                    .endMetadata().withAddressType("IPv4")
                    .withEndpoints(endpoint("10.244.1.10", "node-a"), endpoint("10.244.2.10", "node-b"))
                    .addNewPort().withName("http").withPort(8080).withProtocol("TCP").endPort().build()).create();
        }
        long written = System.nanoTime();
        System.out.printf("bulk: %d Services and EndpointSlices written in %.1f s%n", n, (written - t0) / 1e9);
        long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
        int routes = 0;
        while (System.nanoTime() < deadline) {
            String table = Netns.ip(router, "route", "show", "proto", "bird");
            routes = (int) table.lines().filter(l -> l.startsWith("198.18.")).count();
            long multipath = table.lines().filter(l -> l.startsWith("198.18.") && !l.contains(" via ")).count();
            if (routes >= n + 1 && multipath >= n + 1) {
                break;
            }
            for (String node : BOTH) {
                if (!lan.agent(node).alive()) {
                    // the DaemonSet's heap may not hold this many Services: say so at once rather than wait
                    throw new IllegalStateException("the agent of " + node + " died with " + routes + " routes at the"
                            + " router (its log: " + lan.agent(node).logTail() + ")");
                }
            }
            Thread.sleep(1000);
        }
        System.out.printf("bulk: router holds %d routes (both next hops each) %.1f s after the first write, %.1f s"
                + " after the last; load %s%n", routes, (System.nanoTime() - t0) / 1e9,
                (System.nanoTime() - written) / 1e9, load());
        Thread.sleep(10_000); // the status writes and the first GCs settle
        for (String node : BOTH) {
            long agent = lan.agent(node).pid();
            long bird = ProcessHandle.of(agent).orElseThrow().descendants()
                    .filter(p -> p.info().command().orElse("").endsWith("/bird")).findFirst().orElseThrow().pid();
            long a0 = cpuTicks(agent);
            long b0 = cpuTicks(bird);
            long w0 = System.nanoTime();
            Thread.sleep(30_000);
            double wall = (System.nanoTime() - w0) / 1e9;
            System.out.printf("bulk %s with %d routes: agent %s, CPU %.2f%% of a core; BIRD %s, CPU %.2f%% over %.0f s;"
                            + " load %s%n", node, n + 1, status(agent, "VmRSS"),
                    100 * (cpuTicks(agent) - a0) / 100.0 / wall, status(bird, "VmRSS"),
                    100 * (cpuTicks(bird) - b0) / 100.0 / wall, wall, load());
        }
    }

    private static io.fabric8.kubernetes.api.model.discovery.v1.Endpoint endpoint(String ip, String node) {
        return new EndpointBuilder().withAddresses(ip).withNodeName(node).withNewConditions().withReady(true)
                .withServing(true).withTerminating(false).endConditions().build();
    }
}
