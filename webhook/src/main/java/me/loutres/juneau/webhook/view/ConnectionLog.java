package me.loutres.juneau.webhook.view;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/**
 * How the cluster view tells an operator about the API server: one log line per change of state (unreachable at
 * start, synced, lost, back), never one per retry and never a stack trace, since an outage of the API server is
 * expected and is retried. A background check every {@link #CHECK_MILLIS} ms notices syncs and recoveries, which the
 * informers do not report.
 */
final class ConnectionLog implements AutoCloseable {
    static final long CHECK_MILLIS = 250;
    /** Consecutive checks without a watch before a synced view counts as lost (a watch is re-opened in between). */
    private static final int LOST_AFTER_CHECKS = 4;
    /**
     * The same before the first watch after the sync is seen: the informers open their watches only after their
     * lists, which on a busy machine takes longer than a re-open, and saying "down" then would be a false alarm.
     */
    private static final int FIRST_WATCH_CHECKS = 40;

    enum State { STARTING, UNREACHABLE, SYNCED, LOST }

    private final Logger log;
    private final long startNanos = System.nanoTime();
    private ScheduledExecutorService monitor;
    private State state = State.STARTING;
    private int failures;
    private int checksWithoutWatch;
    private boolean watchedSinceSync;

    ConnectionLog(Logger log) {
        this.log = log;
    }

    synchronized State state() {
        return state;
    }

    /** An informer's list or watch failed; it will retry. */
    synchronized void failed(String kind, Throwable failure) {
        failures++;
        String reason = reason(failure);
        switch (state) {
            case STARTING -> {
                state = State.UNREACHABLE;
                log.warn("cluster view: cannot list {} from the API server ({}); retrying with backoff, /readyz "
                        + "answers 503 until every kind is listed", kind, reason);
            }
            case SYNCED -> {
                state = State.LOST;
                log.warn("cluster view: lost the API server while watching {} ({}); reviews are answered from the "
                        + "cache, retrying with backoff", kind, reason);
            }
            default -> {
                // already said: one line per change of state
            }
        }
    }

    /** Starts the periodic check of {@code synced} and {@code watching}. */
    synchronized void watch(BooleanSupplier synced, BooleanSupplier watching) {
        monitor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cluster-view-monitor");
            t.setDaemon(true);
            return t;
        });
        monitor.scheduleWithFixedDelay(() -> check(synced.getAsBoolean(), watching.getAsBoolean()), CHECK_MILLIS,
                CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    synchronized void check(boolean synced, boolean watching) {
        switch (state) {
            case STARTING, UNREACHABLE -> {
                if (synced) {
                    log.info("cluster view synced in {} ms{}", (System.nanoTime() - startNanos) / 1_000_000,
                            failures == 0 ? "" : " (after " + failures + " failed attempts)");
                    state = State.SYNCED;
                    checksWithoutWatch = 0;
                    watchedSinceSync = watching;
                }
            }
            case SYNCED -> {
                checksWithoutWatch = watching ? 0 : checksWithoutWatch + 1;
                watchedSinceSync |= watching;
                if (checksWithoutWatch >= (watchedSinceSync ? LOST_AFTER_CHECKS : FIRST_WATCH_CHECKS)) {
                    state = State.LOST;
                    log.warn("cluster view: a watch on the API server is down; reviews are answered from the cache, "
                            + "retrying with backoff");
                }
            }
            case LOST -> {
                if (watching) {
                    state = State.SYNCED;
                    checksWithoutWatch = 0;
                    log.info("cluster view: the API server is back; watching again");
                }
            }
        }
    }

    /** The innermost cause in one line: "Connection refused", "403 Forbidden: ...", never a stack trace. */
    static String reason(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        if (message == null || message.isBlank()) {
            message = failure.getMessage();
        }
        String text = message == null || message.isBlank() ? root.getClass().getSimpleName()
                : message.replaceAll("\\s+", " ").strip();
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    @Override
    public synchronized void close() {
        if (monitor != null) {
            monitor.shutdownNow();
        }
    }
}
