package me.loutres.juneau.cli.arp;

import static me.loutres.juneau.cli.lan.ProcStats.cpuTicks;
import static me.loutres.juneau.cli.lan.ProcStats.stats;
import static me.loutres.juneau.cli.lan.ProcStats.status;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.cli.demo.lan.ArpLab;
import me.loutres.juneau.cli.demo.lan.ArpProber;
import me.loutres.juneau.cli.demo.lan.LanScenario;
import me.loutres.juneau.cli.demo.lan.Netns;

/**
 * Layer-2 failover measured on the namespace LAN of {@link LanScenario} (a plain {@code main} in the test sources;
 * {@code mvn verify} never runs it; root and {@code ip netns} needed). BENCHMARKS.md has the command and results.
 *
 * <ol>
 *   <li>takeover: backend loss (EndpointSlice update sent) → the client's neighbour entry shows the new node's
 *       MAC, over N trials, with the controller's part (→ a watch sees the ARPAdvertisement move) beside it and,
 *       as the floor of the wire, the ARP round trip (arping from the client) in the same run;</li>
 *   <li>node loss: the owner's agent frozen (SIGSTOP) and its link cut → the client's entry moved, M trials;</li>
 *   <li>the agent's heap after GC, RSS and CPU at K owned VIPs, next to the same agent owning none.</li>
 * </ol>
 */
public final class ArpTakeoverBenchmark {
    public static void main(String[] args) throws Exception {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int nodeLossTrials = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int vips = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
        String reason = ArpLab.unavailableReason();
        if (reason != null) {
            System.err.println("cannot run: " + reason);
            System.exit(2);
        }
        try (LanScenario lan = LanScenario.start()) {
            // a baseline: other JVM flags (space-separated) and other jars for the agents, in the same run
            String flags = System.getProperty("agent.jvm");
            if (flags != null) {
                lan.agentJvm(List.of(flags.trim().split("\\s+")),
                        System.getProperty("agent.cp", System.getProperty("java.class.path")));
            }
            System.out.println("agents run with " + lan.agentJvm());
            if (trials > 0) {
                takeover(lan, trials);
            }
            if (nodeLossTrials > 0) {
                nodeLoss(lan, nodeLossTrials);
            }
            lan.stopAgents();
            footprint(lan, vips);
        }
    }

    static String owner(LanScenario lan) throws Exception {
        Instant started = Instant.now();
        lan.startAgents(true, List.of());
        // agents start slowly on a busy machine
        String owner = lan.awaitAnnouncedBy(null, started, Duration.ofSeconds(180));
        lan.lab().flushNeighbours(lan.client());
        lan.clientSendsTo(LanScenario.VIP);
        if (lan.awaitClientEntry(lan.mac(owner), System.nanoTime(), Duration.ofSeconds(3)) == null) {
            throw new IllegalStateException("client did not resolve the VIP");
        }
        return owner;
    }

