package me.loutres.juneau.webhook.bench;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import me.loutres.juneau.webhook.TestPki;

/**
 * HTTPS keep-alive load test of the webhook (BENCHMARKS.md). Starts {@code juneau webhook} as a separate JVM on
 * loopback with fresh certificates and an offline cluster state, then measures, side by side with the bare TLS+HTTP
 * baseline {@code GET /healthz}:
 * <ul>
 * <li>latency at a fixed open-loop rate (default 1,000 req/s): each request has an intended send time on a fixed
 * schedule and its latency is measured from that time, so a stall also delays, and is charged to, every request
 * scheduled behind it (no coordinated omission);</li>
 * <li>the maximum sustained rate: closed-loop saturation, then an open-loop ladder from 40% to 110% of it; the
 * highest rate served at 99% of its target with p99 under 20 ms (one retry per step) is reported.</li>
 * </ul>
 * Bounded: every phase has a fixed duration (about 3 minutes in total). Usage: {@code LoadGenerator [--rate R]
 * [--seconds S] [--ladder-rates R1,R2,...] [--quick] [--server-jvm "OPTS"]} (extra options of the webhook's JVM).
 */
public final class LoadGenerator {
    private static final Duration LADDER_STEP = Duration.ofSeconds(8);
    private static final long P99_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** One kind of request: its bytes, and how to check an answer. */
    record Target(String name, byte[] request, int uidOffset) {
        static Target post(String path, byte[] body) {
            String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n";
            byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
            byte[] request = Arrays.copyOf(headBytes, headBytes.length + body.length);
            System.arraycopy(body, 0, request, headBytes.length, body.length);
            int uid = indexOf(request, ServiceReview.UID_PLACEHOLDER.getBytes(StandardCharsets.US_ASCII));
            return new Target("POST " + path, request, uid);
        }

