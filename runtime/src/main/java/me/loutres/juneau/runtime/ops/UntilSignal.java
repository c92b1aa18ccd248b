package me.loutres.juneau.runtime.ops;

import java.util.concurrent.CountDownLatch;

/** Keeps a server command running until SIGTERM/SIGINT, then closes the server before main returns. */
public final class UntilSignal {
    private UntilSignal() {
    }

    /** Blocks until the JVM is asked to stop; the shutdown hook closes {@code server} (e.g. releases its Lease). */
    public static void await(AutoCloseable server, String hookName) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println(hookName + ": " + e.getMessage());
            } finally {
                stopped.countDown();
            }
        }, hookName));
        stopped.await();
    }
}
