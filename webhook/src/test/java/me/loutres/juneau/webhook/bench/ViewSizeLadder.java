package me.loutres.juneau.webhook.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.webhook.TestPki;

/**
 * The review cost by cluster size (docs/admission.md, "Cost of a review"; BENCHMARKS.md): for each size, a
 * {@code --cluster-state} file with that many ServiceLoadBalancers (each with a VIP) and 100 Nodes, {@code juneau
 * webhook} as its own JVM with the given flags, then the same Service review with a requested IP: 3,000 reviews over
 * one kept-alive HTTPS connection, the last 2,000 counted; then 1,000 req/s for {@code --rss-seconds} and the
 * server's resident set read from /proc. With {@code --wrk}, wrk (an outside client) drives the same review for
 * 10 s on one connection as well.
 *
 * <p>With {@code --kubeconfig FILE} (the admin kubeconfig of a running {@code juneau up --no-controller --no-nodes}),
 * the webhook reads the cluster through informers instead: the ladder fills that API server up to each size in turn
 * (one pool, one network and 100 Nodes as the admin; the ServiceLoadBalancers, which only the controller may write,
 * with {@code FILE.controller} from 16 kept-alive client threads) and starts the webhook with {@code --kubeconfig}.
 */
public final class ViewSizeLadder {
    private ViewSizeLadder() {
    }

