package me.loutres.juneau.agent.testing;

/** Retries an assertion until it holds or 15 s pass (what an asynchronous agent needs; not a timing claim). */
public final class Eventually {
    private Eventually() {
    }

    public static void eventually(Runnable assertion) {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (true) {
            try {
                assertion.run();
                return;
            } catch (AssertionError e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
