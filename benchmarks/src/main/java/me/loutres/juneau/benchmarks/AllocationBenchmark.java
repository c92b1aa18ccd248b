package me.loutres.juneau.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.Allocator;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.PoolEntry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One allocate + release pair in a /8 pool (16,777,214 usable addresses) with 1,000,000 addresses in use, for
 * Juneau's {@link Allocator} and two linear-scan baselines (parameter {@code inUse} changes the 1,000,000), on
 * three layouts of the used addresses:
 * <ul>
 *   <li>{@code packed}: the lowest 1,000,000 usable addresses are used; the first hole is right above them
 *       (what first-fit produces without churn; the worst case for a scan).</li>
 *   <li>{@code holes}: as packed, then 1,000 random addresses among them released (churn; 1% of inUse when
 *       smaller); the lowest hole is around position 1,000.</li>
 *   <li>{@code fragmented}: every other address of the lowest 2,000,000 is used; a scan finds a hole at once,
 *       while the free intervals are at their most numerous (the worst case for Juneau's structure).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class AllocationBenchmark {
    static final String POOL = "big";
    static final List<String> ORDER = List.of(POOL);

    @Param({"packed", "holes", "fragmented"})
    public String layout;

    /** Addresses in use; 1,000,000 by default, fewer to show how each cost grows with it. */
    @Param({"1000000"})
    public int inUse;

    private Allocator juneau;
    private NaiveLinearAllocator naive;
    private BitSetScanAllocator bitset;

    @Setup(Level.Trial)
    public void fill() {
        PoolEntry slash8 = PoolEntry.parse("bgp", "10.0.0.0/8");
        AddressRange usable = slash8.usable();
        List<Long> used = usedAddresses(usable.first());
        juneau = new Allocator();
        naive = new NaiveLinearAllocator(usable.first(), usable.last());
        bitset = new BitSetScanAllocator(usable.first(), usable.last());
        List<AllocationRecord> records = new ArrayList<>(used.size());
        for (int i = 0; i < used.size(); i++) {
            String owner = "ns/svc-" + i;
            long a = used.get(i);
            records.add(new AllocationRecord(owner, POOL, a));
            naive.hold(owner, a);
            bitset.hold(owner, a);
        }
        juneau.restore(records);
        juneau.upsertPool(POOL, "bgp", List.of(slash8));
        if (juneau.usage(POOL).allocated() != inUse) {
            throw new IllegalStateException("setup: " + juneau.usage(POOL));
        }
    }

    private List<Long> usedAddresses(long first) {
        List<Long> used = new ArrayList<>(inUse);
        int holes = Math.min(1_000, inUse / 100);
        switch (layout) {
            case "packed" -> {
                for (int i = 0; i < inUse; i++) {
                    used.add(first + i);
                }
            }
            case "holes" -> {
                // inUse + 1,000 packed, then 1,000 random ones freed: still exactly inUse in use
                Random random = new Random(42);
                java.util.BitSet freed = new java.util.BitSet();
                while (freed.cardinality() < holes) {
                    freed.set(random.nextInt(inUse + holes));
                }
                for (int i = 0; i < inUse + holes; i++) {
                    if (!freed.get(i)) {
                        used.add(first + i);
                    }
                }
            }
            case "fragmented" -> {
                for (int i = 0; i < inUse; i++) {
                    used.add(first + 2L * i);
                }
            }
            default -> throw new IllegalArgumentException(layout);
        }
        return used;
    }

    @Benchmark
    public long juneauIntervalTree() {
        AllocationResult r = juneau.allocate("bench/new", ORDER, OptionalLong.empty());
        juneau.release("bench/new");
        return ((AllocationResult.Allocated) r).address();
    }

    @Benchmark
    public long baselineHashSetScan() {
        long a = naive.allocate("bench/new");
        naive.release("bench/new");
        return a;
    }

    @Benchmark
    public long baselineBitSetScan() {
        long a = bitset.allocate("bench/new");
        bitset.release("bench/new");
        return a;
    }
}
