package me.loutres.juneau.agent.bgp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Two network namespaces joined by a veth: a router (198.18.0.1, AS 65000) running its own BIRD that installs what it
 * learns into its kernel table, and a node (198.18.0.2) where the test runs the agent's BIRD. Nothing is created in,
 * or routed to, the root namespace; {@link #close} stops the router's BIRD by its pid and deletes both namespaces.
 */
final class BgpLab implements AutoCloseable {
    static final String ROUTER_IP = "198.18.0.1";
    static final String NODE_IP = "198.18.0.2";
    /** The second node's link (only in {@link #createTwoNodes}): the router is .1, the node .2 of 198.18.1.0/24. */
    static final String ROUTER_IP_2 = "198.18.1.1";
    static final String NODE_IP_2 = "198.18.1.2";
    static final Path BIRD = locate("bird");
    static final Path BIRDC = locate("birdc");

    final String router;
    final String node;
    /** The second node's namespace (only in {@link #createTwoNodes}). */
    final String node2;
    final Path dir;
    private final List<String> namespaces = new ArrayList<>();
    private Process routerBird;

    private BgpLab(String prefix, Path dir) {
        this.router = prefix + "-r";
        this.node = prefix + "-n";
        this.node2 = prefix + "-m";
        this.dir = dir;
    }

    static Path locate(String name) {
        for (String d : List.of("/usr/sbin", "/usr/bin", "/sbin", "/usr/local/sbin")) {
            if (Files.isExecutable(Path.of(d, name))) {
                return Path.of(d, name);
            }
        }
        return Path.of("/usr/sbin", name);
    }

    /** Why the lab cannot run here (not root), or null. */
    static String unavailableReason() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "not running as root: network namespaces need CAP_SYS_ADMIN; CI runs as root";
        }
        return null;
    }

    /** The lab, its router's BIRD speaking {@code routerConfig} (see {@link #routerConfig}). */
    static BgpLab create(String routerConfig) throws IOException, InterruptedException {
        return createWithRouterAddresses(routerConfig, List.of());
    }

    /** As {@link #create}, the router's link holding more addresses (in 198.18.0.0/24) for more sessions. */
    static BgpLab createWithRouterAddresses(String routerConfig, List<String> more)
            throws IOException, InterruptedException {
        return create(routerConfig, more, false);
    }

    /**
     * As {@link #create}, with a second node (namespace {@link #node2}, {@link #NODE_IP_2}) on its own link to the
     * router ({@link #ROUTER_IP_2}); {@link #routerConfigTwoNodes} peers with both.
     */
    static BgpLab createTwoNodes(String routerConfig) throws IOException, InterruptedException {
        return create(routerConfig, List.of(), true);
    }

    private static BgpLab create(String routerConfig, List<String> more, boolean twoNodes)
            throws IOException, InterruptedException {
        BgpLab lab = new BgpLab("jb" + ProcessHandle.current().pid() % 100000 + "x"
                + ThreadLocalRandom.current().nextInt(1000), Files.createTempDirectory("juneau-bgp-lab"));
        try {
            lab.namespace(lab.router);
            lab.namespace(lab.node);
            run("ip", "-n", lab.router, "link", "add", "eth0", "type", "veth", "peer", "name", "eth0", "netns",
                    lab.node);
            run("ip", "-n", lab.router, "addr", "add", ROUTER_IP + "/24", "dev", "eth0");
            run("ip", "-n", lab.node, "addr", "add", NODE_IP + "/24", "dev", "eth0");
            for (String a : more) {
                run("ip", "-n", lab.router, "addr", "add", a + "/24", "dev", "eth0");
            }
            run("ip", "-n", lab.router, "link", "set", "eth0", "up");
            run("ip", "-n", lab.node, "link", "set", "eth0", "up");
            if (twoNodes) {
                lab.namespace(lab.node2);
                run("ip", "-n", lab.router, "link", "add", "eth1", "type", "veth", "peer", "name", "eth0", "netns",
                        lab.node2);
                run("ip", "-n", lab.router, "addr", "add", ROUTER_IP_2 + "/24", "dev", "eth1");
                run("ip", "-n", lab.node2, "addr", "add", NODE_IP_2 + "/24", "dev", "eth0");
                run("ip", "-n", lab.router, "link", "set", "eth1", "up");
                run("ip", "-n", lab.node2, "link", "set", "eth0", "up");
            }
            Files.writeString(lab.dir.resolve("router.conf"), routerConfig, StandardCharsets.UTF_8);
            lab.routerBird = new ProcessBuilder("ip", "netns", "exec", lab.router, BIRD.toString(), "-f", "-c",
                    lab.dir.resolve("router.conf").toString(), "-s", lab.routerSocket().toString())
                    .redirectErrorStream(true).redirectOutput(lab.dir.resolve("router.log").toFile()).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!Files.exists(lab.routerSocket()) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            if (!lab.routerBird.isAlive()) {
                throw new IOException("the router's BIRD did not start: "
                        + Files.readString(lab.dir.resolve("router.log")));
            }
        } catch (IOException | RuntimeException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    /** The router: AS 65000, peering with the node (AS 65001), BFD 300 ms x 3 when asked, routes into its kernel. */
    static String routerConfig(int holdSeconds, boolean bfd) {
        return "router id " + ROUTER_IP + ";\n"
                + "protocol device { }\n"
                + (bfd ? "protocol bfd { interface \"*\" { min rx interval 300 ms; min tx interval 300 ms; "
                + "multiplier 3; }; }\n" : "")
                + "protocol kernel { ipv4 { import none; export all; }; merge paths on; }\n"
                + "protocol bgp node {\n"
                + "  local " + ROUTER_IP + " as 65000;\n"
                + "  neighbor " + NODE_IP + " as 65001;\n"
                + "  hold time " + holdSeconds + ";\n"
                + ROUTER_TIMERS
                + (bfd ? "  bfd on;\n" : "")
                + "  ipv4 { import all; export none; };\n"
                + "}\n";
    }

    /** {@link #routerConfig} (no BFD) with a second session, {@code node2}, to the second node. */
    static String routerConfigTwoNodes(int holdSeconds) {
        return routerConfig(holdSeconds, false)
                + "protocol bgp node2 {\n"
                + "  local " + ROUTER_IP_2 + " as 65000;\n"
                + "  neighbor " + NODE_IP_2 + " as 65001;\n"
                + "  hold time " + holdSeconds + ";\n"
                + ROUTER_TIMERS
                + "  ipv4 { import all; export none; };\n"
                + "}\n";
    }

    /**
     * The router's sessions: bound to their own local address (two sessions to one node from two addresses), and
     * retried within seconds, not BIRD's minute, so a test never waits on the router.
     */
    static final String ROUTER_TIMERS = "  strict bind;\n  connect delay time 1;\n  connect retry time 2;\n"
            + "  error wait time 1, 5;\n";

    /** The time BIRD prints in the Since column of the router's session line, in milliseconds of the day. */
    static long sinceMillis(String sessionLine) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{3})")
                .matcher(sessionLine);
        if (!m.find()) {
            throw new AssertionError("no time in the session line '" + sessionLine + "'");
        }
        return ((Long.parseLong(m.group(1)) * 60 + Long.parseLong(m.group(2))) * 60 + Long.parseLong(m.group(3)))
                * 1000 + Long.parseLong(m.group(4));
    }

    Path routerSocket() {
        return dir.resolve("router.ctl");
    }

    Path nodeBirdDir() {
        return dir.resolve("node-bird");
    }

    /** What the agent's BIRD runs under in the node's namespace. */
    List<String> nodePrefix() {
        return List.of("ip", "netns", "exec", node);
    }

    /** What the second node's BIRD runs under (only in {@link #createTwoNodes}). */
    List<String> node2Prefix() {
        return List.of("ip", "netns", "exec", node2);
    }

    /** The router's BIRD's view of a prefix ({@code show route all P}). */
    String routerRoute(String prefix) throws IOException, InterruptedException {
        return birdc(routerSocket(), "show", "route", "all", prefix);
    }

    /** The router's kernel routes for a prefix, as {@code ip route} prints them. */
    String routerKernelRoute(String prefix) throws IOException, InterruptedException {
        return run("ip", "-n", router, "route", "show", prefix);
    }

    /** The router's one line about its session to the node (state and since). */
    String routerSession() throws IOException, InterruptedException {
        String out = birdc(routerSocket(), "show", "protocols", "node");
        return out.lines().filter(l -> l.startsWith("node ")).findFirst().orElse("");
    }

    static String birdc(Path socket, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(BIRDC.toString(), "-s", socket.toString()));
        cmd.addAll(List.of(args));
        return run(cmd.toArray(String[]::new));
    }

    private void namespace(String name) throws IOException, InterruptedException {
        run("ip", "netns", "add", name);
        namespaces.add(name);
        run("ip", "-n", name, "link", "set", "lo", "up");
    }

    static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
        return out;
    }

    @Override
    public void close() {
        if (routerBird != null) {
            routerBird.destroy();
            try {
                if (!routerBird.waitFor(5, TimeUnit.SECONDS)) {
                    routerBird.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (int i = namespaces.size() - 1; i >= 0; i--) {
            try {
                run("ip", "netns", "del", namespaces.get(i));
            } catch (IOException e) {
                System.err.println("bgp lab: cannot delete namespace " + namespaces.get(i) + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        namespaces.clear();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            System.err.println("bgp lab: cannot delete " + dir + ": " + e.getMessage());
        }
    }

    List<String> namespaces() {
        return List.copyOf(namespaces);
    }
}
