package me.loutres.juneau.runtime.watch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The monitor's looks at the watches, driven look by look (no timer), as the one connection report sees them. */
class WatchedCacheTest {
    private final ApiConnection connection = new ApiConnection();
    private final WatchedCache cache = new WatchedCache("test cache", connection, WatchedCache.Policy.DEFAULT);

    private void checks(int n, boolean synced, boolean watching) {
        for (int i = 0; i < n; i++) {
            cache.check(synced, watching);
        }
    }

    @Test
    void aSyncedCacheWhoseWatchesAreStillOpeningIsNotCalledLost() {
        cache.check(true, false);
        checks(10, true, false); // the watches not open yet after the lists: a busy machine, not an outage
        assertThat(connection.down()).isFalse();
    }

    @Test
    void aWatchThatNeverOpensAfterTheSyncIsLostAfterFortyLooks() {
        cache.check(true, false);
        checks(WatchedCache.FIRST_WATCH_CHECKS - 1, true, false);
        assertThat(connection.down()).isFalse();
        cache.check(true, false);
        assertThat(connection.down()).isTrue();
        cache.check(true, true);
        assertThat(connection.down()).isFalse();
    }

    @Test
    void aWatchSeenOnceAndThenGoneForFourLooksIsLost() {
        cache.check(true, true);
        checks(WatchedCache.LOST_AFTER_CHECKS - 1, true, false);
        assertThat(connection.down()).isFalse();
        cache.check(true, false);
        assertThat(connection.down()).isTrue();
        checks(20, true, false);
        cache.check(true, true);
        assertThat(connection.down()).isFalse();
    }

    @Test
    void aFailureBeforeTheSyncIsAnOutageAndTheSyncEndsIt() {
        connection.failed("test cache", "listing/watching Node: ConnectException: Connection refused");
        checks(3, false, false);
        assertThat(connection.down()).isTrue();
        cache.check(true, true);
        assertThat(connection.down()).isFalse();
    }

    @Test
    void whereAnotherPathTellsOfOutagesTheWatchesOnlyEndThem() {
        WatchedCache quiet = new WatchedCache("controller caches", connection,
                WatchedCache.Policy.DEFAULT.outagesFromOtherPaths());
        quiet.check(true, true);
        for (int i = 0; i < 100; i++) {
            quiet.check(true, false);
        }
        assertThat(connection.down()).as("a watch reconnecting is no outage by itself").isFalse();
        connection.failed("controller caches", "listing/watching Service: ConnectException: Connection refused");
        connection.answered();
        quiet.check(true, false);
        assertThat(connection.down()).as("back only once every watch is open again").isTrue();
        quiet.check(true, true);
        assertThat(connection.down()).isFalse();
    }
}
