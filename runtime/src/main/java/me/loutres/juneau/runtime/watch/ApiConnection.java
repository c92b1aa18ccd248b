package me.loutres.juneau.runtime.watch;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import me.loutres.juneau.runtime.LeaseReads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a server reaches the API server, said in one log line when it stops and one when it answers again: an
 * outage is expected operation (the caches keep answering), not a stack trace per retry. Each path (a
 * {@link WatchedCache}, the Lease) reports on its own, so one path that keeps failing while another works is still
 * one outage, and the way back is said once every path works again. The controller, the agent and the webhook all
 * report through this one class (docs/operations.md).
 */
public final class ApiConnection implements LeaseReads {
    private static final Logger LOG = LoggerFactory.getLogger(ApiConnection.class);
    /** The path of the Lease reads ({@link LeaseReads}). */
    public static final String LEASE = "Lease";
    private static final int MAX_PROBLEM = 200;

    private final Map<String, String> failing = new LinkedHashMap<>();
    private final Supplier<String> meanwhile;
    private String lastProblem;

    /** Says nothing of what the server does meanwhile. */
    public ApiConnection() {
        this(() -> "");
    }

    /** @param meanwhile what the server keeps doing during an outage, for the log line ("" for nothing) */
    public ApiConnection(Supplier<String> meanwhile) {
        this.meanwhile = meanwhile;
    }

    /** A call on {@code path} failed for want of the API server; it is retried with backoff. */
    public synchronized void failed(String path, String problem) {
        boolean wasUp = failing.isEmpty();
        failing.put(path, problem);
        lastProblem = path + ": " + problem;
        if (wasUp) {
            String also = meanwhile.get();
            LOG.warn("cannot reach the API server ({}); retrying with backoff{}", lastProblem,
                    also.isEmpty() ? "" : ", " + also);
        }
    }

    /** {@code path} works again. */
    public synchronized void ok(String path) {
        if (failing.remove(path) != null && failing.isEmpty()) {
            LOG.info("the API server answers again; watching and renewing again (last problem: {})", lastProblem);
        }
    }

    public synchronized boolean down() {
        return !failing.isEmpty();
    }

    @Override
    public void answered() {
        ok(LEASE);
    }

    @Override
    public void unreachable(Throwable problem) {
        failed(LEASE, firstLine(problem));
    }

    /** A failure that means "no API server" (no answer at all, or a 5xx) rather than "it said no". */
    public static boolean isOutage(KubernetesClientException e) {
        if (e.getCode() >= 500) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.io.IOException) {
                return true; // refused, reset, timed out: fabric8 reports these without an HTTP code
            }
        }
        return false;
    }

    /** Whether the API server answered 404: it does not serve the kind (or the object is gone). */
    public static boolean notFound(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof KubernetesClientException k && k.getCode() == 404) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first line of the innermost cause, at most 200 characters: enough to tell a refused connection from a
     * timeout, never a stack trace or fabric8's dump of a whole Status.
     */
    public static String firstLine(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof KubernetesClientException k && k.getCode() > 0) {
                String message = k.getStatus() == null || k.getStatus().getMessage() == null ? ""
                        : " " + k.getStatus().getMessage().lines().findFirst().orElse("");
                return cut("HTTP " + k.getCode() + message);
            }
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() == null || root.getMessage().isBlank() ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        return cut(m.lines().findFirst().orElse(m));
    }

    private static String cut(String s) {
        return s.length() > MAX_PROBLEM ? s.substring(0, MAX_PROBLEM) + "..." : s;
    }
}
