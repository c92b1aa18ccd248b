package me.loutres.juneau.controller.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.runtime.Leadership;

/**
 * Takeover time (README, "Takeover time"): a leader crashes without releasing its Lease, a Service is created at
 * that instant, and the time until a standby has given it a VIP is measured — the lease expiry, the standby's
 * restore and one allocation. A plain {@code main} (not a test: {@code mvn verify} never runs it).
 *
 * <p>Arguments: {@code rounds leaseDuration renewDeadline retryPeriod} in milliseconds, e.g.
 * {@code 5 15000 10000 2000} (client-go's defaults) or {@code 5 4000 2500 1000}.
 */
public final class TakeoverBenchmark {
    private TakeoverBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Leadership.Timing timing = new Leadership.Timing(Duration.ofMillis(Long.parseLong(args[1])),
                Duration.ofMillis(Long.parseLong(args[2])), Duration.ofMillis(Long.parseLong(args[3])));
        List<Long> millis = new ArrayList<>();
        try (MockCluster c = new MockCluster()) {
            c.pool("bench-pool", "bgp", "10.94.0.0/24");
            c.network("bench-net", "bgp", "bench-pool");
            JuneauController leader = c.startController(options("bench-0", timing));
            await(leader::isLeader, Duration.ofMinutes(1));
            for (int r = 1; r <= rounds; r++) {
                JuneauController standby = c.startController(options("bench-" + r, timing));
                await(standby::isReady, Duration.ofMinutes(1));
                // the standby has seen the leader renew at least once (it only takes over after a lease duration
                // from then), as a standby that has run for a while has
                Thread.sleep(2 * timing.retryPeriod().toMillis());
                c.crash(leader);
                long t0 = System.nanoTime();
                String name = "after-crash-" + r;
                c.service("bench", name, "bench-net");
                await(() -> {
                    var slb = c.slb("bench", name);
                    return slb != null && slb.getStatus() != null && slb.getStatus().getVip() != null;
                }, Duration.ofMinutes(2));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                millis.add(ms);
                System.out.printf("round %d: crash -> VIP of a new Service in %d ms%n", r, ms);
                leader = standby;
            }
        }
        List<Long> sorted = millis.stream().sorted().toList();
        System.out.printf("timing %d/%d/%d ms, %d rounds: min %d ms, median %d ms, max %d ms%n",
                timing.leaseDuration().toMillis(), timing.renewDeadline().toMillis(),
                timing.retryPeriod().toMillis(), rounds, sorted.get(0), sorted.get(sorted.size() / 2),
                sorted.get(sorted.size() - 1));
        System.exit(0);
    }

    private static ControllerOptions options(String id, Leadership.Timing timing) {
        return MockCluster.fastOptions(id).withLease(timing);
    }

    private static void await(java.util.function.BooleanSupplier what, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (!what.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out");
            }
            Thread.sleep(10);
        }
    }
}
