package me.loutres.juneau.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Baseline: the election as it was before docs/phases-and-conditions.md added the fmix64 finalizer — FNV-1a 64 over
 * UTF-8(vip) ‖ 0x00 ‖ UTF-8(node), highest unsigned score wins, ties to the smaller name. Kept here only to measure
 * the spread and the cost of the finalizer against it.
 */
final class FnvOnlyElection {
    private static final long OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private FnvOnlyElection() {
    }

    static String elect(String vip, List<String> nodes) {
        long vipHash = (fnv1a(OFFSET_BASIS, vip) ^ 0) * PRIME;
        String best = null;
        long bestScore = 0;
        for (String node : nodes) {
            long s = fnv1a(vipHash, node);
            int c = best == null ? 1 : Long.compareUnsigned(s, bestScore);
            if (c > 0 || (c == 0 && node.compareTo(best) < 0)) {
                best = node;
                bestScore = s;
            }
        }
        return best;
    }

    /** The same ASCII fast path as ArpElection's, so the two differ only by the finalizer. */
    private static long fnv1a(long hash, String text) {
        long h = hash;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                for (byte b : text.substring(i).getBytes(StandardCharsets.UTF_8)) {
                    h = (h ^ (b & 0xFF)) * PRIME;
                }
                return h;
            }
            h = (h ^ c) * PRIME;
        }
        return h;
    }
}
