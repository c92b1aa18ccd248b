package me.loutres.juneau.cli.lan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the namespace-LAN benchmarks (ArpTakeoverBenchmark, BgpLatencyBenchmark) read of a process and print of their
 * samples: /proc figures by PID and one percentile line, so the two report in the same words (BENCHMARKS.md).
 */
public final class ProcStats {
    private ProcStats() {
    }

    /** The machine's load average line. */
    public static String load() throws Exception {
        return Files.readString(Path.of("/proc/loadavg")).trim();
    }

    /** One line of /proc/PID/status, e.g. "VmRSS: 123 kB". */
    public static String status(long pid, String key) throws Exception {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith(key + ":"))
                .findFirst().orElse(key + " ?").replaceAll("\\s+", " ");
    }

    /** User plus system CPU of the process, in clock ticks (1/100 s). */
    public static long cpuTicks(long pid) throws Exception {
        String[] f = Files.readString(Path.of("/proc/" + pid + "/stat")).replaceFirst("^.*\\) ", "").split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
    }

    /** p50, p90, p99, min and max of millisecond samples; NaN (a trial that saw nothing) is left out. */
    public static String stats(List<Double> values) {
        List<Double> v = new ArrayList<>(values.stream().filter(d -> !d.isNaN()).toList());
        if (v.isEmpty()) {
            return "no samples";
        }
        Collections.sort(v);
        return String.format("p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, min %.0f, max %.0f (n=%d)", pct(v, 50), pct(v, 90),
                pct(v, 99), v.get(0), v.get(v.size() - 1), v.size());
    }

    static double pct(List<Double> sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