    static void takeover(LanScenario lan, int trials) throws Exception {
        String owner = owner(lan);
        AtomicLong movedAt = new AtomicLong();
        List<Double> wire = new ArrayList<>();
        List<Double> control = new ArrayList<>();
        try (Watch w = lan.admin().resources(ARPAdvertisement.class).watch(new Watcher<>() {
            String last;

            @Override
            public void eventReceived(Action action, ARPAdvertisement a) {
                String node = a.getSpec() == null ? null : a.getSpec().getNodeName();
                if (node != null && !node.equals(last)) {
                    movedAt.set(System.nanoTime());
                }
                last = node;
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            for (int i = 0; i <= trials; i++) {
                Thread.sleep(1200);
                String next = LanScenario.other(owner);
                movedAt.set(0);
                long t0 = System.nanoTime();
                lan.setReady(owner, false);
                Duration took = lan.awaitClientEntry(lan.mac(next), t0, Duration.ofSeconds(10));
                if (took == null) {
                    throw new IllegalStateException("trial " + i + ": entry did not move" + lan.logs());
                }
                long m = movedAt.get();
                if (i > 0) { // trial 0 warms the JIT of controller and agents up, uncounted
                    wire.add(took.toNanos() / 1e6);
                    control.add(m == 0 ? Double.NaN : (m - t0) / 1e6);
                }
                lan.setReady(owner, true);
                owner = next;
            }
        }
        List<Double> rtt = new ArrayList<>();
        try (ArpProber p = ArpProber.open(lan.lab(), lan.client())) {
            for (int i = 0; i < trials; i++) {
                Duration d = p.roundTrip(LanScenario.VIP, Duration.ofMillis(500));
                if (d != null) {
                    rtt.add(d.toNanos() / 1e6);
                }
                Thread.sleep(20);
            }
        }
        System.out.printf("takeover (backend loss -> client entry moved), %d trials: %s%n", wire.size(), stats(wire));
        System.out.printf("  controller part (-> watch sees the ARPAdvertisement move): %s%n", stats(control));
        System.out.printf("  baseline: arping round trip to the VIP on the same LAN: %s%n", stats(rtt));
    }

    static void nodeLoss(LanScenario lan, int trials) throws Exception {
        List<Double> took = new ArrayList<>();
        String owner = lan.elected();
        for (int i = 0; i < trials; i++) {
            String next = LanScenario.other(owner);
            long t0 = System.nanoTime();
            lan.agent(owner).freeze();
            lan.lab().linkDown(lan.node(owner));
            Duration d = lan.awaitClientEntry(lan.mac(next), t0, Duration.ofSeconds(40));
            took.add(d == null ? Double.NaN : d.toNanos() / 1e6);
            lan.agent(owner).thaw();
            lan.lab().linkUp(lan.node(owner));
            Thread.sleep(3000); // the thawed agent renews its Lease again: a candidate for the next trial
            owner = next;
        }
        System.out.printf("node loss (agent frozen + link cut -> client entry moved), %d trials: %s%n", took.size(),
                stats(took));
    }

    static void footprint(LanScenario lan, int vips) throws Exception {
        KubernetesClient ctl = lan.controllerClient();
        AddressPool pool = new AddressPool();
        pool.setMetadata(new ObjectMetaBuilder().withName("bench").build());
        pool.setSpec(new AddressPoolSpec("arp", List.of("198.19.0.1-198.19.15.254")));
        lan.admin().resources(AddressPool.class).resource(pool).create();
        ExternalNetwork net = new ExternalNetwork();
        net.setMetadata(new ObjectMetaBuilder().withName("bench").build());
        net.setSpec(new ExternalNetworkSpec("arp", List.of("bench")));
        lan.admin().resources(ExternalNetwork.class).resource(net).create();

        List<String> extra = Boolean.getBoolean("agent.nmt") ? List.of("-XX:NativeMemoryTracking=summary") : List.of();
        lan.startAgents(true, extra, List.of("--interface", "eth0"));
        Thread.sleep(25_000); // started, Lease held, watches open
        System.out.println("agent footprint (node-a, JVM flags " + lan.agentJvm() + " " + extra + "):");
        System.out.println("  baseline, owning " + ownedBy(lan, "node-a") + " VIP(s): " + measure(lan, "node-a"));
        for (int i = 0; i < vips; i++) {
            ARPAdvertisement a = new ARPAdvertisement();
            a.setMetadata(new ObjectMetaBuilder().withName("bench-" + i)
                    .addToLabels(JuneauConstants.LABEL_NODE, "node-a").build());
            a.setSpec(new ARPAdvertisementSpec("bench", "198.19." + (i / 254) + "." + (i % 254 + 1), "node-a"));
            ctl.resources(ARPAdvertisement.class).resource(a).create();
        }
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (ownedBy(lan, "node-a") < vips + 0L && System.nanoTime() < deadline) {
            Thread.sleep(1000);
        }
        Thread.sleep(8000); // gratuitous ARP rounds over, status writes done
        System.out.println("  owning " + ownedBy(lan, "node-a") + " VIP(s): " + measure(lan, "node-a"));
    }

    static long ownedBy(LanScenario lan, String node) {
        return lan.admin().resources(ARPAdvertisement.class).list().getItems().stream()
                .filter(a -> a.getStatus() != null && node.equals(a.getStatus().getNode())
                        && a.getStatus().getConditions().stream().anyMatch(c -> "True".equals(c.getStatus())))
                .count();
    }

    /**
     * RSS and threads as found, CPU over 60 s idle (renewing its Lease, watching), then (jcmd attaches, so only
     * after the CPU window) heap used after a full GC and, when the agent tracks it, the Native Memory Tracking
     * summary.
     */
    static String measure(LanScenario lan, String node) throws Exception {
        long pid = lan.agent(node).pid();
        String before = status(pid, "VmRSS") + ", " + status(pid, "Threads");
        long cpu0 = cpuTicks(pid);
        long t0 = System.nanoTime();
        Thread.sleep(60_000);
        double cpuSeconds = (cpuTicks(pid) - cpu0) / 100.0;
        double wall = (System.nanoTime() - t0) / 1e9;
        String after = status(pid, "VmRSS") + ", " + status(pid, "Threads");
        String load = Files.readString(Path.of("/proc/loadavg")).trim();
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        String nmt = Boolean.getBoolean("agent.nmt")
                ? Netns.run(jcmd, Long.toString(pid), "VM.native_memory", "summary") : "";
        Netns.run(jcmd, Long.toString(pid), "GC.run");
        String heap = Netns.run(jcmd, Long.toString(pid), "GC.heap_info");
        // the serial collector prints each generation ("def new generation", "tenured generation"), G1 the whole heap:
        // the sum of the generations' lines, not the first (which under the serial collector is the young one alone)
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("(?m)^ (?:\\S.*)?(?:generation|heap) +total (\\d+)K, used (\\d+)K").matcher(heap);
        long usedK = 0;
        long committedK = 0;
        while (m.find()) {
            committedK += Long.parseLong(m.group(1));
            usedK += Long.parseLong(m.group(2));
        }
        return String.format("at start %s; after 60 s %s; CPU %.2f%% of one core over %.0f s; heap after GC %.1f MiB"
                + " of %.1f MiB; load %s%n%s", before, after, 100 * cpuSeconds / wall, wall, usedK / 1024.0,
                committedK / 1024.0, load, nmt);
    }
}
