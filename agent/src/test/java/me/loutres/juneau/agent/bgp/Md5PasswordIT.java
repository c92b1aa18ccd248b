package me.loutres.juneau.agent.bgp;

import static me.loutres.juneau.agent.bgp.BirdDaemonIT.within;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import me.loutres.juneau.testing.Executables;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * TCP MD5 (RFC 2385) between the node and a router that requires it: the right password brings the session up and the
 * route across; a wrong one takes the session down and the route off the router, and the node's BIRD says it is not
 * Established.
 */
class Md5PasswordIT {
    static final String VIP = "198.18.100.1";

    static String routerConfig() {
        return BgpLab.routerConfig(9, false).replace("  hold time 9;\n", "  hold time 9;\n  password \"r1ght-pass\";\n");
    }

    static BirdConfig config(String password) {
        return new BirdConfig(BgpLab.NODE_IP, List.of(new Neighbor("tor", BgpLab.ROUTER_IP, 65000, 65001, 179, 9, 3,
                false, null, password, null, List.of("public"))),
                List.of(BirdConfigs.routes("public", List.of(), null, VIP + "/32")));
    }

    @Test
    void theRightPasswordPeersAndAWrongOneDoesNot() throws Exception {
        String reason = BgpLab.unavailableReason();
        Assumptions.assumeTrue(reason == null, "Md5PasswordIT needs network namespaces: " + reason);
        Executables.require(BgpLab.BIRD, "to run BGP against a real router", "run .ci/install-bird (Debian's bird2)");
        try (BgpLab lab = BgpLab.create(routerConfig());
             BirdDaemon daemon = BirdDaemon.start(lab.nodePrefix(), BgpLab.BIRD, lab.nodeBirdDir(),
                     BirdConfigRenderer.render(config("r1ght-pass")), s -> { })) {
            within(Duration.ofSeconds(30), () -> {
                assertThat(lab.routerKernelRoute(VIP)).contains("via " + BgpLab.NODE_IP);
                assertThat(BirdStatus.sessions(daemon.command("show protocols all")).get("peer:tor").established())
                        .isTrue();
            });
            assertThat(daemon.apply(BirdConfigRenderer.render(config("wrong-pass"))).ok()).isTrue();
            within(Duration.ofSeconds(30), () -> {
                assertThat(lab.routerKernelRoute(VIP)).doesNotContain("via");
                assertThat(lab.routerSession()).doesNotContain("Established");
            });
            Thread.sleep(3_000); // BIRD retries every few seconds: the session must stay down, not come back
            BirdStatus.Session s = BirdStatus.sessions(daemon.command("show protocols all")).get("peer:tor");
            assertThat(s.established()).as("%s", s).isFalse();
            assertThat(lab.routerKernelRoute(VIP)).doesNotContain("via");
        }
    }
}
