package me.loutres.juneau.controller.testing;

import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import me.loutres.juneau.apiserver.ApiRequest;
import me.loutres.juneau.apiserver.RequestHook;

/**
 * Sees every request of the test API server: records them (for the RBAC check), and can answer chosen writes the
 * way a busy or strict cluster does — 409 Conflict (the object changed since it was read), 403 Forbidden (an
 * admission webhook refused), 503 for Lease writes (a crashed process's release never arrives).
 */
public final class TestDispatcher implements RequestHook {
    /** One request: method, path with query, who sent it, and when it arrived ({@link System#nanoTime}). */
    public record Request(String method, String path, String userAgent, long atNanos) {
        public boolean isWrite() {
            return !"GET".equals(method) && !"HEAD".equals(method);
        }
    }

    private final Queue<Request> requests = new ConcurrentLinkedQueue<>();
    private final boolean record;
    private volatile Predicate<ApiRequest> conflictWhen = r -> false;
    private final AtomicInteger conflictsLeft = new AtomicInteger();
    private final AtomicInteger conflictsSent = new AtomicInteger();
    private volatile long lastWriteNanos = System.nanoTime();
    private volatile boolean leaseWritesLost;
    private volatile Predicate<ApiRequest> denyWhen = r -> false;
    private volatile String denyMessage = "";
    private final AtomicInteger denialsSent = new AtomicInteger();
    private volatile String notServed;

    /** Every request recorded: what the tests use. */
    public TestDispatcher() {
        this(true);
    }

    /** @param record keep every request (the RBAC test needs them; a load benchmark does not) */
    public TestDispatcher(boolean record) {
        this.record = record;
    }

    @Override
    public Optional<Refusal> before(ApiRequest request) {
        if (record) {
            requests.add(new Request(request.method(), request.path(), request.userAgent(), System.nanoTime()));
        }
        boolean lease = request.path().contains("/leases");
        if (request.isWrite() && !lease) {
            lastWriteNanos = System.nanoTime();
        }
        String missing = notServed;
        if (missing != null && request.path().contains(missing)) {
            return Optional.of(new Refusal(404, "NotFound", "the server could not find the requested resource"));
        }
        if (lease && leaseWritesLost && request.isWrite()) {
            return Optional.of(new Refusal(503, "ServiceUnavailable", "simulated: the write never arrived"));
        }
        if (request.isWrite() && denyWhen.test(request)) {
            denialsSent.incrementAndGet();
            return Optional.of(new Refusal(403, "Forbidden", denyMessage));
        }
        if (request.isWrite() && conflictWhen.test(request)
                && conflictsLeft.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
            conflictsSent.incrementAndGet();
            return Optional.of(new Refusal(409, "Conflict", "Operation cannot be fulfilled: the object has been "
                    + "modified; please apply your changes to the latest version and try again"));
        }
        return Optional.empty();
    }

    /**
     * Answers every request whose path contains {@code pathPart} (e.g. {@code /servicecidrs}) with 404, as an API
     * server that does not serve the kind (ServiceCIDRs before Kubernetes 1.33).
     */
    public void notServed(String pathPart) {
        notServed = pathPart;
    }

    /** Answers the next {@code n} writes (POST, PUT, PATCH, DELETE) that match with 409. */
    public void conflictNext(int n, Predicate<ApiRequest> when) {
        conflictWhen = when;
        conflictsLeft.set(n);
    }

    public int conflictsSent() {
        return conflictsSent.get();
    }

    /**
     * Until {@link #allowWrites}, writes that match are refused with 403 and this message, as an admission webhook
     * refuses them.
     */
    public void denyWrites(Predicate<ApiRequest> when, String message) {
        denyMessage = message;
        denyWhen = when;
    }

    public void allowWrites() {
        denyWhen = r -> false;
    }

    public int denialsSent() {
        return denialsSent.get();
    }

    /** While true, every Lease write is lost (503): a process stopping now cannot release its Lease. */
    public void loseLeaseWrites(boolean lost) {
        leaseWritesLost = lost;
    }

    /** When the last write (anyone's, Lease renewals aside) arrived, on the {@link System#nanoTime} scale. */
    public long lastWriteNanos() {
        return lastWriteNanos;
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public void clearRequests() {
        requests.clear();
    }
}
