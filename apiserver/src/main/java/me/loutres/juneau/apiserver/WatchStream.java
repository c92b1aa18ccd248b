package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * One watch: the store's queue for it, drained into a {@link Sink} until the timeout, the client or the server ends
 * it; initial events and bookmarks as kube-apiserver sends them.
 */
final class WatchStream {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final long BOOKMARK_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Where a watch's events go: lines of an HTTP stream, or messages of a WebSocket. */
    interface Sink {
        void event(String type, JsonNode object) throws IOException;

        /** A stored object's event (written once per event, whichever streams send it). */
        default void item(String type, Store.Encoded object) throws IOException {
            event(type, object.object());
        }

        void flush() throws IOException;

        boolean open();
    }

    /** What the watch request asked for. */
    record Request(ResourceType type, String namespace, Predicate<JsonNode> filter, Long from, boolean initialEvents,
            boolean bookmarks, boolean table, long deadlineNanos) {
    }

    private final Store store;
    private final Request rq;
    private final BooleanSupplier serverClosing;
    private final Freeze freeze;

    WatchStream(Store store, Request rq, BooleanSupplier serverClosing, Freeze freeze) {
        this.store = store;
        this.rq = rq;
        this.serverClosing = serverClosing;
        this.freeze = freeze;
    }

    void run(Sink sink) throws IOException {
        Store.Watch w;
        try {
            w = store.watch(rq.type(), rq.namespace(), rq.filter(), rq.from());
        } catch (ApiException e) {
            sink.event("ERROR", e.status());
            sink.flush();
            return;
        }
        try {
            sink.flush(); // commit the 200 and headers: the client's watch is open from here
            boolean first = !rq.initialEvents() || sendInitialEvents(sink, w);
            drain(sink, w, first);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            store.close(w);
        }
    }

    /**
     * sendInitialEvents: the current state, then a bookmark that marks its end. True when no object was sent (the
     * next one, in a Table, still carries the column definitions).
     */
    private boolean sendInitialEvents(Sink sink, Store.Watch w) throws IOException {
        boolean first = true;
        for (Store.WatchItem item = w.queue.poll(); item != null; item = w.queue.poll()) {
            send(sink, item, first);
            first = false;
        }
        ObjectNode bm = bookmark(rq.type(), store.revision());
        Json.obj(Json.meta(bm), "annotations").put("k8s.io/initial-events-end", "true");
        sink.event("BOOKMARK", bm);
        sink.flush();
        return first;
    }

    private void drain(Sink sink, Store.Watch w, boolean first) throws IOException, InterruptedException {
        long lastBookmark = System.nanoTime();
        while (!serverClosing.getAsBoolean() && sink.open() && System.nanoTime() < rq.deadlineNanos()) {
            freeze.await(); // frozen: the events wait in the queue, in order
            if (w.overflowed) {
                sink.event("ERROR", ApiException.gone("the watch fell too far behind; list again").status());
                sink.flush();
                return;
            }
            long published = store.revision();
            Store.WatchItem item = w.queue.poll(500, TimeUnit.MILLISECONDS);
            if (item != null) {
                send(sink, item, first);
                first = false;
                // drain what is queued without a flush per event
                for (int n = 0; n < 256 && (item = w.queue.poll()) != null; n++) {
                    send(sink, item, false);
                }
                sink.flush();
            } else if (rq.bookmarks() && System.nanoTime() - lastBookmark > BOOKMARK_EVERY_NANOS) {
                sink.event("BOOKMARK", bookmark(rq.type(), published));
                sink.flush();
                lastBookmark = System.nanoTime();
            }
        }
    }

    private void send(Sink sink, Store.WatchItem item, boolean withDefinitions) throws IOException {
        if (rq.table()) {
            sink.event(item.type(), TableConverter.toTable(rq.type(), List.of(item.object()), Json.rv(item.object()),
                    Instant.now(), withDefinitions));
        } else {
            sink.item(item.type(), item.encoded());
        }
    }

    /** One watch event as kube-apiserver writes it: {@code {"type": ..., "object": ...}}. */
    static ObjectNode event(String kind, JsonNode object) {
        ObjectNode e = F.objectNode();
        e.put("type", kind);
        e.set("object", object);
        return e;
    }

    private static ObjectNode bookmark(ResourceType type, long rv) {
        ObjectNode o = F.objectNode();
        o.put("kind", type.kind());
        o.put("apiVersion", type.groupVersion());
        o.putObject("metadata").put("resourceVersion", Long.toString(rv));
        return o;
    }
}
