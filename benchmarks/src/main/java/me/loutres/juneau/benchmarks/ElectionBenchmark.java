package me.loutres.juneau.benchmarks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.election.ArpElection;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * ARP election for 10,000 VIPs over 100 nodes (one benchmark operation = all 10,000 elections): a fresh election
 * (restart without ARPAdvertisements), the steady state (every current node still eligible), the loss of one node
 * (sticky: only its VIPs are re-elected), a naive baseline that ranks all nodes per VIP by sorting, and the fresh
 * election with the FNV-1a-only score used before the fmix64 finalizer was added (docs/phases-and-conditions.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ElectionBenchmark {
    static final int VIPS = 10_000;
    static final int NODES = 100;

    private String[] vips;
    private List<String> nodes;
    private List<String> nodesMinusOne;
    private String[] current;

    @Setup(Level.Trial)
    public void setUp() {
        vips = new String[VIPS];
        for (int i = 0; i < VIPS; i++) {
            vips[i] = "10.0." + (i >> 8) + "." + (i & 0xFF);
        }
        nodes = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            nodes.add(String.format("ip-10-0-%d-7.ec2.internal", i));
        }
        current = new String[VIPS];
        for (int i = 0; i < VIPS; i++) {
            current[i] = ArpElection.elect(vips[i], nodes, null).orElseThrow();
        }
        List<String> scratch = new ArrayList<>(nodes);
        for (int i = 0; i < 200; i++) {
            if (!rankFirst(vips[i], scratch).equals(current[i])) {
                throw new IllegalStateException("baseline disagrees with ArpElection for " + vips[i]);
            }
        }
        ArpElection.Electorate electorate = ArpElection.among(nodes);
        for (int i = 0; i < VIPS; i++) {
            if (!electorate.elect(vips[i], null).orElseThrow().equals(current[i])) {
                throw new IllegalStateException("ArpElection.among disagrees with ArpElection.elect for " + vips[i]);
            }
        }
        nodesMinusOne = new ArrayList<>(nodes);
        nodesMinusOne.remove(current[0]);
    }

    @Benchmark
    public void fresh(Blackhole bh) {
        for (String vip : vips) {
            bh.consume(ArpElection.elect(vip, nodes, null));
        }
    }

    /**
     * The same fresh election with the node set prepared once ({@link ArpElection#among}); the preparation (a table
     * of 256 FNV-1a tails per node) is part of the operation.
     */
    @Benchmark
    public void freshPrepared(Blackhole bh) {
        ArpElection.Electorate electorate = ArpElection.among(nodes);
        for (String vip : vips) {
            bh.consume(electorate.elect(vip, null));
        }
    }

    /** Baseline for the cost of docs/phases-and-conditions.md's finalizer: the same fresh election with the FNV-1a-only score. */
    @Benchmark
    public void freshFnvOnly(Blackhole bh) {
        for (String vip : vips) {
            bh.consume(FnvOnlyElection.elect(vip, nodes));
        }
    }

    @Benchmark
    public void steadySticky(Blackhole bh) {
        for (int i = 0; i < VIPS; i++) {
            bh.consume(ArpElection.elect(vips[i], nodes, current[i]));
        }
    }

    @Benchmark
    public void oneNodeLostSticky(Blackhole bh) {
        for (int i = 0; i < VIPS; i++) {
            bh.consume(ArpElection.elect(vips[i], nodesMinusOne, current[i]));
        }
    }

    /** Baseline: rank every node by sorting on the unsigned score (scores recomputed inside the comparator). */
    @Benchmark
    public void baselineSortAllNodes(Blackhole bh) {
        List<String> scratch = new ArrayList<>(nodes);
        for (String vip : vips) {
            bh.consume(rankFirst(vip, scratch));
        }
    }

    static String rankFirst(String vip, List<String> scratch) {
        scratch.sort(((Comparator<String>) (a, b) -> Long.compareUnsigned(ArpElection.score(vip, b),
                ArpElection.score(vip, a))).thenComparing(Comparator.naturalOrder()));
        return scratch.get(0);
    }
}
