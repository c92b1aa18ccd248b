package me.loutres.juneau.agent.bgp;

import static me.loutres.juneau.agent.bgp.BirdDaemonIT.within;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import me.loutres.juneau.testing.Executables;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A frozen node (its BIRD stopped with SIGSTOP: no BGP keepalive, no BFD packet) loses its route at the router by
 * BFD, 300 ms x 3, long before the hold time (9 s); the node's BIRD reports the BFD session as Up before.
 */
class BfdDetectionIT {
    static final String VIP = "198.18.100.1";

    @Test
    void aFrozenNodesRouteGoesWithinTheBfdDetectionTime() throws Exception {
        String reason = BgpLab.unavailableReason();
        Assumptions.assumeTrue(reason == null, "BfdDetectionIT needs network namespaces: " + reason);
        Executables.require(BgpLab.BIRD, "to run BGP against a real router", "run .ci/install-bird (Debian's bird2)");
        try (BgpLab lab = BgpLab.create(BgpLab.routerConfig(9, true))) {
            BirdConfig config = new BirdConfig(BgpLab.NODE_IP, List.of(new Neighbor("tor", BgpLab.ROUTER_IP, 65000,
                    65001, 179, 9, 3, false, null, null, new BfdTiming(300, 300, 3, false), List.of("public"))),
                    List.of(BirdConfigs.routes("public", List.of(), null, VIP + "/32")));
            try (BirdDaemon daemon = BirdDaemon.start(lab.nodePrefix(), BgpLab.BIRD, lab.nodeBirdDir(),
                    BirdConfigRenderer.render(config), s -> { })) {
                within(Duration.ofSeconds(30), () -> {
                    assertThat(lab.routerKernelRoute(VIP)).contains("via " + BgpLab.NODE_IP);
                    assertThat(BirdStatus.bfd(daemon.command("show bfd sessions")))
                            .containsEntry(BgpLab.ROUTER_IP, "Up");
                });
                long pid = daemon.pid();
                long t0 = System.nanoTime();
                BgpLab.run("kill", "-STOP", Long.toString(pid));
                try {
                    within(Duration.ofSeconds(5), () -> assertThat(lab.routerKernelRoute(VIP)).doesNotContain("via"));
                    long took = System.nanoTime() - t0;
                    System.out.printf("BfdDetectionIT: route gone at the router %.0f ms after the node froze%n",
                            took / 1e6);
                    assertThat(Duration.ofNanos(took)).as("BFD 300 ms x 3, not the 9 s hold time")
                            .isLessThan(Duration.ofSeconds(3));
                } finally {
                    BgpLab.run("kill", "-CONT", Long.toString(pid));
                }
            }
        }
    }
}
