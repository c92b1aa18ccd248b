package me.loutres.juneau.runtime;

/**
 * Hears how the Lease reads of the leader election go. Every replica reads its Lease once per retry period (the
 * leader to renew it, a standby to try to take it), so these reads notice an unreachable API server even when
 * nothing else asks it anything: a client's watches reconnect silently and say nothing while they fail.
 */
public interface LeaseReads {
    LeaseReads NONE = new LeaseReads() {
        @Override
        public void answered() {
        }

        @Override
        public void unreachable(Throwable problem) {
        }
    };

    /** The API server answered (any HTTP status). */
    void answered();

    /** No answer: the connection failed or the server is unavailable (5xx). */
    void unreachable(Throwable problem);
}
