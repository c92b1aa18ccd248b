package me.loutres.juneau.cli.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import me.loutres.juneau.cli.demo.lan.ArpLab;
import me.loutres.juneau.cli.demo.lan.LanScenario;

/**
 * The demo's last step, the one seed users know from MetalLB: a client's ARP table before and after the VIP moves
 * from one node to another, with the measured time. It runs real node agents on a LAN of network namespaces, so it
 * needs root and {@code ip netns}; anywhere else it says why it skips.
 */
public final class ArpWireDemo {
    private final PrintStream out;

    public ArpWireDemo(PrintStream out) {
        this.out = out;
    }

    /** What the wire step did. */
    public enum Outcome { MOVED, SKIPPED, FAILED }

    private String failure;

    /** Why the step failed (null unless {@link #play()} answered FAILED). */
    public String failure() {
        return failure;
    }

    public Outcome play() {
        out.printf("%n[wire] The VIP on the wire: a client's ARP table when the announcing node loses its backend%n");
        String reason = ArpLab.unavailableReason();
        if (reason != null) {
            out.println("  skipped: " + reason);
            out.println("  (run `sudo bin/juneau demo` on Linux with iproute2 to see it; CI runs it as ArpFailoverIT)");
            return Outcome.SKIPPED;
        }
        try (LanScenario lan = LanScenario.start()) {
            out.println("  a LAN of network namespaces: client 198.18.0.1, node-a 198.18.0.11 ("
                    + lan.mac("node-a") + "), node-b 198.18.0.12 (" + lan.mac("node-b") + "); a node agent on each");
            Instant started = Instant.now();
            lan.startAgents(true, List.of());
            // two agent JVMs start here: seconds on an idle machine, a minute or more on a busy one
            String owner = lan.awaitAnnouncedBy(null, started, Duration.ofSeconds(120));
            lan.lab().flushNeighbours(lan.client());
            lan.clientSendsTo(LanScenario.VIP);
            if (lan.awaitClientEntry(lan.mac(owner), System.nanoTime(), Duration.ofSeconds(3)) == null) {
                return failed("the client did not resolve " + LanScenario.VIP + " to " + owner);
            }
            out.println("  client$ ip neigh show dev eth0          (" + owner + " answers for " + LanScenario.VIP + ")");
            lan.clientTable().lines().forEach(l -> out.println("    " + l));
            Thread.sleep(1200);
            String next = LanScenario.other(owner);
            out.println("  the backend on " + owner + " turns not-ready; the controller elects " + next
                    + ", whose agent sends gratuitous ARP");
            long t0 = System.nanoTime();
            lan.setReady(owner, false);
            Duration took = lan.awaitClientEntry(lan.mac(next), t0, Duration.ofSeconds(5));
            if (took == null) {
                return failed("the client's entry did not move within 5 s; it shows " + lan.clientEntry());
            }
            out.println("  client$ ip neigh show dev eth0          (" + took.toMillis()
                    + " ms after the backend went away)");
            lan.clientTable().lines().forEach(l -> out.println("    " + l));
            out.println("  ✓ the client now sends " + LanScenario.VIP + " to " + next + " (" + lan.mac(next)
                    + "); without gratuitous ARP a router would keep " + lan.mac(owner) + " until its cache expires");
            lan.stopAgents();
            return Outcome.MOVED;
        } catch (Exception e) {
            return failed(e.getClass().getSimpleName() + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }

    private Outcome failed(String why) {
        failure = why;
        out.println("  ✗ " + why);
        return Outcome.FAILED;
    }
}
