package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the agent reaches the API server, said in one log line when it stops and one when it answers again: an
 * outage is expected operation (the agent keeps answering ARP from memory), not a stack trace per retry. Each path
 * (the watch, the Lease) reports on its own, so one path that keeps failing while the other works is still one
 * outage, not a line a second.
 */
public final class ApiReachability {
    private static final Logger LOG = LoggerFactory.getLogger(ApiReachability.class);

    private final Map<String, String> failing = new LinkedHashMap<>();
    private final Supplier<String> meanwhile;
    private String lastProblem;

    /** @param meanwhile what the agent keeps doing during an outage, for the log line */
    public ApiReachability(Supplier<String> meanwhile) {
        this.meanwhile = meanwhile;
    }

    /** A call on {@code path} failed for want of the API server; it is retried with backoff. */
    public synchronized void failed(String path, String problem) {
        boolean wasUp = failing.isEmpty();
        failing.put(path, problem);
        lastProblem = path + ": " + problem;
        if (wasUp) {
            LOG.warn("cannot reach the API server ({}); retrying with backoff, {}", lastProblem, meanwhile.get());
        }
    }

    /** {@code path} works again. */
    public synchronized void ok(String path) {
        if (failing.remove(path) != null && failing.isEmpty()) {
            LOG.info("the API server answers again (last problem: {}); watching ARPAdvertisements and renewing the"
                    + " Lease", lastProblem);
        }
    }

    public synchronized boolean down() {
        return !failing.isEmpty();
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

    /** The first line of the innermost cause: enough to tell a refused connection from a timeout. */
    public static String firstLine(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof KubernetesClientException k && k.getCode() > 0) {
                // the API server answered: its code and message, not fabric8's dump of the whole Status
                String message = k.getStatus() == null || k.getStatus().getMessage() == null ? ""
                        : " " + k.getStatus().getMessage().lines().findFirst().orElse("");
                return "HTTP " + k.getCode() + message;
            }
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        return m.lines().findFirst().orElse(m);
    }
}
