package me.loutres.juneau.agent.bgp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How long one change takes with many routes announced: render the configuration and apply it (atomic write +
 * {@code configure}) for a configuration of N routes that differs from the running one by one route, with a real
 * router peering (so every route is exported). Baseline in the same run: N = 1. Not run by {@code mvn verify}; needs
 * root. BENCHMARKS.md has the command and results.
 */
public final class BirdReconfigureBenchmark {
    private BirdReconfigureBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        try (BgpLab lab = BgpLab.create(BgpLab.routerConfig(9, false))) {
            BirdDaemon daemon = BirdDaemon.start(lab.nodePrefix(), BgpLab.BIRD, lab.nodeBirdDir(),
                    BirdConfigRenderer.render(config(1, 0)), s -> { });
            try {
                for (int n : new int[] {1, 1_000, 10_000}) {
                    BirdDaemon.Applied first = daemon.apply(BirdConfigRenderer.render(config(n, 0)));
                    if (!first.ok()) {
                        throw new IllegalStateException(first.error());
                    }
                    waitForRouter(lab, n);
                    long[] nanos = new long[trials];
                    for (int t = 0; t < trials; t++) {
                        long t0 = System.nanoTime();
                        String text = BirdConfigRenderer.render(config(n, t % 2 == 0 ? 1 : 0));
                        BirdDaemon.Applied a = daemon.apply(text);
                        nanos[t] = System.nanoTime() - t0;
                        if (!a.ok()) {
                            throw new IllegalStateException(a.error());
                        }
                        Thread.sleep(200); // let BIRD send the update before the next change
                    }
                    Arrays.sort(nanos);
                    System.out.printf("routes=%d trials=%d render+configure p50=%.1f ms p90=%.1f ms p99=%.1f ms"
                                    + " max=%.1f ms%n", n, trials, nanos[trials / 2] / 1e6,
                            nanos[(int) (trials * 0.9)] / 1e6, nanos[Math.min(trials - 1, (int) (trials * 0.99))] / 1e6,
                            nanos[trials - 1] / 1e6);
                }
            } finally {
                daemon.close();
            }
        }
    }

    /** n routes in 198.18.128.0/17 upward, plus one more when {@code extra} is 1. */
    static BirdConfig config(int n, int extra) {
        List<Prefix> prefixes = new ArrayList<>();
        long base = me.loutres.juneau.ip.Ipv4.parse("198.18.128.0");
        for (int i = 0; i < n + extra; i++) {
            prefixes.add(new Prefix(base + i, 32));
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
}