        static Target get(String path) {
            return new Target("GET " + path, ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII), -1);
        }
    }

    /** What one phase measured. */
    record Result(String target, String mode, double targetRate, long requests, long errors, double achievedRate,
                  long[] sortedNanos, long[] sortedSendLagNanos, double serverCpuMicrosPerRequest,
                  double clientCpuMicrosPerRequest, String servletP99) {
        long percentile(double p) {
            return pct(sortedNanos, p);
        }

        static long pct(long[] sorted, double p) {
            if (sorted.length == 0) {
                return 0;
            }
            int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
        }

        String row() {
            return String.format(Locale.ROOT, "| %s | %s | %s | %,.0f | %d | %s | %s | %s | %s | %s | %s | %.0f | %.0f |",
                    target, mode, targetRate > 0 ? String.format(Locale.ROOT, "%,.0f", targetRate) : "max",
                    achievedRate, errors, ms(percentile(50)), ms(percentile(99)), ms(percentile(99.9)),
                    ms(sortedNanos.length == 0 ? 0 : sortedNanos[sortedNanos.length - 1]),
                    sortedSendLagNanos.length == 0 ? "-" : ms(pct(sortedSendLagNanos, 99)), servletP99,
                    serverCpuMicrosPerRequest, clientCpuMicrosPerRequest);
        }
    }

    private final SSLContext tls;
    private final int port;
    private final long serverPid;

    private LoadGenerator(SSLContext tls, int port, long serverPid) {
        this.tls = tls;
        this.port = port;
        this.serverPid = serverPid;
    }

    public static void main(String[] args) throws Exception {
        double rate = 1000;
        int seconds = 30;
        boolean quick = false;
        // extra server JVM options, e.g. the JIT flags bin/juneau gives the webhook (or -XX:StartFlightRecording=...)
        String serverJvm = System.getProperty("bench.server.jvm", "");
        double[] ladderRates = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rate" -> rate = Double.parseDouble(args[++i]);
                case "--ladder-rates" -> ladderRates = Arrays.stream(args[++i].split(",")).mapToDouble(Double::parseDouble).toArray();
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--quick" -> quick = true;
                case "--server-jvm" -> serverJvm = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: LoadGenerator [--rate R] [--seconds S] [--ladder-rates R1,R2,...] [--quick] [--server-jvm \"OPTS\"]");
            }
        }
        if (quick) {
            seconds = 5;
        }
        Path dir = Files.createTempDirectory("juneau-webhook-bench");
        TestPki pki = new TestPki(dir);
        pki.install();
        Path state = dir.resolve("cluster-state.yaml");
        try (InputStream in = LoadGenerator.class.getResourceAsStream("/cluster-state.yaml")) {
            Files.copy(in, state);
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms512m", "-Xmx512m"));
        String extra = serverJvm.strip();
        if (!extra.isEmpty()) {
            command.addAll(List.of(extra.split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchServer.class.getName(),
                "--tls-cert-file", pki.certFile.toString(), "--tls-key-file", pki.keyFile.toString(),
                "--port", Integer.toString(port), "--bind-address", "127.0.0.1", "--cluster-state", state.toString()));
        Process server = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile()).start();
        try {
            LoadGenerator generator = new LoadGenerator(pki.clientContext(), port, server.pid());
            generator.awaitReady(server);
            generator.run(rate, seconds, quick, ladderRates);
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private void awaitReady(Process server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the webhook process exited with " + server.exitValue());
            }
            try (HttpsConnection c = new HttpsConnection(tls, port)) {
                if (c.exchange(Target.get("/readyz").request()) == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the webhook was not ready within 60 s");
    }

    private void run(double rate, int seconds, boolean quick, double[] ladderRates) throws Exception {
        byte[] body = ServiceReview.json();
        Target validate = Target.post("/validate/services", body);
        Target healthz = Target.get("/healthz");
        Duration phase = Duration.ofSeconds(seconds);
        System.out.printf(Locale.ROOT, "Service review: %,d bytes; server pid %d; %d cores; %s %s%n", body.length, serverPid,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"), System.getProperty("java.version"));

        System.out.println("load average before: " + loadAverage());
        System.out.println("warm-up (JIT) ...");
        closedLoop(validate, 4, Duration.ofSeconds(quick ? 3 : 15));
        closedLoop(healthz, 4, Duration.ofSeconds(quick ? 2 : 5));

        List<Result> results = new ArrayList<>();
        results.add(openLoop(healthz, rate, phase, 4));
        results.add(openLoop(validate, rate, phase, 4));
        Result maxHealth = closedLoop(healthz, 8, Duration.ofSeconds(quick ? 3 : 10));
        Result maxValidate = closedLoop(validate, 8, Duration.ofSeconds(quick ? 3 : 10));
        results.add(maxHealth);
        results.add(maxValidate);

        Result bestValidate = ladder(validate, rates(ladderRates, maxValidate.achievedRate()), quick, results);
        Result bestHealth = ladder(healthz, rates(ladderRates, maxHealth.achievedRate()), quick, results);

        System.out.println();
        System.out.println("| target | mode | target req/s | achieved req/s | errors | p50 ms | p99 ms | p99.9 ms | max ms | send lag p99 ms | servlet p99 ms | server CPU µs/req | client CPU µs/req |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        results.forEach(r -> System.out.println(r.row()));
        Result fixedValidate = results.get(1);
        Result fixedHealth = results.get(0);
        System.out.println("load average after: " + loadAverage());
        System.out.println();
        System.out.printf(Locale.ROOT, "send lag at %,.0f req/s (scheduler overshoot included in the latencies): p50 %s ms, p99 %s ms%n",
                rate, ms(Result.pct(fixedValidate.sortedSendLagNanos(), 50)), ms(Result.pct(fixedValidate.sortedSendLagNanos(), 99)));
        System.out.printf(Locale.ROOT, "at %,.0f req/s: validate p99 %s ms vs healthz p99 %s ms (x%.2f); envelope+rules cost p50 %s ms%n",
                rate, ms(fixedValidate.percentile(99)), ms(fixedHealth.percentile(99)),
                (double) fixedValidate.percentile(99) / Math.max(1, fixedHealth.percentile(99)),
                ms(fixedValidate.percentile(50) - fixedHealth.percentile(50)));
        System.out.printf(Locale.ROOT, "max sustained (open loop, >= 99%% of target, p99 <= 20 ms): validate %s req/s, healthz %s req/s (validate/healthz %.2f)%n",
                bestValidate == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", bestValidate.targetRate()),
                bestHealth == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", bestHealth.targetRate()),
                bestValidate == null || bestHealth == null ? Double.NaN : bestValidate.targetRate() / bestHealth.targetRate());
    }

    /** The given rates, or steps of 10% of the closed-loop maximum from 40% to 110% of it. */
    private static double[] rates(double[] given, double closedLoopMax) {
        if (given != null) {
            return given;
        }
        double step = Math.max(250, Math.round(closedLoopMax * 0.1 / 250) * 250);
        double start = Math.max(step, Math.floor(closedLoopMax * 0.4 / step) * step);
        List<Double> out = new ArrayList<>();
        for (double r = start; r <= closedLoopMax * 1.1 + 1; r += step) {
            out.add(r);
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * Open-loop steps in increasing rate; a failing step is run once more (another process on the two cores can
     * stall one run), the first step failing twice ends the ladder, and the last passing step is returned.
     */
    private Result ladder(Target target, double[] rates, boolean quick, List<Result> results) throws Exception {
        Result best = null;
        for (double r : rates) {
            Result result = null;
            boolean sustained = false;
            for (int attempt = 0; attempt < 2 && !sustained; attempt++) {
                result = openLoop(target, r, quick ? Duration.ofSeconds(3) : LADDER_STEP, 8);
                results.add(result);
                sustained = result.errors() == 0 && result.achievedRate() >= 0.99 * r
                        && result.percentile(99) <= P99_BOUND_NANOS;
            }
            if (!sustained) {
                break;
            }
            best = result;
        }
        return best;
    }

    private Result openLoop(Target target, double rate, Duration duration, int connections) throws Exception {
        long total = (long) (rate * duration.toNanos() / 1e9);
        double periodNanos = 1e9 / rate;
        AtomicLong next = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long[][] latencies = new long[connections][];
        long[][] lags = new long[connections][];
        int[] counts = new int[connections];
        AtomicLong lastEnd = new AtomicLong();
        long cpu0 = serverCpuNanos();
        long client0 = clientCpuNanos();
        java.util.Map<Double, Long> hist0 = servletHistogram();
        long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            int me = c;
            latencies[c] = new long[(int) total];
            lags[c] = new long[(int) total];
            threads.add(new Thread(() -> {
                try (HttpsConnection conn = new HttpsConnection(tls, port)) {
                    byte[] request = target.request().clone();
                    long i;
                    while ((i = next.getAndIncrement()) < total) {
                        long intended = t0 + (long) (i * periodNanos);
                        long now;
                        while ((now = System.nanoTime()) < intended) {
                            LockSupport.parkNanos(intended - now);
                        }
                        if (!send(conn, target, request, i)) {
                            errors.incrementAndGet();
                        }
                        long end = System.nanoTime();
                        latencies[me][counts[me]] = end - intended;
                        lags[me][counts[me]++] = now - intended;
                        lastEnd.accumulateAndGet(end, Math::max);
                    }
                } catch (IOException e) {
                    errors.incrementAndGet();
                }
            }, "load-" + me));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        long requests = Arrays.stream(counts).sum();
        double seconds = (lastEnd.get() - t0) / 1e9;
        double serverCpu = (serverCpuNanos() - cpu0) / 1e3 / Math.max(1, requests);
        double clientCpu = (clientCpuNanos() - client0) / 1e3 / Math.max(1, requests);
        return new Result(target.name(), "open " + connections + " conn", rate, requests, errors.get(),
                requests / seconds, merge(latencies, counts), merge(lags, counts), serverCpu, clientCpu,
                target.uidOffset() >= 0 ? servletP99(hist0, servletHistogram()) : "-");
    }

    private Result closedLoop(Target target, int connections, Duration duration) throws Exception {
        AtomicLong errors = new AtomicLong();
        long[][] latencies = new long[connections][];
        int[] counts = new int[connections];
        long cpu0 = serverCpuNanos();
        long client0 = clientCpuNanos();
        java.util.Map<Double, Long> hist0 = servletHistogram();
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        AtomicLong seq = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            int me = c;
            latencies[c] = new long[1 << 16];
            threads.add(new Thread(() -> {
                try (HttpsConnection conn = new HttpsConnection(tls, port)) {
                    byte[] request = target.request().clone();
                    long begin;
                    while ((begin = System.nanoTime()) < deadline) {
                        if (!send(conn, target, request, seq.getAndIncrement())) {
                            errors.incrementAndGet();
                        }
                        if (counts[me] == latencies[me].length) {
                            latencies[me] = Arrays.copyOf(latencies[me], latencies[me].length * 2);
                        }
                        latencies[me][counts[me]++] = System.nanoTime() - begin;
                    }
                } catch (IOException e) {
                    errors.incrementAndGet();
                }
            }, "load-" + me));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        long requests = Arrays.stream(counts).sum();
        double seconds = (System.nanoTime() - start) / 1e9;
        double serverCpu = (serverCpuNanos() - cpu0) / 1e3 / Math.max(1, requests);
        double clientCpu = (clientCpuNanos() - client0) / 1e3 / Math.max(1, requests);
        return new Result(target.name(), "closed " + connections + " conn", 0, requests, errors.get(), requests / seconds,
                merge(latencies, counts), new long[0], serverCpu, clientCpu,
                target.uidOffset() >= 0 ? servletP99(hist0, servletHistogram()) : "-");
    }

    /**
     * The server's own latency histogram of /validate/services (cumulative bucket counts by upper bound, seconds),
     * read from /metrics: what the servlet measured from request received to response written.
     */
    private java.util.Map<Double, Long> servletHistogram() {
        java.util.Map<Double, Long> buckets = new java.util.TreeMap<>();
        try (HttpsConnection c = new HttpsConnection(tls, port)) {
            if (c.exchange(Target.get("/metrics").request()) != 200) {
                return buckets;
            }
            String text = new String(c.buffer(), c.bodyStart, c.bodyLength, StandardCharsets.UTF_8);
            String prefix = "juneau_webhook_request_duration_seconds_bucket{path=\"/validate/services\",le=\"";
            for (String line : text.split("\n")) {
                if (line.startsWith(prefix)) {
                    String le = line.substring(prefix.length(), line.indexOf('"', prefix.length()));
                    long count = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                    buckets.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), count);
                }
            }
        } catch (IOException | RuntimeException e) {
            buckets.clear();
        }
        return buckets;
    }

    /** Upper bound of the bucket holding the 99th percentile of the requests between two snapshots. */
    private static String servletP99(java.util.Map<Double, Long> before, java.util.Map<Double, Long> after) {
        long total = after.getOrDefault(Double.POSITIVE_INFINITY, 0L) - before.getOrDefault(Double.POSITIVE_INFINITY, 0L);
        if (total <= 0) {
            return "-";
        }
        for (java.util.Map.Entry<Double, Long> e : after.entrySet()) {
            long cumulative = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            if (cumulative >= Math.ceil(0.99 * total)) {
                return e.getKey().isInfinite() ? "> 10" : String.format(Locale.ROOT, "<= %.3f", e.getKey() * 1000);
            }
        }
        return "-";
    }

    /** One exchange; true when the answer is a 200 that echoes this request's uid. */
    private static boolean send(HttpsConnection conn, Target target, byte[] request, long sequence) {
        try {
            if (target.uidOffset() >= 0) {
                writeUid(request, target.uidOffset(), sequence);
            }
            int status = conn.exchange(request);
            if (status != 200) {
                return false;
            }
            if (target.uidOffset() >= 0) {
                byte[] buf = conn.buffer();
                int at = indexOf(buf, conn.bodyStart, conn.bodyStart + conn.bodyLength,
                        "\"uid\":\"".getBytes(StandardCharsets.US_ASCII));
                return at >= 0 && Arrays.equals(buf, at + 7, at + 7 + 36, request, target.uidOffset(), target.uidOffset() + 36)
                        && indexOf(buf, conn.bodyStart, conn.bodyStart + conn.bodyLength,
                        "\"allowed\":true".getBytes(StandardCharsets.US_ASCII)) >= 0;
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Last 12 hex digits of the uid = the sequence number, so every request carries its own uid. */
    private static void writeUid(byte[] request, int offset, long sequence) {
        long v = sequence;
        for (int i = offset + 35; i >= offset + 24; i--) {
            request[i] = (byte) "0123456789abcdef".charAt((int) (v & 0xf));
            v >>>= 4;
        }
    }

    static int indexOf(byte[] data, byte[] pattern) {
        return indexOf(data, 0, data.length, pattern);
    }

    static int indexOf(byte[] data, int from, int to, byte[] pattern) {
        outer:
        for (int i = from; i + pattern.length <= to; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static long[] merge(long[][] perThread, int[] counts) {
        long[] all = new long[Arrays.stream(counts).sum()];
        int at = 0;
        for (int c = 0; c < perThread.length; c++) {
            System.arraycopy(perThread[c], 0, all, at, counts[c]);
            at += counts[c];
        }
        Arrays.sort(all);
        return all;
    }

    /** utime + stime of the server process from /proc (clock ticks of 10 ms). */
    private long serverCpuNanos() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(serverPid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long clientCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** The 1/5/15-minute load averages: other work on the two cores distorts every number here. */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }
}
