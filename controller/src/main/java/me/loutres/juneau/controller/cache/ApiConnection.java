package me.loutres.juneau.controller.cache;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import me.loutres.juneau.runtime.LeaseReads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the informers can reach the API server, logged once per change ("cannot reach ... retrying", "reachable
 * again"): an outage is expected operation, not a stack trace per retry. The informers retry with backoff
 * themselves (their exception handler says so); this only keeps the state and the log honest.
 *
 * <p>Two sources tell of an outage: a failed list (an informer's exception handler) and a failed Lease read
 * (every retry period, leader and standby alike). The second matters when the API server goes away mid-run:
 * the informers' watches then reconnect silently, never calling their exception handler. The way back is
 * logged once every informer watches again and the last Lease read was answered.
 */
final class ApiConnection implements LeaseReads {
    private static final Logger LOG = LoggerFactory.getLogger(ApiConnection.class);

    private final AtomicBoolean down = new AtomicBoolean();
    private final AtomicReference<String> lastProblem = new AtomicReference<>();
    private final AtomicBoolean leaseUnanswered = new AtomicBoolean();

    /** An informer's list or watch failed; it will retry. */
    void failed(String what, Throwable t) {
        String problem = firstLine(t);
        lastProblem.set(what + ": " + problem);
        if (down.compareAndSet(false, true)) {
            LOG.warn("cannot reach the API server ({}: {}); retrying with backoff", what, problem);
        }
    }

    @Override
    public void answered() {
        leaseUnanswered.set(false);
    }

    @Override
    public void unreachable(Throwable problem) {
        leaseUnanswered.set(true);
        failed("reading the Lease", problem);
    }

    /** Every informer is watching again. */
    void watching() {
        if (!leaseUnanswered.get() && down.compareAndSet(true, false)) {
            LOG.info("API server reachable again; caches resynced and watching (last problem: {})", lastProblem.get());
        }
    }

    static String firstLine(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
