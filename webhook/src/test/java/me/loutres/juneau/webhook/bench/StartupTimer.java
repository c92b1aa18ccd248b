package me.loutres.juneau.webhook.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import me.loutres.juneau.webhook.TestPki;
import me.loutres.juneau.webhook.testing.MockApiServer;

/**
 * Start-up time of {@code juneau webhook} as its own process (BENCHMARKS.md, issue 12 item 5): from just before the
 * process is started to the first {@code /readyz} 200, polling every 5 ms; also when the port first accepted a TCP
 * connection. The process runs exactly as {@code bin/juneau webhook} runs it (the cli jar and its libraries), with
 * fresh certificates and either the offline cluster state or a kubeconfig of an in-process mock API server (informers
 * list it). {@code --jvm} may be given several times: the configurations are interleaved run by run, so a busy
 * machine slows them alike, and reported side by side ({@code --jvm none} is the plain JVM; {@code -cp DIR} among a
 * configuration's options runs the jars of another build, {@code DIR} being its {@code cli/target}), with the CPU time
 * the process used until ready. Usage:
 * {@code StartupTimer [--runs N] [--view state|kubeconfig] [--jvm "OPTS"]... [--classpath CP] [--poll-ms MS]}: TCP is
 * tried every 5 ms, {@code /readyz} every {@code MS} (default 20: each try is a TLS handshake, whose CPU the starting
 * server shares on a small machine).
 */
public final class StartupTimer {
    private static int pollMillis = 20;

    private StartupTimer() {
    }

