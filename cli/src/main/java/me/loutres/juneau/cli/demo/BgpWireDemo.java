package me.loutres.juneau.cli.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import me.loutres.juneau.cli.demo.lan.BgpLanScenario;

/**
 * The demo's BGP step (docs/bgp.md): a router's {@code ip route} for a BGP VIP with both nodes as next hops, and
 * again after one node's backend goes, with the measured time. It runs real node agents and BIRDs on a LAN of
 * network namespaces, so it needs root, {@code ip netns} and BIRD 2; anywhere else it says why it skips.
 */
public final class BgpWireDemo {
    private final PrintStream out;
    private String failure;

    public BgpWireDemo(PrintStream out) {
        this.out = out;
    }

    /** Why the step failed (null unless {@link #play()} answered FAILED). */
    public String failure() {
        return failure;
    }

    public ArpWireDemo.Outcome play() {
        out.printf("%n[wire] A BGP VIP on the wire: a router's route when one node loses its backend%n");
        String reason = BgpLanScenario.unavailableReason();
        if (reason != null) {
            out.println("  skipped: " + reason);
            out.println("  (run `sudo bin/juneau demo` on Linux with iproute2 and bird2 to see it; CI runs it as BgpIT)");
            return ArpWireDemo.Outcome.SKIPPED;
        }
        try (BgpLanScenario lan = BgpLanScenario.start()) {
            out.println("  a LAN of network namespaces: router 198.18.0.1 (BIRD, AS 65000), node-a 198.18.0.11 and"
                    + " node-b 198.18.0.12, each with a node agent and its BIRD (AS 65001)");
            lan.startAgents();
            if (lan.awaitNextHops(List.of("node-a", "node-b"), System.nanoTime(), Duration.ofSeconds(60)) == null) {
                return failed("the router did not learn " + BgpLanScenario.VIP + " from both nodes; it has '"
                        + lan.routerKernelRoute().strip() + "'");
            }
            out.println("  router$ ip route show " + BgpLanScenario.VIP + "          (both nodes, ECMP)");
            lan.routerKernelRoute().lines().forEach(l -> out.println("    " + l));
            out.println("  the backend on node-a turns not-ready; its agent withdraws the route");
            long t0 = System.nanoTime();
            lan.setReady("node-a", false);
            Duration took = lan.awaitNextHops(List.of("node-b"), t0, Duration.ofSeconds(5));
            if (took == null) {
                return failed("node-a's next hop did not go within 5 s; the router has '"
                        + lan.routerKernelRoute().strip() + "'");
            }
            out.println("  router$ ip route show " + BgpLanScenario.VIP + "          (" + took.toMillis()
                    + " ms after the backend went away)");
            lan.routerKernelRoute().lines().forEach(l -> out.println("    " + l));
            out.println("  ✓ the router now sends " + BgpLanScenario.VIP + " to node-b only");
            return ArpWireDemo.Outcome.MOVED;
        } catch (Exception e) {
            return failed(e.getClass().getSimpleName() + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }

    private ArpWireDemo.Outcome failed(String why) {
        failure = why;
        out.println("  ✗ " + why);
        return ArpWireDemo.Outcome.FAILED;
    }
}
