package me.loutres.juneau.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * A de-duplicating work queue in the manner of client-go's: a key waits at most once; a key being processed is
 * never handed to a second worker; a key added while it is processed is handed out again once {@link #done} is
 * called. Delayed adds (backoff) wait in a timer until due, then join the queue like any add.
 *
 * <p>Handlers call {@link #add}; workers loop {@link #take} → work → {@link #done}.
 */
public final class WorkQueue<K> implements AutoCloseable {
    private final Object lock = new Object();
    private final ArrayDeque<K> ready = new ArrayDeque<>();
    /** Keys waiting to be processed (in {@code ready}, or processing and to be re-run). */
    private final Set<K> dirty = new HashSet<>();
    private final Set<K> processing = new HashSet<>();
    private final DelayQueue<Later<K>> later = new DelayQueue<>();
    private final Thread timer;
    private volatile boolean closed;

    public WorkQueue(String name) {
        timer = new Thread(this::runTimer, name + "-delays");
        timer.setDaemon(true);
        timer.start();
    }

    /** Queues the key unless it is already waiting; a key being processed is queued again after {@link #done}. */
    public void add(K key) {
        synchronized (lock) {
            if (closed || !dirty.add(key)) {
                return;
            }
            if (!processing.contains(key)) {
                ready.addLast(key);
                lock.notify();
            }
        }
    }

    /** Queues the key once the delay has passed (retries with backoff, coalesced status writes). */
    public void addAfter(K key, Duration delay) {
        if (closed) {
            return;
        }
        if (delay.isZero() || delay.isNegative()) {
            add(key);
            return;
        }
        later.add(new Later<>(key, System.nanoTime() + delay.toNanos()));
    }

    /**
     * Waits up to {@code timeout} for a key and marks it processing; null on timeout or when closed. The caller
     * must call {@link #done} with the key.
     */
    public K take(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (ready.isEmpty() && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            if (closed) {
                return null;
            }
            K key = ready.pollFirst();
            dirty.remove(key);
            processing.add(key);
            return key;
        }
    }

    /** Ends processing of the key; if it was added meanwhile, it goes back in the queue. */
    public void done(K key) {
        synchronized (lock) {
            processing.remove(key);
            if (dirty.contains(key) && !closed) {
                ready.addLast(key);
                lock.notify();
            }
        }
    }

    /** Keys waiting (not counting those in the backoff timer or being processed). */
    public int depth() {
        synchronized (lock) {
            return ready.size();
        }
    }

    /** Keys waiting, being processed or waiting for their retry delay: zero means nothing left to do. */
    public int pending() {
        synchronized (lock) {
            return dirty.size() + processing.size() + later.size();
        }
    }

    /** Drops every waiting key (leadership lost: the next term starts from a full resync). */
    public void clear() {
        synchronized (lock) {
            ready.clear();
            dirty.clear();
            later.clear();
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        timer.interrupt();
    }

    private void runTimer() {
        while (!closed) {
            try {
                add(later.take().key);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static final class Later<K> implements Delayed {
        final K key;
        final long dueNanos;

        Later(K key, long dueNanos) {
            this.key = key;
            this.dueNanos = dueNanos;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(dueNanos, ((Later<?>) o).dueNanos);
        }
    }
}
