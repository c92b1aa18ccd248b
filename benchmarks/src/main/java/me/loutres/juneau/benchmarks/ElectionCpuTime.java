package me.loutres.juneau.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import org.openjdk.jmh.infra.Blackhole;

/**
 * ElectionBenchmark's {@code fresh} and {@code freshPrepared} timed by the CPU time of the running thread rather than
 * by the wall clock: on the shared 2-core machine at load average 20-40 a thread gets a fraction of a core and JMH's
 * wall-clock samples measure mostly the waiting; the thread's own CPU time is close to what an idle machine shows.
 * The two cases alternate, operation by operation, after a warm-up.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar me.loutres.juneau.benchmarks.ElectionCpuTime [ops]}
 */
public final class ElectionCpuTime {
    private ElectionCpuTime() {
    }

    public static void main(String[] args) {
        int ops = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        ElectionBenchmark b = new ElectionBenchmark();
        b.setUp();
        Blackhole bh = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 40; i++) {
            b.fresh(bh);
            b.freshPrepared(bh);
        }
        long[] fresh = new long[ops];
        long[] prepared = new long[ops];
        for (int i = 0; i < ops; i++) {
            long t = threads.getCurrentThreadCpuTime();
            b.fresh(bh);
            long u = threads.getCurrentThreadCpuTime();
            b.freshPrepared(bh);
            long v = threads.getCurrentThreadCpuTime();
            fresh[i] = u - t;
            prepared[i] = v - u;
        }
        print("fresh", fresh);
        print("freshPrepared", prepared);
        System.out.printf("fresh / freshPrepared at the median: %.1fx%n", median(fresh) / (double) median(prepared));
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static void print(String name, long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        System.out.printf("%-14s CPU per operation (10,000 elections): min %.2f ms, p50 %.2f ms, p90 %.2f ms, max %.2f"
                + " ms over %d operations%n", name, s[0] / 1e6, s[s.length / 2] / 1e6, s[s.length * 9 / 10] / 1e6,
                s[s.length - 1] / 1e6, s.length);
    }
}
