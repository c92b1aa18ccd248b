package me.loutres.juneau.benchmarks;

import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.allocation.AddressIntervals;

/**
 * docs/dual-stack.md, allocation: the heap the 128-bit allocator's free space holds, for ranges of very different
 * sizes with the same addresses in use. Heap in use is measured after a full GC before and after building each
 * structure (kept reachable), so it is the structure's retained size to within the GC's rounding.
 * {@code java -cp benchmarks/target/benchmarks.jar me.loutres.juneau.benchmarks.WideAllocationMemory}
 */
public final class WideAllocationMemory {
    private WideAllocationMemory() {
    }

    public static void main(String[] args) throws InterruptedException {
        String[] ranges = {"10.0.0.0/24", "10.0.0.0/8", "2001:db8:0:1::/120", "2001:db8:0:1::/96", "2001:db8:0:1::/64"};
        System.out.printf("%-20s %-10s %8s %10s %14s%n", "range", "layout", "inUse", "intervals", "retained MiB");
        for (String layout : new String[] {"empty", "packed", "fragmented"}) {
            for (String range : ranges) {
                int inUse = "empty".equals(layout) ? 0 : range.endsWith("/24") || range.endsWith("/120") ? 100 : 1_000_000;
                long before = heapAfterGc();
                List<AddressIntervals> keep = new ArrayList<>();
                keep.add(WideAllocationBenchmark.WideFill.filled(range, "empty".equals(layout) ? "packed" : layout, inUse));
                long after = heapAfterGc();
                System.out.printf("%-20s %-10s %8d %10d %14.2f%n", range, layout, inUse, keep.get(0).intervals(),
                        (after - before) / 1048576.0);
            }
        }
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
