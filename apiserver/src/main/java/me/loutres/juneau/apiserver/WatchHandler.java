package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.FutureCallback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.common.WebSocketSession;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.OpCode;
import org.eclipse.jetty.websocket.server.ServerWebSocketContainer;

/**
 * Serves a watch as kube-apiserver does: one JSON event per line of a chunked HTTP response on the request's thread,
 * or, asked with {@code Upgrade: websocket}, one event per text message on a thread of its own.
 */
final class WatchHandler {
    private static final long DEFAULT_TIMEOUT_SECONDS = 1800;

    private final Store store;
    private final BooleanSupplier serverClosing;
    private final Freeze freeze;

    WatchHandler(Store store, BooleanSupplier serverClosing, Freeze freeze) {
        this.store = store;
        this.serverClosing = serverClosing;
        this.freeze = freeze;
    }

    void watch(ApiCall call, ResourceType type, String namespace, String name, Response response, Callback callback)
            throws ApiException {
        WatchStream stream = new WatchStream(store, request(call, type, namespace, name), serverClosing, freeze);
        String upgrade = call.header(HttpHeader.UPGRADE);
        if (upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket")) {
            // kube-apiserver serves a watch over WebSocket when asked (one event per text message); fabric8's
            // client asks for that first and, refused, retries for seconds before it falls back to HTTP
            ServerWebSocketContainer container = ServerWebSocketContainer.get(call.request().getContext());
            if (container == null || !container.upgrade(
                    (rq, rs, cb) -> new WatchSocket(session -> serveOverWebSocket(stream, session)), call.request(),
                    response, callback)) {
                throw ApiException.badRequest("not a valid WebSocket upgrade request");
            }
            return;
        }
        serveOverHttp(stream, response, callback);
    }

    private static WatchStream.Request request(ApiCall call, ResourceType type, String namespace, String name)
            throws ApiException {
        ListQuery q = ListQuery.of(call, type, name);
        String rv = call.param("resourceVersion");
        boolean initialEvents = "true".equals(call.param("sendInitialEvents"));
        Long from = null;
        if (!initialEvents && rv != null && !rv.isEmpty() && !rv.equals("0")) {
            try {
                from = Long.parseLong(rv);
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("resourceVersion: Invalid value: \"" + rv + "\": must be an integer");
            }
        }
        long timeout = DEFAULT_TIMEOUT_SECONDS;
        if (call.param("timeoutSeconds") != null) {
            try {
                timeout = Long.parseLong(call.param("timeoutSeconds"));
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("timeoutSeconds: must be an integer");
            }
        }
        return new WatchStream.Request(type, namespace, q.filter(), from, initialEvents,
                "true".equals(call.param("allowWatchBookmarks")), call.accepts("as=Table"),
                System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout));
    }

    private static void serveOverHttp(WatchStream stream, Response response, Callback callback) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, ApiCall.JSON);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, private");
        // buffered: Jetty's sink stream writes (a chunk and a TLS record) per call; events go out on flush
        try (OutputStream out = new BufferedOutputStream(Content.Sink.asOutputStream(response), 64 * 1024)) {
            stream.run(new WatchStream.Sink() {
                @Override
                public void event(String kind, JsonNode object) throws IOException {
                    out.write(Json.MAPPER.writeValueAsBytes(WatchStream.event(kind, object)));
                    out.write('\n');
                }

                @Override
                public void item(String kind, Store.Encoded object) throws IOException {
                    // the same line as event(), built once for all streams
                    out.write(object.event(kind));
                    out.write('\n');
                }

                @Override
                public void flush() throws IOException {
                    out.flush();
                }

                @Override
                public boolean open() {
                    return true;
                }
            });
        } catch (IOException e) {
            // the client went away: nothing to answer
        } finally {
            callback.succeeded();
        }
    }

    /** A watch served over WebSocket: its own thread drains the stream into text messages, one event each. */
    private static void serveOverWebSocket(WatchStream stream, Session session) {
        Thread t = new Thread(() -> {
            try {
                stream.run(session instanceof WebSocketSession ws ? new FrameSink(ws.getCoreSession())
                        : new WebSocketSink(session));
            } catch (IOException e) {
                // the client went away
            } finally {
                if (session.isOpen()) {
                    session.close(1000, "watch ended", org.eclipse.jetty.websocket.api.Callback.NOOP);
                }
            }
        }, "local-apiserver-ws-watch");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Each event a whole text message, as {@link WebSocketSink} sends it, but written from the event's shared UTF-8
     * bytes (no String per stream to decode and encode again) and batched: the messages a drain sends go out together
     * on {@link #flush()} (one TLS record and one write for several events, not one each). A peer that takes none for
     * 30 s ends the watch.
     */
    private static final class FrameSink implements WatchStream.Sink {
        private final CoreSession session;
        private final java.util.List<FutureCallback> pending = new java.util.ArrayList<>();

        FrameSink(CoreSession session) {
            this.session = session;
        }

        @Override
        public void event(String kind, JsonNode object) throws IOException {
            send(Json.MAPPER.writeValueAsBytes(WatchStream.event(kind, object)));
        }

        @Override
        public void item(String kind, Store.Encoded object) throws IOException {
            send(object.event(kind));
        }

        private void send(byte[] message) {
            FutureCallback sent = new FutureCallback();
            pending.add(sent);
            session.sendFrame(new Frame(OpCode.TEXT, ByteBuffer.wrap(message)), sent, true);
        }

        @Override
        public void flush() throws IOException {
            FutureCallback flushed = new FutureCallback();
            session.flush(flushed);
            pending.add(flushed);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            try {
                for (FutureCallback f : pending) {
                    f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", ex);
            } catch (Exception ex) {
                throw new IOException("the WebSocket peer does not take the events", ex);
            } finally {
                pending.clear();
            }
        }

        @Override
        public boolean open() {
            return session.isOutputOpen();
        }
    }

    /** Each event a whole text message, sent before the next (a peer that takes none for 30 s ends the watch). */
    private record WebSocketSink(Session session) implements WatchStream.Sink {
        @Override
        public void event(String kind, JsonNode object) throws IOException {
            send(Json.MAPPER.writeValueAsString(WatchStream.event(kind, object)));
        }

        @Override
        public void item(String kind, Store.Encoded object) throws IOException {
            // the same message as event(), the object's JSON shared by all streams
            send(new String(object.event(kind), StandardCharsets.UTF_8));
        }

        private void send(String message) throws IOException {
            var sent = new org.eclipse.jetty.websocket.api.Callback.Completable();
            session.sendText(message, sent);
            try {
                sent.get(30, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", ex);
            } catch (Exception ex) {
                throw new IOException("the WebSocket peer does not take the event", ex);
            }
        }

        @Override
        public void flush() {
            // every message is sent whole
        }

        @Override
        public boolean open() {
            return session.isOpen();
        }
    }
}
