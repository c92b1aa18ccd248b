package me.loutres.juneau.election;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Optional;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;

/**
 * Chooses the single node that answers ARP for a VIP (docs/phases-and-conditions.md): sticky, otherwise rendezvous hashing.
 */
public final class ArpElection {
    static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    static final long FNV_PRIME = 0x100000001b3L;

    private ArpElection() {
    }

    /**
     * @param vip     the VIP in dotted form
     * @param nodes   nodes that may announce it (nodes with a local ready backend)
     * @param current the node named by the existing ARPAdvertisement, or null
     * @return the elected node, empty when there is none
     */
    public static Optional<String> elect(String vip, Collection<String> nodes, String current) {
        // the vip part of the hash is the same for every node: compute it once per election
        long vipHash = hashVip(vip);
        return elect(nodes, current, node -> fmix64(fnv1a(vipHash, node)));
    }

    /** {@link #elect} with the score as a parameter, so tests can force ties. */
    static Optional<String> elect(String vip, Collection<String> nodes, String current,
            ToLongBiFunction<String, String> scoring) {
        return elect(nodes, current, node -> scoring.applyAsLong(vip, node));
    }

    private static Optional<String> elect(Collection<String> nodes, String current, ToLongFunction<String> scoring) {
        if (nodes == null || nodes.isEmpty()) {
            return Optional.empty();
        }
        // every move costs a gratuitous-ARP round, and on routers that ignore it a neighbour-cache timeout: keep the
        // holder (docs/phases-and-conditions.md: lifting an exclusion moves nothing back either)
        if (current != null && nodes.contains(current)) {
            return Optional.of(current);
        }
        String best = null;
        long bestScore = 0;
        for (String node : nodes) {
            if (node == null) {
                continue;
            }
            long s = scoring.applyAsLong(node);
            if (best == null) {
                best = node;
                bestScore = s;
                continue;
            }
            int c = Long.compareUnsigned(s, bestScore);
            if (c > 0 || (c == 0 && node.compareTo(best) < 0)) {
                best = node;
                bestScore = s;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * fmix64(FNV-1a 64-bit over UTF-8(vip) ‖ 0x00 ‖ UTF-8(node)); compare the result as unsigned. FNV-1a alone mixes
     * its last bytes weakly, so names that differ only in their last characters (node-000…node-099) get scores
     * within a few multiples of the prime of each other and a handful of them take most VIPs; the finalizer spreads
     * every input bit over the whole word.
     */
    public static long score(String vip, String node) {
        return fmix64(fnv1a(hashVip(vip), node));
    }

    /** MurmurHash3's 64-bit finalizer. */
    static long fmix64(long k) {
        long h = k;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** FNV-1a state after UTF-8(vip) ‖ 0x00. */
    static long hashVip(String vip) {
        return fnv1a(FNV_OFFSET_BASIS, vip) * FNV_PRIME; // (h ^ 0x00) * prime
    }

    /** Continues FNV-1a with UTF-8(text), without encoding ASCII text (node names and VIPs) into a new array. */
    static long fnv1a(long hash, String text) {
        long h = hash;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                // the chars before i are ASCII, so i starts a code point: encode only the rest
                for (byte b : text.substring(i).getBytes(StandardCharsets.UTF_8)) {
                    h = (h ^ (b & 0xFF)) * FNV_PRIME;
                }
                return h;
            }
            h = (h ^ c) * FNV_PRIME;
        }
        return h;
    }
}
