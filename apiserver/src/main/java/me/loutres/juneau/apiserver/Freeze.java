package me.loutres.juneau.apiserver;

/**
 * The API server stopped as by {@code SIGSTOP} (tests of what clients do when kube-apiserver freezes): while frozen,
 * every request waits before it is served and every watch delivers nothing; connections stay open. Thawed, the
 * waiting requests are served and the events queued meanwhile are delivered, in order, as a resumed process would.
 */
final class Freeze {
    private boolean frozen;

    synchronized AutoCloseable begin() {
        frozen = true;
        return this::thaw;
    }

    private synchronized void thaw() {
        frozen = false;
        notifyAll();
    }

    /** Returns at once unless frozen; otherwise when thawed. */
    synchronized void await() throws InterruptedException {
        while (frozen) {
            wait();
        }
    }
}
