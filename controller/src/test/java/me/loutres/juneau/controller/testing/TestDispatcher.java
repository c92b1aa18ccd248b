package me.loutres.juneau.controller.testing;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The mock API server's CRUD dispatcher, plus: every request of the controller's client is recorded (for the
 * RBAC check), and the next N writes matching a predicate can be answered 409 Conflict (as a real API server
 * does when the object changed since it was read).
 */
public final class TestDispatcher extends KubernetesCrudDispatcher {
    /** One request: method, path with query, and who sent it. */
    public record Request(String method, String path, String userAgent) {
    }

    private final Queue<Request> requests = new ConcurrentLinkedQueue<>();
    private final boolean record;
    private final IndexedStore index;

    /** The stock mock store, every request recorded: what the tests use. */
    public TestDispatcher() {
        this(true, false);
    }

    /**
     * @param record  keep every request (the RBAC test needs them; a load benchmark does not)
     * @param indexed look single objects up by name instead of scanning the store (load benchmarks only)
     */
    public TestDispatcher(boolean record, boolean indexed) {
        this.record = record;
        this.index = indexed ? IndexedStore.install(this) : null;
    }

    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        String id = index == null || query.getAttribute("name") == null ? null : IndexedStore.identity(query);
        if (id == null) {
            return super.findResource(query);
        }
        AttributeSet key = index.lookup(id);
        if (key == null) {
            return null;
        }
        String value = getMap().get(key);
        return value != null && key.matches(query) ? Map.entry(key, value) : super.findResource(query);
    }
    private volatile Predicate<RecordedRequest> conflictWhen = r -> false;
    private final AtomicInteger conflictsLeft = new AtomicInteger();
    private final AtomicInteger conflictsSent = new AtomicInteger();

    private volatile long lastWriteNanos = System.nanoTime();
    private volatile boolean leaseWritesLost;
    private volatile Predicate<RecordedRequest> denyWhen = r -> false;
    private volatile String denyMessage = "";
    private final AtomicInteger denialsSent = new AtomicInteger();

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        boolean lease = request.getPath().contains("/leases");
        if (isWrite(request) && !lease) {
            lastWriteNanos = System.nanoTime();
        }
        if (lease && leaseWritesLost && isWrite(request)) {
            return new MockResponse().setResponseCode(503).setHeader("Content-Type", "application/json")
                    .setBody("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":503,"
                            + "\"reason\":\"ServiceUnavailable\",\"message\":\"simulated: the write never arrived\"}");
        }
        if (isWrite(request) && denyWhen.test(request)) {
            denialsSent.incrementAndGet();
            return new MockResponse().setResponseCode(403).setHeader("Content-Type", "application/json")
                    .setBody("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":403,"
                            + "\"reason\":\"Forbidden\",\"message\":" + quoted(denyMessage) + "}");
        }
        if (record) {
            requests.add(new Request(request.getMethod(), request.getPath(), request.getHeader("User-Agent")));
        }
        if (isWrite(request) && conflictWhen.test(request) && conflictsLeft.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
            conflictsSent.incrementAndGet();
            return new MockResponse().setResponseCode(409).setHeader("Content-Type", "application/json")
                    .setBody("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":409,"
                            + "\"reason\":\"Conflict\",\"message\":\"Operation cannot be fulfilled: the object has"
                            + " been modified; please apply your changes to the latest version and try again\"}");
        }
        return super.dispatch(request);
    }

    /** Answers the next {@code n} writes (POST, PUT, PATCH, DELETE) that match with 409. */
    public void conflictNext(int n, Predicate<RecordedRequest> when) {
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
    public void denyWrites(Predicate<RecordedRequest> when, String message) {
        denyMessage = message;
        denyWhen = when;
    }

    public void allowWrites() {
        denyWhen = r -> false;
    }

    public int denialsSent() {
        return denialsSent.get();
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
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

    private static boolean isWrite(RecordedRequest r) {
        String m = r.getMethod();
        return "POST".equals(m) || "PUT".equals(m) || "PATCH".equals(m) || "DELETE".equals(m);
    }
}
