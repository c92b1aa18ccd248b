package me.loutres.juneau.benchmarks;

import java.util.concurrent.TimeUnit;
import me.loutres.juneau.allocation.AddressIntervals;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpPoolEntry;
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
 * docs/dual-stack.md, allocation: the 128-bit interval allocator ({@link AddressIntervals}) takes the lowest free
 * address and gives it back, in an IPv6 /64 (2^64 - 1 usable addresses) and in an IPv4 /8 (16,777,214), each with
 * 1,000,000 addresses in use, in one run. Layouts as {@link AllocationBenchmark}: {@code packed} (the lowest
 * 1,000,000 used: one free interval above them) and {@code fragmented} (every other address of the lowest 2,000,000
 * used: 1,000,000 free intervals, the structure's worst case). The setup checks the interval count, which is what the
 * structure's memory follows: the same for both ranges.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class WideAllocationBenchmark {

    @Param({"10.0.0.0/8", "2001:db8:0:1::/64"})
    public String range;

    @Param({"packed", "fragmented"})
    public String layout;

    @Param({"1000000"})
    public int inUse;

    private AddressIntervals free;

    @Setup(Level.Trial)
    public void fill() {
        free = WideFill.filled(range, layout, inUse);
        int expected = "packed".equals(layout) ? 1 : inUse; // fragmented: inUse - 1 single holes and the rest above
        if (free.intervals() != expected) {
            throw new IllegalStateException("setup: " + free.intervals() + " intervals, expected " + expected);
        }
    }

    @Benchmark
    public IpAddress allocateAndRelease() {
        IpAddress a = free.takeLowest();
        free.give(a);
        return a;
    }

    /** The free space of one entry with {@code inUse} addresses taken in the given layout. */
    static final class WideFill {
        private WideFill() {
        }

        static AddressIntervals filled(String cidr, String layout, int inUse) {
            AddressIntervals free = new AddressIntervals();
            free.add(IpPoolEntry.parse("bgp", cidr).usable());
            IpAddress first = free.lowest();
            for (int i = 0; i < inUse; i++) {
                IpAddress a = first.plus("packed".equals(layout) ? i : 2L * i);
                if (!free.take(a)) {
                    throw new IllegalStateException("setup: " + a + " taken twice");
                }
            }
            return free;
        }
    }
}
