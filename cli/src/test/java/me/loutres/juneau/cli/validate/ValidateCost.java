package me.loutres.juneau.cli.validate;

import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.view.SnapshotClusterView;

/**
 * What {@code validate} costs per object as the files grow (BENCHMARKS.md, admission review cost by cluster size):
 * one pool, one network and N managed Services, validated in this process as {@code juneau validate} does (reading
 * the files included), each size twice (the first warms the JIT); prints milliseconds and microseconds per object.
 */
public final class ValidateCost {
    private ValidateCost() {
    }

    public static void main(String[] args) throws Exception {
        int[] sizes = args.length > 0 ? java.util.Arrays.stream(args[0].split(",")).mapToInt(Integer::parseInt).toArray()
                : new int[] {1_000, 10_000};
        Path dir = Files.createTempDirectory("juneau-validate-cost");
        try {
            System.out.println("| objects | run | load avg | total ms | µs per object |");
            System.out.println("|---:|---:|---:|---:|---:|");
            for (int size : sizes) {
                Path file = dir.resolve("m-" + size + ".yaml");
                write(file, size);
                for (int run = 1; run <= 2; run++) {
                    String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
                    long start = System.nanoTime();
                    List<Outcome> outcomes = new Validation(Validation.inProcess(new AdmissionEngine(AdmissionSettings.defaults())),
                            SnapshotClusterView.empty(), "ci").run(new ManifestReader(List.of(), new Kustomize(""),
                            System.in).read(List.of(file), List.of()).objects());
                    long took = System.nanoTime() - start;
                    if (outcomes.stream().anyMatch(o -> !o.accepted())) {
                        throw new IllegalStateException("some objects were refused: " + outcomes.stream()
                                .filter(o -> !o.accepted()).findFirst().orElseThrow());
                    }
                    System.out.printf(Locale.ROOT, "| %,d | %d | %s | %,.0f | %.1f |%n", size + 2, run, load, took / 1e6,
                            took / 1e3 / (size + 2));
                }
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    private static void write(Path file, int services) throws java.io.IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file)) {
            w.write("apiVersion: juneau.loutres.me/v1alpha1\nkind: AddressPool\nmetadata:\n  name: pool-a\nspec:\n"
                    + "  advertiseMode: bgp\n  addresses: [10.0.0.0/8]\n---\n"
                    + "apiVersion: juneau.loutres.me/v1alpha1\nkind: ExternalNetwork\nmetadata:\n  name: public\nspec:\n"
                    + "  type: bgp\n  addressPools: [pool-a]\n");
            for (int i = 1; i <= services; i++) {
                w.write("---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc-" + i + "\n  namespace: ns-" + (i % 50)
                        + "\n  annotations:\n    juneau.loutres.me/load-balancer-external-network: public\n"
                        + (i % 2 == 0 ? "    juneau.loutres.me/load-balancer-requested-ip: 10.200." + (i >> 8) + "." + (i & 0xff) + "\n" : "")
                        + "spec:\n  type: LoadBalancer\n  loadBalancerClass: juneau.loutres.me/load-balancer\n"
                        + "  externalTrafficPolicy: Local\n  selector: {app: web}\n  ports:\n  - {port: 80, protocol: TCP}\n");
            }
        }
    }
}
