package me.loutres.juneau.webhook.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import me.loutres.juneau.webhook.fuzz.FuzzOracle;
import me.loutres.juneau.webhook.fuzz.ServletTarget;

/**
 * The Service review's own cost, without TLS, HTTP or Jetty: the 3.5 KB review of {@link ServiceReview} through the
 * admission servlet in-process, on one thread, after a warm-up; CPU microseconds per review. For profiling the
 * envelope and the rules (run it with -XX:StartFlightRecording); the HTTPS numbers come from {@link LoadGenerator}.
 * Usage: {@code ReviewCost [--seconds S] [--path /validate/services]}.
 */
public final class ReviewCost {
    private ReviewCost() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = 20;
        String path = "/validate/services";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--path" -> path = args[++i];
                default -> throw new IllegalArgumentException("usage: ReviewCost [--seconds S] [--path P]");
            }
        }
        Path dir = Files.createTempDirectory("juneau-review-cost");
        byte[] body = ServiceReview.json();
        try (ServletTarget target = new ServletTarget(dir)) {
            FuzzOracle.Answer first = target.answer("POST", path, "application/json", body);
            if (first.status() != 200 || !first.text().contains("\"allowed\":true")) {
                throw new IllegalStateException("the bench review is not allowed: " + first.text());
            }
            run(target, path, body, 5);
            long[] result = run(target, path, body, seconds);
            System.out.printf(Locale.ROOT, "%s: %,d reviews in %d s, %.1f us CPU per review (one thread)%n", path,
                    result[0], seconds, result[1] / 1000.0 / result[0]);
        }
    }

    private static long[] run(ServletTarget target, String path, byte[] body, int seconds) throws Exception {
        var bean = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = bean.getCurrentThreadCpuTime();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long n = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 100; i++) {
                target.answer("POST", path, "application/json", body);
            }
            n += 100;
        }
        return new long[] {n, bean.getCurrentThreadCpuTime() - cpu0};
    }
}
