package me.loutres.juneau.apiserver;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random (version 4) UUIDs for object uids and AdmissionReview uids, drawn from the thread's own generator: they
 * need to be unique, not unpredictable, and {@link UUID#randomUUID()} takes the shared SecureRandom's lock on every
 * write (a measurable share of a create's CPU in BENCHMARKS.md, "`up` keeping up, the API server's share").
 */
final class Uids {
    private Uids() {
    }

    static String next() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long msb = (r.nextLong() & ~0xF000L) | 0x4000L;                   // version 4
        long lsb = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
        return new UUID(msb, lsb).toString();
    }
}
