package me.loutres.juneau.cli.plan;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.ManifestException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code juneau plan}: how many pools and nodes a number of VIPs needs, or what AddressPools hold now. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Capacity planning.",
                "  plan --vips N --vips-per-node M [--tolerate-failures F]: pools = ceil(N / M), nodes = pools x (1 + F)",
                "  plan -f PATH: capacity, use and free addresses of the AddressPools in the files"})
public final class PlanCommand implements Callable<Integer> {
    static final int EXIT_USAGE = 2;

    @Option(names = "--vips", paramLabel = "N", description = "VIPs (LoadBalancer Services) to serve.")
    Long vips;

    @Option(names = "--vips-per-node", paramLabel = "M", description = "VIPs one node can answer for.")
    Long vipsPerNode;

    @Option(names = "--tolerate-failures", paramLabel = "F", defaultValue = "0",
            description = "Node failures to tolerate. Default: ${DEFAULT-VALUE}.")
    long toleratedFailures;

    @Option(names = {"-f", "--filename"}, paramLabel = "PATH",
            description = "Files or directories with AddressPools (and ExternalNetworks, ServiceLoadBalancers, Nodes), "
                    + "e.g. kubectl get addresspools,externalnetworks,slb -A -o yaml. Repeatable.")
    List<Path> paths;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        boolean sizing = vips != null || vipsPerNode != null;
        if (sizing && paths != null) {
            err.println("error: give either --vips/--vips-per-node (sizing) or -f PATH (pool capacity), not both");
            return EXIT_USAGE;
        }
        if (!sizing && paths == null) {
            err.println("error: nothing to plan; give --vips N --vips-per-node M [--tolerate-failures F] for a sizing, "
                    + "or -f PATH for the capacity of AddressPools");
            return EXIT_USAGE;
        }
        return sizing ? sizing(out, err) : capacity(out, err);
    }

    private int sizing(PrintStream out, PrintStream err) {
        try {
            // a given number that is wrong is named first: "--vips 0" is about --vips, not the missing --vips-per-node
            if (vips != null) {
                Sizing.checkVips(vips);
            }
            if (vipsPerNode != null) {
                Sizing.checkVipsPerNode(vipsPerNode);
            }
            Sizing.checkToleratedFailures(toleratedFailures);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return EXIT_USAGE;
        }
        if (vips == null || vipsPerNode == null) {
            err.println("error: " + (vips == null ? "--vips N" : "--vips-per-node M") + " is missing; a sizing needs both");
            return EXIT_USAGE;
        }
        Sizing s;
        try {
            s = Sizing.of(vips, vipsPerNode, toleratedFailures);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return EXIT_USAGE;
        }
        out.println(s.vips() + " VIPs, " + s.vipsPerNode() + " VIPs per node, " + s.toleratedFailures()
                + " tolerated node failure" + (s.toleratedFailures() == 1 ? "" : "s"));
        out.println("pools: " + s.pools() + " (ceil(" + s.vips() + " / " + s.vipsPerNode() + "))");
        out.println("nodes: " + s.nodes() + " (" + s.pools() + " pool" + (s.pools() == 1 ? "" : "s") + " x (1 + "
                + s.toleratedFailures() + "))");
        return 0;
    }

    private int capacity(PrintStream out, PrintStream err) {
        List<HasMetadata> objects = new ArrayList<>();
        try {
            for (Path p : paths) {
                objects.addAll(ClusterStateFiles.read(p));
            }
        } catch (ManifestException e) {
            err.println("error: " + e.getMessage());
            return EXIT_USAGE;
        }
        List<PoolCapacity.Row> rows = PoolCapacity.rows(objects);
        if (rows.isEmpty()) {
            err.println("error: no AddressPool in " + String.join(", ", paths.stream().map(Path::toString).toList())
                    + "; give files with AddressPools (kubectl get addresspools -o yaml)");
            return EXIT_USAGE;
        }
        String[] head = {"POOL", "MODE", "NETWORK", "ENTRIES", "CAPACITY", "USED", "FREE"};
        List<String[]> table = new ArrayList<>();
        table.add(head);
        long capacity = 0;
        long used = 0;
        long free = 0;
        for (PoolCapacity.Row r : rows) {
            table.add(new String[] {r.pool(), r.mode(), r.network(), r.entries(), Long.toString(r.capacity()),
                    Long.toString(r.used()), Long.toString(r.free())});
            capacity += r.capacity();
            used += r.used();
            free += r.free();
        }
        table.add(new String[] {"TOTAL", "", "", "", Long.toString(capacity), Long.toString(used), Long.toString(free)});
        print(out, table, 4);
        // per family, only when a pool holds IPv6 (docs/dual-stack.md): an IPv4-only plan reads as before
        List<String[]> families = new ArrayList<>();
        families.add(new String[] {"POOL", "FAMILY", "CAPACITY", "USED", "FREE"});
        for (PoolCapacity.Row r : rows) {
            r.families().forEach((family, c) -> families.add(new String[] {r.pool(), family.kubeName(),
                    Long.toString(c.total()), Long.toString(c.allocated()), Long.toString(c.free())}));
        }
        if (families.size() > 1) {
            out.println();
            print(out, families, 2);
            out.println("(per family; an IPv6 count saturates at 9223372036854775807, the largest int64)");
        }
        for (PoolCapacity.Row r : rows) {
            for (String p : r.problems()) {
                out.println("Warning: AddressPool " + r.pool() + ": " + p + " (not counted)");
            }
        }
        return 0;
    }

    /** Columns from {@code firstNumber} on are numbers, right-aligned. */
    private static void print(PrintStream out, List<String[]> table, int firstNumber) {
        String[] head = table.get(0);
        int[] width = new int[head.length];
        for (String[] row : table) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (String[] row : table) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                boolean number = i >= firstNumber;
                String cell = number ? " ".repeat(width[i] - row[i].length()) + row[i]
                        : row[i] + (i == row.length - 1 ? "" : " ".repeat(width[i] - row[i].length()));
                sb.append(cell).append(i == row.length - 1 ? "" : "  ");
            }
            out.println(sb.toString().stripTrailing());
        }
    }
}
