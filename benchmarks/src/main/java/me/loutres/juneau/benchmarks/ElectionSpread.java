package me.loutres.juneau.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Not a timing: how evenly a fresh election spreads 10,000 VIPs over 100 nodes, for a few node naming schemes.
 * Run: {@code java -cp benchmarks/target/benchmarks.jar me.loutres.juneau.benchmarks.ElectionSpread}
 */
public final class ElectionSpread {

    private ElectionSpread() {
    }

    public static void main(String[] args) {
        String[] schemes = {"node-%03d", "worker-%d", "ip-10-0-%d-7.ec2.internal", "k8s-pool1-%08x-vmss"};
        System.out.printf("%-28s %6s %6s %6s %6s %s%n", "node names", "min", "p50", "max", "idle", "(VIPs per node; "
                + "ideal 100 each; idle = nodes elected for no VIP)");
        for (String scheme : schemes) {
            List<String> nodes = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                nodes.add(String.format(scheme, scheme.contains("%08x") ? i * 2654435761L & 0xFFFFFFFFL : i));
            }
            Map<String, Integer> count = new HashMap<>();
            nodes.forEach(n -> count.put(n, 0));
            for (int v = 0; v < 10_000; v++) {
                String vip = "10.0." + (v >> 8) + "." + (v & 0xFF);
                count.merge(me.loutres.juneau.election.ArpElection.elect(vip, nodes, null).orElseThrow(), 1,
                        Integer::sum);
            }
            int[] c = count.values().stream().mapToInt(Integer::intValue).sorted().toArray();
            System.out.printf("%-28s %6d %6d %6d %6d%n", scheme, c[0],
                    c[c.length / 2], c[c.length - 1], Arrays.stream(c).filter(x -> x == 0).count());
        }
    }
}
