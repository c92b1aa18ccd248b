package me.loutres.juneau.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import me.loutres.juneau.election.ArpElection;
import me.loutres.juneau.ip.Ipv4;

/**
 * Not a timing: how evenly a fresh election spreads 10,000 sequential VIPs (10.0.0.1…) over 100 nodes, for a few
 * node naming schemes, with the FNV-1a-only score (the baseline) next to docs/phases-and-conditions.md's fmix64(FNV-1a).
 * Run: {@code java -cp benchmarks/target/benchmarks.jar me.loutres.juneau.benchmarks.ElectionSpread}
 */
public final class ElectionSpread {
    private static final int VIPS = 10_000;
    private static final int NODES = 100;

    private ElectionSpread() {
    }

    public static void main(String[] args) {
        String[] schemes = {"node-%03d", "worker-%d", "ip-10-0-%d-7.ec2.internal", "k8s-pool1-%08x-vmss"};
        System.out.printf("%-28s %-14s %6s %6s %6s %8s %6s   (VIPs per node; ideal %d each; idle = nodes with no VIP)%n",
                "node names", "score", "min", "p50", "max", "stddev", "idle", VIPS / NODES);
        for (String scheme : schemes) {
            List<String> nodes = new ArrayList<>();
            for (int i = 0; i < NODES; i++) {
                nodes.add(String.format(scheme, scheme.contains("%08x") ? i * 2654435761L & 0xFFFFFFFFL : i));
            }
            print(scheme, "FNV-1a only", spread(nodes, FnvOnlyElection::elect));
            print(scheme, "fmix64(FNV-1a)", spread(nodes, (vip, n) -> ArpElection.elect(vip, n, null).orElseThrow()));
        }
    }

    private static int[] spread(List<String> nodes, BiFunction<String, List<String>, String> elect) {
        Map<String, Integer> count = new HashMap<>();
        nodes.forEach(n -> count.put(n, 0));
        long first = Ipv4.parse("10.0.0.1");
        for (int v = 0; v < VIPS; v++) {
            count.merge(elect.apply(Ipv4.format(first + v), nodes), 1, Integer::sum);
        }
        return count.values().stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    private static void print(String scheme, String score, int[] c) {
        double mean = Arrays.stream(c).average().orElse(0);
        double stddev = Math.sqrt(Arrays.stream(c).mapToDouble(x -> (x - mean) * (x - mean)).sum() / c.length);
        System.out.printf("%-28s %-14s %6d %6d %6d %8.1f %6d%n", scheme, score, c[0], c[c.length / 2], c[c.length - 1],
                stddev, Arrays.stream(c).filter(x -> x == 0).count());
    }
}
