package me.loutres.juneau.agent.bgp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import me.loutres.juneau.bgp.Community;
import me.loutres.juneau.testing.Executables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The agent's BIRD against a real router (another BIRD, in its own namespace): what is asserted is what the router
 * learns ({@code birdc show route all}, its kernel table) and whether its session to the node was ever reset.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BirdDaemonIT {
    static final String VIP = "198.18.100.1/32";
    BgpLab lab;
    BirdDaemon daemon;
    final AtomicInteger restarts = new AtomicInteger();

    @BeforeAll
    void lab() throws Exception {
        String reason = BgpLab.unavailableReason();
        Assumptions.assumeTrue(reason == null, "BirdDaemonIT needs network namespaces: " + reason);
        Executables.require(BgpLab.BIRD, "to run BGP against a real router", "run .ci/install-bird (Debian's bird2)");
        lab = BgpLab.create(BgpLab.routerConfig(9, false));
    }

    @AfterAll
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        if (lab != null) {
            lab.close();
            assertThat(lab.namespaces()).isEmpty();
        }
    }

    interface Check {
        void run() throws Exception;
    }

    /** Retries a check that touches processes (IOException included) until it passes or the time is up. */
    static void within(Duration timeout, Check check) {
        me.loutres.juneau.testing.Eventually.eventually(timeout, () -> {
            try {
                check.run();
            } catch (AssertionError | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    static BirdConfig config(List<String> vips, List<Community> communities) {
        return new BirdConfig(BgpLab.NODE_IP, List.of(new Neighbor("tor", BgpLab.ROUTER_IP, 65000, 65001, 179, 9, 3,
                false, null, null, null, List.of("public"))),
                List.of(BirdConfigs.routes("public", communities, null, vips.toArray(String[]::new))));
    }

    @Test
    @Order(1)
    void theRouterLearnsTheRouteWithItsCommunities() throws Exception {
        daemon = BirdDaemon.start(lab.nodePrefix(), BgpLab.BIRD, lab.nodeBirdDir(),
                BirdConfigRenderer.render(config(List.of(VIP), List.of(new Community.Standard(65000, 100),
                        new Community.Large(65001, 7, 8)))), s -> restarts.incrementAndGet());
        within(Duration.ofSeconds(20), () -> {
            String route = lab.routerRoute(VIP);
            assertThat(route).contains("BGP.community: (65000,100)").contains("BGP.large_community: (65001, 7, 8)");
            assertThat(lab.routerKernelRoute("198.18.100.1")).contains("via " + BgpLab.NODE_IP);
        });
        // the configuration holds MD5 passwords: only root may read it
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lab.nodeBirdDir())))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(daemon.configFile())))
                .isEqualTo("rw-------");
    }

    @Test
    @Order(2)
    void routeChangesNeverResetTheSession() throws Exception {
        String session = lab.routerSession();
        assertThat(session).contains("Established");
        List<String> vips = new ArrayList<>(List.of(VIP));
        for (int i = 2; i <= 21; i++) {
            vips.add("198.18.100." + i + "/32");
            BirdDaemon.Applied a = daemon.apply(BirdConfigRenderer.render(config(vips,
                    List.of(new Community.Standard(65000, i)))));
            assertThat(a.ok()).as(a.error()).isTrue();
        }
        within(Duration.ofSeconds(10), () ->
                assertThat(lab.routerRoute("198.18.100.21/32")).contains("BGP.community: (65000,21)"));
        vips.remove("198.18.100.5/32");
        assertThat(daemon.apply(BirdConfigRenderer.render(config(vips, List.of()))).ok()).isTrue();
        within(Duration.ofSeconds(10), () ->
                assertThat(lab.routerKernelRoute("198.18.100.5")).doesNotContain("via"));
        AgentBgpIT.assertSameSession(lab.routerSession(), session);
    }

    @Test
    @Order(3)
    void aRefusedConfigurationKeepsTheRunningOne() throws Exception {
        String good = Files.readString(daemon.configFile());
        BirdDaemon.Applied a = daemon.apply(good + "\nprotocol bgp 'broken' { neighbor 1.2.3 as x; }\n");
        assertThat(a.ok()).isFalse();
        assertThat(a.error()).startsWith("BIRD refused the configuration: ").contains("bird.conf");
        assertThat(Files.readString(daemon.configFile())).isEqualTo(good);
        assertThat(lab.routerRoute(VIP)).contains(VIP);
    }

    @Test
    @Order(4)
    void whenBirdDiesAloneItIsBackWithinASecondAndAnnouncesAgain() throws Exception {
        long pid = daemon.pid();
        long killed = System.nanoTime();
        BgpLab.run("kill", "-9", Long.toString(pid));
        within(Duration.ofSeconds(5), () -> {
            assertThat(daemon.pid()).isNotIn(-1L, pid);
            assertThat(daemon.command("show status").ok()).isTrue();
        });
        long back = System.nanoTime() - killed;
        System.out.printf("BirdDaemonIT: BIRD answering again %.0f ms after SIGKILL%n", back / 1e6);
        assertThat(restarts.get()).isEqualTo(1);
        assertThat(daemon.restarts()).isEqualTo(1);
        within(Duration.ofSeconds(20), () ->
                assertThat(lab.routerRoute("198.18.100.21/32")).contains("198.18.100.21/32"));
    }

    @Test
    @Order(5)
    void withdrawingThenClosingLeavesNoRouteAndNoBird() throws Exception {
        long pid = daemon.pid();
        BirdConfig c = config(List.of(VIP), List.of());
        assertThat(daemon.apply(BirdConfigRenderer.render(c.withoutRoutes())).ok()).isTrue();
        within(Duration.ofSeconds(5), () ->
                assertThat(lab.routerKernelRoute("198.18.100.0/24")).doesNotContain("via"));
        daemon.close();
        daemon = null;
        assertThat(ProcessHandle.of(pid)).isEmpty();
    }

    @Test
    @Order(6)
    void birdDiesWithTheJvmThatStartedIt() throws Exception {
        Path conf = lab.dir.resolve("child.conf");
        Files.writeString(conf, BirdConfigRenderer.render(config(List.of(VIP), List.of())));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                BirdInAnotherJvm.class.getName(), BgpLab.BIRD.toString(), lab.dir.resolve("child-bird").toString(),
                lab.node, conf.toString()).redirectErrorStream(true).start();
        long birdPid;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            String line;
            birdPid = -1;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("bird-pid=")) {
                    birdPid = Long.parseLong(line.substring(9));
                    break;
                }
            }
            assertThat(birdPid).as("the child JVM started BIRD").isPositive();
            within(Duration.ofSeconds(20), () ->
                    assertThat(lab.routerKernelRoute("198.18.100.1")).contains("via " + BgpLab.NODE_IP));
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hook runs
            child.waitFor(10, TimeUnit.SECONDS);
        }
        long pid = birdPid;
        within(Duration.ofSeconds(2), () -> assertThat(ProcessHandle.of(pid)).isEmpty());
        within(Duration.ofSeconds(5), () ->
                assertThat(lab.routerKernelRoute("198.18.100.1")).doesNotContain("via"));
    }
}
