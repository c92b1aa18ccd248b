package me.loutres.juneau.runtime;

import me.loutres.juneau.testing.Eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkQueueTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    @Test
    void aKeyAddedTwiceWhileWaitingIsHandedOutOnce() throws Exception {
        try (WorkQueue<String> q = new WorkQueue<>("t")) {
            q.add("a");
            q.add("b");
            q.add("a");
            assertThat(q.depth()).isEqualTo(2);
            assertThat(q.take(WAIT)).isEqualTo("a");
            assertThat(q.take(WAIT)).isEqualTo("b");
            assertThat(q.take(Duration.ofMillis(10))).isNull();
        }
    }

    @Test
    void aKeyAddedWhileProcessingIsNotHandedToAnotherWorkerButRunsOnceMoreAfterDone() throws Exception {
        try (WorkQueue<String> q = new WorkQueue<>("t")) {
            q.add("a");
            String first = q.take(WAIT);
            q.add("a");
            q.add("a");
            assertThat(q.take(Duration.ofMillis(20))).as("not while processing").isNull();
            q.done(first);
            assertThat(q.take(WAIT)).as("once more afterwards").isEqualTo("a");
            q.done("a");
            assertThat(q.take(Duration.ofMillis(20))).isNull();
            assertThat(q.pending()).isZero();
        }
    }

    @Test
    void manyWorkersNeverProcessOneKeyConcurrentlyAndLoseNoAdd() throws Exception {
        int workers = 4;
        int keys = 20;
        int addsPerKey = 200;
        Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        List<String> overlaps = Collections.synchronizedList(new ArrayList<>());
        Map<String, AtomicInteger> lastSeenAdd = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> added = new ConcurrentHashMap<>();
        try (WorkQueue<String> q = new WorkQueue<>("t")) {
            CountDownLatch stop = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                Thread t = new Thread(() -> {
                    while (stop.getCount() > 0) {
                        try {
                            String k = q.take(Duration.ofMillis(20));
                            if (k == null) {
                                continue;
                            }
                            if (inFlight.computeIfAbsent(k, x -> new AtomicInteger()).incrementAndGet() > 1) {
                                overlaps.add(k);
                            }
                            // processing sees everything added before it started
                            lastSeenAdd.computeIfAbsent(k, x -> new AtomicInteger())
                                    .set(added.computeIfAbsent(k, x -> new AtomicInteger()).get());
                            Thread.onSpinWait();
                            inFlight.get(k).decrementAndGet();
                            q.done(k);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                t.start();
                threads.add(t);
            }
            for (int i = 0; i < addsPerKey; i++) {
                for (int k = 0; k < keys; k++) {
                    String key = "k" + k;
                    added.computeIfAbsent(key, x -> new AtomicInteger()).incrementAndGet();
                    q.add(key);
                }
            }
            Eventually.until("queue drained", () -> q.pending() == 0);
            stop.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
        assertThat(overlaps).isEmpty();
        for (int k = 0; k < keys; k++) {
            assertThat(lastSeenAdd.get("k" + k).get()).as("the last add of k%d was processed", k)
                    .isEqualTo(addsPerKey);
        }
    }

    @Test
    void aDelayedAddArrivesAfterItsDelayAndCoalescesWithAWaitingKey() throws Exception {
        try (WorkQueue<String> q = new WorkQueue<>("t")) {
            q.addAfter("later", Duration.ofMillis(50));
            assertThat(q.take(Duration.ofMillis(1))).isNull();
            assertThat(q.pending()).isEqualTo(1);
            assertThat(q.take(WAIT)).isEqualTo("later");
            q.done("later");

            q.add("x");
            q.addAfter("x", Duration.ofMillis(1));
            Eventually.until("the timer fired", () -> q.pending() == 1 && q.depth() == 1);
            assertThat(q.take(WAIT)).isEqualTo("x");
        }
    }

    @Test
    void clearDropsWaitingAndDelayedKeysAndCloseWakesWorkers() throws Exception {
        WorkQueue<String> q = new WorkQueue<>("t");
        q.add("a");
        q.addAfter("b", Duration.ofHours(1));
        q.clear();
        assertThat(q.pending()).isZero();
        Thread t = new Thread(() -> {
            try {
                assertThat(q.take(Duration.ofMinutes(1))).isNull();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        q.close();
        t.join(WAIT.toMillis());
        assertThat(t.isAlive()).isFalse();
        q.add("c");
        assertThat(q.pending()).isZero();
    }
}
