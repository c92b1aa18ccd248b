package me.loutres.juneau.cli.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code juneau demo}: the whole product on one machine, no cluster, one readable story; exit 0 iff it behaved. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs an embedded Kubernetes API server, the admission webhook (HTTPS) and the controller in",
                "this process and plays a scenario: pools and networks, rejected and accepted Services, VIP",
                "allocation, ARP election and failover, exhaustion and release. Exits 0 when every step behaved",
                "as expected, 1 when one did not (and says which), 2 when the parts could not start."})
public final class DemoCommand implements Callable<Integer> {
    private final PrintStream out;

    public DemoCommand() {
        this(System.out);
    }

    DemoCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws InterruptedException {
        long start = System.nanoTime();
        out.println("Juneau LB demo: the whole product on this machine, no cluster needed.");
        // the story is the output; the parts' own state-change logs would interleave with it
        Logs.quiet();
        LocalStack stack;
        try {
            stack = LocalStack.start(0, 0, true);
        } catch (java.io.IOException e) {
            out.println("juneau demo: " + e.getMessage());
            return 2;
        }
        try (stack) {
            if (!stack.awaitReady(Duration.ofSeconds(30))) {
                out.println("juneau demo: the controller did not become leader with synced caches within 30 s");
                return 2;
            }
            out.println("  API server  " + stack.api().url()
                    + "  (embedded local API server: HTTPS, Juneau's CRDs, the webhook called before every write)");
            out.println("  webhook     https://127.0.0.1:" + stack.webhookPort()
                    + "  (fresh CA; the API server calls it before storing anything)");
            out.println("  controller  leader of Lease juneau-system/juneau-controller, a client over HTTPS");
            DemoReport report = new DemoScenario(stack, out).play();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (report.succeeded()) {
                out.printf("%nAll %d steps behaved as expected in %.1f s. ARP failover took %d ms.%n",
                        report.steps().size(), seconds, report.failoverMillis());
                out.println("Next: `bin/juneau up` keeps the same parts running for kubectl; "
                        + "`kubectl apply -k manifests/` installs them in a cluster.");
                return 0;
            }
            report.failures().forEach((number, failed) -> out.printf("%nStep %d did not behave as expected (%s): %s%n",
                    number, failed.title(), failed.failure()));
            return 1;
        }
    }
}
