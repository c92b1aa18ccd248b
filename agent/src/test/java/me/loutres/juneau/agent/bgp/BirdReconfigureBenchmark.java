package me.loutres.juneau.agent.bgp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import me.loutres.juneau.bgp.Community;

/**
 * How long one change takes with many routes announced (issue 19 item 8; BENCHMARKS.md, "Node agent: BIRD
 * reconfiguration with many routes"): render the configuration of N routes with the real {@link BirdConfigRenderer}
 * and apply it with the real {@link BirdDaemon} (atomic write + {@code configure} on the control socket, until BIRD
 * answers), for a configuration that differs from the running one by one route, with a router BIRD in another
 * namespace peering (so every route is exported). Per N, in the same run:
 * <ul>
 *   <li>render alone;</li>
 *   <li>render + apply: what the agent does per change;</li>
 *   <li>until the router's kernel has (or has lost) the changed route, from the start of the render;</li>
 *   <li>baseline: bare {@code configure} of the file BIRD already runs, through the same control socket (BIRD's own
 *   parse of N routes; no render, no write);</li>
 * </ul>
 * and N = 1 as the baseline for N. At the largest N, the node's and the router's BIRD RSS, and their CPU over the
 * changes and over 20 s idle. Not run by {@code mvn verify}; needs root and BIRD 2. Argument: changes per N (30).
 */
public final class BirdReconfigureBenchmark {
    private BirdReconfigureBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        System.out.println("load at start: " + load());
        try (BgpLab lab = BgpLab.create(BgpLab.routerConfig(9, false))) {
            BirdDaemon daemon = BirdDaemon.start(lab.nodePrefix(), BgpLab.BIRD, lab.nodeBirdDir(),
                    BirdConfigRenderer.render(config(1, 0)), s -> { });
            try {
                long routerBird = routerBirdPid(lab);
                for (int n : new int[] {1, 1_000, 10_000}) {
                    BirdDaemon.Applied first = daemon.apply(BirdConfigRenderer.render(config(n, 0)));
                    if (!first.ok()) {
                        throw new IllegalStateException(first.error());
                    }
                    waitForRouter(lab, n);
                    String extra = me.loutres.juneau.ip.Ipv4.format(BASE + n) + "/32";
                    long[] render = new long[trials];
                    long[] apply = new long[trials];
                    long[] router = new long[trials];
                    long[] bare = new long[trials];
                    long nodeCpu0 = cpuTicks(daemon.pid());
                    long routerCpu0 = cpuTicks(routerBird);
                    long wall0 = System.nanoTime();
                    for (int t = 0; t < trials; t++) {
                        boolean add = t % 2 == 0;
                        long t0 = System.nanoTime();
                        String text = BirdConfigRenderer.render(config(n, add ? 1 : 0));
                        long t1 = System.nanoTime();
                        BirdDaemon.Applied a = daemon.apply(text);
                        long t2 = System.nanoTime();
                        if (!a.ok() || !a.changed()) {
                            throw new IllegalStateException("not applied: " + a.error());
                        }
                        while (lab.routerKernelRoute(extra).contains("via") != add) {
                            if (System.nanoTime() - t0 > 30_000_000_000L) {
                                throw new IllegalStateException("the router never saw " + extra);
                            }
                            Thread.sleep(1);
                        }
                        long t3 = System.nanoTime();
                        render[t] = t1 - t0;
                        apply[t] = t2 - t0;
                        router[t] = t3 - t0;
                        Thread.sleep(100);
                        long b0 = System.nanoTime();
                        BirdControl.Reply r = daemon.command("configure");
                        bare[t] = System.nanoTime() - b0;
                        if (!r.ok()) {
                            throw new IllegalStateException("bare configure refused: " + r.summary());
                        }
                        Thread.sleep(100);
                    }
                    double wall = (System.nanoTime() - wall0) / 1e9;
                    System.out.printf("routes=%d changes=%d load=%s%n", n, trials, load());
                    System.out.println("  render alone          " + stats(render));
                    System.out.println("  render + apply        " + stats(apply));
                    System.out.println("  until at the router   " + stats(router));
                    System.out.println("  baseline: bare configure of the running file " + stats(bare));
                    System.out.printf("  CPU over the changes (%.0f s): node BIRD %.1f%%, router BIRD %.1f%% of a"
                                    + " core; node BIRD %s, router BIRD %s%n", wall,
                            100 * (cpuTicks(daemon.pid()) - nodeCpu0) / 100.0 / wall,
                            100 * (cpuTicks(routerBird) - routerCpu0) / 100.0 / wall, rss(daemon.pid()),
                            rss(routerBird));
                }
                long n0 = cpuTicks(daemon.pid());
                long r0 = cpuTicks(routerBird);
                long w0 = System.nanoTime();
                Thread.sleep(20_000);
                double wall = (System.nanoTime() - w0) / 1e9;
                System.out.printf("idle with 10,000 routes over %.0f s: node BIRD %s, %.2f%% of a core; router BIRD %s,"
                                + " %.2f%%; load %s%n", wall, rss(daemon.pid()),
                        100 * (cpuTicks(daemon.pid()) - n0) / 100.0 / wall, rss(routerBird),
                        100 * (cpuTicks(routerBird) - r0) / 100.0 / wall, load());
            } finally {
                daemon.close();
            }
        }
    }

    static final long BASE = me.loutres.juneau.ip.Ipv4.parse("198.18.128.0");

    /** n routes in 198.18.128.0/17 upward, plus one more when {@code extra} is 1. */
    static BirdConfig config(int n, int extra) {
        List<Prefix> prefixes = new ArrayList<>();
        for (int i = 0; i < n + extra; i++) {
            prefixes.add(new Prefix(BASE + i, 32));
        }
        return new BirdConfig(BgpLab.NODE_IP, List.of(new Neighbor("tor", BgpLab.ROUTER_IP, 65000, 65001, 179, 9, 3,
                false, null, null, null, List.of("public"))),
                List.of(new NetworkRoutes("public", prefixes, List.of(new Community.Standard(65000, 100)), null)));
    }

    private static void waitForRouter(BgpLab lab, int n) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            String out = BgpLab.birdc(lab.routerSocket(), "show", "route", "count");
            if (out.contains(n + " of " + n + " routes") || out.contains(" " + n + " of")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the router did not learn " + n + " routes");
    }

    /** This lab's router BIRD: the bird process whose command line names this lab's router socket. */
    private static long routerBirdPid(BgpLab lab) {
        String socket = lab.routerSocket().toString();
        return ProcessHandle.allProcesses().filter(p -> p.info().command().orElse("").endsWith("/bird"))
                .filter(p -> Arrays.asList(p.info().arguments().orElse(new String[0])).contains(socket))
                .findFirst().orElseThrow(() -> new IllegalStateException("no router BIRD found")).pid();
    }

    static String load() throws Exception {
        return Files.readString(Path.of("/proc/loadavg")).trim();
    }

    static String rss(long pid) throws Exception {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                .findFirst().orElse("VmRSS ?").replaceAll("\\s+", " ");
    }

    static long cpuTicks(long pid) throws Exception {
        String[] f = Files.readString(Path.of("/proc/" + pid + "/stat")).replaceFirst("^.*\\) ", "").split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
    }

    static String stats(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        int n = s.length;
        return String.format("p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms (n=%d)", s[n / 2] / 1e6,
                s[Math.min(n - 1, (int) Math.ceil(n * 0.9) - 1)] / 1e6,
                s[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)] / 1e6, s[n - 1] / 1e6, n);
    }
}
