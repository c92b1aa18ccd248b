package me.loutres.juneau.controller.testing;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * Holds back, on the client's side, the body of the reply to one chosen request until the test releases it: the
 * request has been served and its effect is visible to every watch, but the caller has not seen the answer yet.
 * That is how a watch event overtakes the HTTP reply of the write that caused it — a race a real cluster produces
 * now and then, made certain here. Installed as an interceptor of the controller's HTTP client.
 */
public final class HeldReplies implements Interceptor {
    private static final Duration MAX_HOLD = Duration.ofSeconds(20);

    private final ExecutorService deliverer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "held-replies");
        t.setDaemon(true);
        return t;
    });
    private final AtomicReference<Predicate<HttpRequest>> armed = new AtomicReference<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch held = new CountDownLatch(1);
    private final AtomicBoolean delivered = new AtomicBoolean();

    /** Holds the reply to the next request that matches (one only). */
    public void holdNext(Predicate<HttpRequest> which) {
        armed.set(which);
    }

    /** Waits until a reply is being held; false on timeout. */
    public boolean awaitHeld(Duration timeout) throws InterruptedException {
        return held.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Lets the held reply through. */
    public void release() {
        release.countDown();
    }

    /** The held reply has reached the caller. */
    public boolean delivered() {
        return delivered.get();
    }

    @Override
    public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> downstream,
            HttpRequest request) {
        Predicate<HttpRequest> which = armed.get();
        if (which == null || !which.test(request) || !armed.compareAndSet(which, null)) {
            return downstream;
        }
        // the body's chunks go on from another thread once released: the HTTP client's event loop keeps serving
        // every other connection (the watches among them) meanwhile; the next chunk is only asked for by downstream
        return (chunk, body) -> {
            held.countDown();
            deliverer.execute(() -> {
                try {
                    release.await(MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS);
                    downstream.consume(chunk, body);
                    delivered.set(true);
                } catch (Exception e) {
                    body.done().completeExceptionally(e);
                }
            });
        };
    }
}