    public static void main(String[] args) throws Exception {
        int runs = 7;
        String view = "state";
        List<String> jvms = new ArrayList<>();
        String classpath = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--view" -> view = args[++i];
                case "--jvm" -> {
                    String options = args[++i];
                    jvms.add(options.equals("none") ? "" : options);
                }
                case "--classpath" -> classpath = args[++i];
                case "--poll-ms" -> pollMillis = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: StartupTimer [--runs N] [--view state|kubeconfig] [--jvm \"OPTS\"] [--classpath CP] [--poll-ms MS]");
            }
        }
        if (jvms.isEmpty()) {
            jvms.add("");
        }
        if (classpath == null) {
            classpath = cliClasspath();
        }
        Path dir = Files.createTempDirectory("juneau-webhook-startup");
        TestPki pki = new TestPki(dir);
        pki.install();
        MockApiServer api = null;
        List<String> viewArgs;
        if (view.equals("kubeconfig")) {
            api = new MockApiServer(MockApiServer.freePort()).start();
            viewArgs = List.of("--kubeconfig", api.writeKubeconfig(dir.resolve("kubeconfig")).toString());
        } else {
            Path state = dir.resolve("cluster-state.yaml");
            try (InputStream in = StartupTimer.class.getResourceAsStream("/cluster-state.yaml")) {
                Files.copy(in, state);
            }
            viewArgs = List.of("--cluster-state", state.toString());
        }
        SSLContext tls = pki.clientContext();
        System.out.printf(Locale.ROOT, "webhook start-up, view %s, %d cores, %s %s, load average %s%n", view,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.version"), loadAverage());
        long[][] ready = new long[jvms.size()][runs];
        long[][] listening = new long[jvms.size()][runs];
        long[][] cpu = new long[jvms.size()][runs];
        try {
            for (int run = 0; run < runs; run++) {
                for (int j = 0; j < jvms.size(); j++) {
                    long[] times = once(dir, pki, tls, classpath, jvms.get(j), viewArgs);
                    listening[j][run] = times[0];
                    ready[j][run] = times[1];
                    cpu[j][run] = times[2];
                    System.out.printf(Locale.ROOT, "run %d [%s]: port open %d ms, first /readyz 200 %d ms, CPU %d ms%n",
                            run + 1, jvms.get(j), times[0], times[1], times[2]);
                }
            }
        } finally {
            if (api != null) {
                api.stop();
            }
        }
        System.out.println("load average after: " + loadAverage());
        System.out.println("| JVM options | first /readyz 200 median ms | min ms | max ms | port open median ms | CPU until ready median ms |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (int j = 0; j < jvms.size(); j++) {
            Arrays.sort(ready[j]);
            Arrays.sort(listening[j]);
            Arrays.sort(cpu[j]);
            System.out.printf(Locale.ROOT, "| `%s` | %d | %d | %d | %d | %d |%n", jvms.get(j).isBlank() ? "(none)" : jvms.get(j),
                    ready[j][runs / 2], ready[j][0], ready[j][runs - 1], listening[j][runs / 2], cpu[j][runs / 2]);
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "?";
        }
    }

    private static long[] once(Path dir, TestPki pki, SSLContext tls, String classpath, String jvm, List<String> viewArgs)
            throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        List<String> options = jvm.isBlank() ? List.of() : List.of(jvm.strip().split("\\s+"));
        // "-cp DIR" among a configuration's options: that build's jars (DIR/cli-*.jar and DIR/lib), to compare builds
        int cp = options.indexOf("-cp");
        if (cp >= 0 && cp + 1 < options.size()) {
            classpath = cliClasspath(Path.of(options.get(cp + 1)));
            List<String> rest = new ArrayList<>(options);
            rest.remove(cp + 1);
            rest.remove(cp);
            options = rest;
        }
        command.addAll(options);
        command.addAll(List.of("-cp", classpath, "me.loutres.juneau.cli.Juneau", "webhook",
                "--tls-cert-file", pki.certFile.toString(), "--tls-key-file", pki.keyFile.toString(),
                "--port", Integer.toString(port), "--bind-address", "127.0.0.1"));
        command.addAll(viewArgs);
        long start = System.nanoTime();
        Process server = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile()).start();
        long open = -1;
        try {
            long deadline = start + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                if (!server.isAlive()) {
                    throw new IllegalStateException("the webhook exited with " + server.exitValue() + "; see "
                            + dir.resolve("server.log"));
                }
                if (open < 0) {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", port), 100);
                        open = (System.nanoTime() - start) / 1_000_000;
                    } catch (IOException notYet) {
                        Thread.sleep(5);
                        continue;
                    }
                }
                try (HttpsConnection c = new HttpsConnection(tls, port)) {
                    if (c.exchange(LoadGenerator.Target.get("/readyz").request()) == 200) {
                        long ready = (System.nanoTime() - start) / 1_000_000;
                        return new long[] {open, ready, cpuMillis(server.pid())};
                    }
                } catch (IOException notYet) {
                    // the connector is up before the context; keep polling
                }
                Thread.sleep(pollMillis);
            }
            throw new IllegalStateException("not ready within 60 s; see " + dir.resolve("server.log"));
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    /** User + system CPU time of a process so far (Linux /proc; -1 elsewhere). */
    private static long cpuMillis(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields 14 and 15 of stat (utime, stime), counted from after the command name; clock ticks of 10 ms
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The classpath bin/juneau uses: cli/target/cli-*.jar and cli/target/lib/*. */
    private static String cliClasspath() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.isDirectory(root.resolve("cli/target/lib"))) {
            root = root.getParent();
        }
        if (root == null) {
            throw new IllegalStateException("cli/target/lib not found: build the jars first (mvn -B package -DskipTests)");
        }
        return cliClasspath(root.resolve("cli/target"));
    }

    private static String cliClasspath(Path target) throws IOException {
        try (var jars = Files.list(target)) {
            Path cli = jars.filter(p -> p.getFileName().toString().matches("cli-.*\\.jar")
                    && !p.getFileName().toString().endsWith("-tests.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no cli jar in " + target));
            return cli + java.io.File.pathSeparator + target.resolve("lib") + "/*";
        }
    }
}
