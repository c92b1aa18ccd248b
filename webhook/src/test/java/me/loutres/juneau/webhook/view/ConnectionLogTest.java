package me.loutres.juneau.webhook.view;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/** The cluster view's connection states, driven check by check (no timer). */
class ConnectionLogTest {
    private final ConnectionLog log = new ConnectionLog(NOPLogger.NOP_LOGGER);

    private void checks(int n, boolean synced, boolean watching) {
        for (int i = 0; i < n; i++) {
            log.check(synced, watching);
        }
    }

    @Test
    void aSyncedViewWhoseWatchesAreStillOpeningIsNotCalledLost() {
        log.check(true, false);
        assertThat(log.state()).isEqualTo(ConnectionLog.State.SYNCED);
        checks(10, true, false); // 2.5 s after the lists, the watches not open yet: a busy machine, not an outage
        assertThat(log.state()).isEqualTo(ConnectionLog.State.SYNCED);
    }

    @Test
    void aWatchThatNeverOpensAfterTheSyncIsLostAfterTenSeconds() {
        log.check(true, false);
        checks(39, true, false);
        assertThat(log.state()).isEqualTo(ConnectionLog.State.SYNCED);
        log.check(true, false);
        assertThat(log.state()).isEqualTo(ConnectionLog.State.LOST);
        log.check(true, true);
        assertThat(log.state()).isEqualTo(ConnectionLog.State.SYNCED);
    }

    @Test
    void aWatchSeenOnceAndThenGoneForOneSecondIsLost() {
        log.check(true, true);
        checks(3, true, false);
        assertThat(log.state()).isEqualTo(ConnectionLog.State.SYNCED);
        log.check(true, false);
        assertThat(log.state()).isEqualTo(ConnectionLog.State.LOST);
    }

    @Test
    void aFailureBeforeTheSyncIsUnreachableAndTheSyncEndsIt() {
        log.failed("AddressPool", new java.net.ConnectException("Connection refused"));
        assertThat(log.state()).isEqualTo(ConnectionLog.State.UNREACHABLE);
        log.check(true, true);
        assertThat(log.state()).isEqualTo(ConnectionLog.State.SYNCED);
    }
}
