package me.loutres.juneau.agent.bgp;

import java.util.List;

/**
 * How long a router takes to drop a frozen node's route (issue 19 item 8; BENCHMARKS.md, "BFD detection"): the node's
 * BIRD (configured by the real {@link BirdConfigRenderer}, run by the real {@link BirdDaemon}) is stopped with
 * SIGSTOP, so it sends neither keepalive nor BFD packet; timed until the router's kernel route to the VIP is gone
 * (polled every millisecond, each poll an {@code ip} process). Then SIGCONT and wait for the route to come back
 * before the next trial. With BFD 300 ms x 3 against the baseline in the same run: the same without BFD, where the
 * hold time (9 s) decides. Not run by {@code mvn verify}; needs root and BIRD 2. Arguments: BFD trials (30),
 * hold-time trials (3).
 */
public final class BfdDetectionBenchmark {
    static final String VIP = "198.18.100.1";

    private BfdDetectionBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int bfdTrials = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int holdTrials = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        System.out.println("load at start: " + BirdReconfigureBenchmark.load());
        System.out.println("BFD 300 ms x 3, hold time 9 s: " + run(true, bfdTrials));
        System.out.println("baseline, no BFD, hold time 9 s: " + run(false, holdTrials));
        System.out.println("load at end: " + BirdReconfigureBenchmark.load());
    }

    static String run(boolean bfd, int trials) throws Exception {
        long[] took = new long[trials];
        try (BgpLab lab = BgpLab.create(BgpLab.routerConfig(9, bfd))) {
            BirdConfig config = new BirdConfig(BgpLab.NODE_IP, List.of(new Neighbor("tor", BgpLab.ROUTER_IP, 65000,
                    65001, 179, 9, 3, false, null, null, bfd ? new BfdTiming(300, 300, 3, false) : null,
                    List.of("public"))), List.of(BirdConfigs.routes("public", List.of(), null, VIP + "/32")));
            try (BirdDaemon daemon = BirdDaemon.start(lab.nodePrefix(), BgpLab.BIRD, lab.nodeBirdDir(),
                    BirdConfigRenderer.render(config), s -> { })) {
                for (int t = 0; t < trials; t++) {
                    await(lab, daemon, bfd);
                    long pid = daemon.pid();
                    long t0 = System.nanoTime();
                    BgpLab.run("kill", "-STOP", Long.toString(pid));
                    try {
                        while (lab.routerKernelRoute(VIP).contains("via")) {
                            if (System.nanoTime() - t0 > 60_000_000_000L) {
                                throw new IllegalStateException("the route never went");
                            }
                            Thread.sleep(1);
                        }
                        took[t] = System.nanoTime() - t0;
                    } finally {
                        BgpLab.run("kill", "-CONT", Long.toString(pid));
                    }
                }
            }
        }
        return BirdReconfigureBenchmark.stats(took) + ", load " + BirdReconfigureBenchmark.load();
    }

    /** The route is at the router and, with BFD, the node's BFD session is Up. */
    private static void await(BgpLab lab, BirdDaemon daemon, boolean bfd) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (lab.routerKernelRoute(VIP).contains("via " + BgpLab.NODE_IP) && (!bfd
                    || "Up".equals(BirdStatus.bfd(daemon.command("show bfd sessions")).get(BgpLab.ROUTER_IP)))) {
                Thread.sleep(500); // a little steady time, so each trial starts from an established state
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the session did not come back: " + lab.routerSession());
    }
}