    public static void main(String[] args) throws Exception {
        int[] sizes = {10, 1_000, 10_000, 50_000};
        String serverJvm = "";
        int rssSeconds = 20;
        boolean wrk = false;
        Path kubeconfig = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--server-jvm" -> serverJvm = args[++i];
                case "--rss-seconds" -> rssSeconds = Integer.parseInt(args[++i]);
                case "--wrk" -> wrk = true;
                case "--kubeconfig" -> kubeconfig = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; accepted: --sizes N,N --server-jvm FLAGS --rss-seconds S --wrk --kubeconfig FILE");
            }
        }
        Path dir = Files.createTempDirectory("juneau-view-ladder");
        TestPki pki = new TestPki(dir);
        pki.install();
        byte[] body = review();
        InformerFill fill = kubeconfig == null ? null : new InformerFill(kubeconfig);
        System.out.println("| SLBs | load avg | p50 ms | p99 ms | RSS after 3,000 MiB | RSS at 1,000 req/s MiB | achieved req/s | wrk p50 ms | wrk p99 ms | wrk req/s |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int size : sizes) {
            List<String> view;
            if (fill == null) {
                Path state = dir.resolve("state-" + size + ".yaml");
                writeState(state, size);
                view = List.of("--cluster-state", state.toString());
            } else {
                fill.fillTo(size);
                view = List.of("--kubeconfig", kubeconfig.toString());
            }
            int port;
            try (ServerSocket probe = new ServerSocket(0)) {
                port = probe.getLocalPort();
            }
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            if (!serverJvm.isBlank()) {
                command.addAll(List.of(serverJvm.strip().split("\\s+")));
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchServer.class.getName(),
                    "--tls-cert-file", pki.certFile.toString(), "--tls-key-file", pki.keyFile.toString(),
                    "--port", Integer.toString(port), "--bind-address", "127.0.0.1"));
            command.addAll(view);
            Process server = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("server-" + size + ".log").toFile()).start();
            try {
                awaitReady(pki, port, server);
                String load = loadAverage();
                long[] latencies = new long[2_000];
                byte[] request = post(body);
                try (HttpsConnection c = new HttpsConnection(pki.clientContext(), port)) {
                    for (int i = 0; i < 3_000; i++) {
                        long start = System.nanoTime();
                        int status = c.exchange(request);
                        long took = System.nanoTime() - start;
                        check(c, status);
                        if (i >= 1_000) {
                            latencies[i - 1_000] = took;
                        }
                    }
                    long rssAfter = rssKib(server.pid());
                    double achieved = paced(c, request, 1_000, rssSeconds);
                    long rssLoaded = rssKib(server.pid());
                    Arrays.sort(latencies);
                    String[] wrkResult = wrk ? wrk(dir, port, body) : new String[] {"-", "-", "-"};
                    System.out.printf(Locale.ROOT, "| %,d | %s | %.3f | %.3f | %d | %d | %,.0f | %s | %s | %s |%n", size, load,
                            latencies[999] / 1e6, latencies[1_979] / 1e6, rssAfter / 1024, rssLoaded / 1024, achieved,
                            wrkResult[0], wrkResult[1], wrkResult[2]);
                }
            } finally {
                server.destroy();
                if (!server.waitFor(30, TimeUnit.SECONDS)) {
                    server.destroyForcibly();
                }
            }
        }
        if (fill != null) {
            fill.close();
        }
    }

    /** The benchmark's Service review, asking for a free address of the pool (rule 6 reads the VIP index). */
    static byte[] review() {
        String json = new String(ServiceReview.json(), StandardCharsets.UTF_8);
        String net = "\"juneau.loutres.me/load-balancer-external-network\":\"public\",";
        int at = json.indexOf(net);
        if (at < 0) {
            throw new IllegalStateException("the review has no external-network annotation");
        }
        return (json.substring(0, at + net.length()) + "\"juneau.loutres.me/load-balancer-requested-ip\":\"10.255.255.1\","
                + json.substring(at + net.length())).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] post(byte[] body) {
        byte[] head = ("POST /validate/services HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] all = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    private static void check(HttpsConnection c, int status) {
        String answer = new String(c.buffer(), c.bodyStart, c.bodyLength, StandardCharsets.UTF_8);
        if (status != 200 || !answer.contains("\"allowed\":true")) {
            throw new IllegalStateException("unexpected answer " + status + ": " + answer);
        }
    }

    /** One connection at a fixed rate for a while; returns the rate achieved. */
    private static double paced(HttpsConnection c, byte[] request, int rate, int seconds) throws IOException {
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        long sent = 0;
        while (System.nanoTime() < end) {
            long due = start + sent * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            }
            check(c, c.exchange(request));
            sent++;
        }
        return sent / ((System.nanoTime() - start) / 1e9);
    }

    private static String[] wrk(Path dir, int port, byte[] body) throws Exception {
        Path bodyFile = dir.resolve("review.json");
        Files.write(bodyFile, body);
        Path script = dir.resolve("review.lua");
        Files.writeString(script, """
                local f = io.open("%s", "rb"); local body = f:read("*a"); f:close()
                wrk.method = "POST"; wrk.body = body; wrk.headers["Content-Type"] = "application/json"
                done = function(summary, latency, requests)
                  io.write(string.format("WRK %%.3f %%.3f %%.0f\\n", latency:percentile(50) / 1000,
                    latency:percentile(99) / 1000, summary.requests / (summary.duration / 1e6)))
                end
                """.formatted(bodyFile));
        Process p = new ProcessBuilder("wrk", "-t1", "-c1", "-d10s", "-s", script.toString(),
                "https://127.0.0.1:" + port + "/validate/services").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        for (String line : out.split("\n")) {
            if (line.startsWith("WRK ")) {
                String[] f = line.split(" ");
                return new String[] {f[1], f[2], String.format(Locale.ROOT, "%,.0f", Double.parseDouble(f[3]))};
            }
        }
        throw new IllegalStateException("wrk said: " + out);
    }

    private static void awaitReady(TestPki pki, int port, Process server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        byte[] ready = "GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the webhook process exited with " + server.exitValue());
            }
            try (HttpsConnection c = new HttpsConnection(pki.clientContext(), port)) {
                if (c.exchange(ready) == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the webhook was not ready within 180 s");
    }

    static long rssKib(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS for " + pid);
    }

    private static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    /** A pool 10.0.0.0/8, network public, {@code slbs} ServiceLoadBalancers with VIPs from 10.0.0.1 up, 100 Nodes. */
    static void writeState(Path file, int slbs) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file)) {
            w.write("apiVersion: juneau.loutres.me/v1alpha1\nkind: AddressPool\nmetadata:\n  name: pool-a\nspec:\n"
                    + "  advertiseMode: bgp\n  addresses: [10.0.0.0/8]\n---\n"
                    + "apiVersion: juneau.loutres.me/v1alpha1\nkind: ExternalNetwork\nmetadata:\n  name: public\nspec:\n"
                    + "  type: bgp\n  addressPools: [pool-a]\n");
            for (int n = 1; n <= 100; n++) {
                w.write("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-" + n + "\nspec:\n  podCIDRs: [172.16."
                        + n + ".0/24]\nstatus:\n  addresses:\n  - {type: InternalIP, address: 192.168.0." + n + "}\n");
            }
            for (int i = 1; i <= slbs; i++) {
                w.write("---\napiVersion: juneau.loutres.me/v1alpha1\nkind: ServiceLoadBalancer\nmetadata:\n  name: svc-" + i
                        + "\n  namespace: ns-" + (i % 50) + "\nspec:\n  serviceRef:\n    name: svc-" + i
                        + "\n  externalNetwork: public\nstatus:\n  phase: Ready\n  vip: 10." + ((i >> 16) & 0xff) + "."
                        + ((i >> 8) & 0xff) + "." + (i & 0xff) + "\n  addressPool: pool-a\n");
            }
        }
    }
}
