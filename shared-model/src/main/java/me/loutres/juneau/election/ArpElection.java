package me.loutres.juneau.election;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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

    /**
     * The same election for many VIPs over one set of nodes, with each node's part of the hash computed once: use it
     * when one set of nodes elects for many VIPs (a fresh election after a restart, tools and benchmarks).
     */
    public static Electorate among(Collection<String> nodes) {
        return new Electorate(nodes);
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

    /**
     * Nodes prepared for many elections. FNV-1a's XOR with a byte changes only the low 8 bits of the state, and the low
     * 8 bits of a product depend only on the low 8 bits of its factors; so over a node's bytes, starting from any state
     * h, {@code fnv1a(h, node) = h * prime^len + D(node, h & 0xFF)}. With D tabulated for the 256 low bytes, a score
     * costs one multiplication, one addition and the finalizer instead of one multiplication per byte of the name.
     * The results are those of {@link ArpElection#elect(String, Collection, String)}, byte for byte.
     */
    public static final class Electorate {
        private static final int LOW_BYTES = 256;

        private final String[] names;
        private final Set<String> members;
        private final long[] primePowers;
        /** D(node j, low byte x) at {@code x * names.length + j}: one VIP reads one contiguous row. */
        private final long[] tails;

        private Electorate(Collection<String> nodes) {
            // sorted by name, so that a strictly higher score is the only reason to replace the best: ties keep the
            // smaller name, as elect does
            names = nodes == null ? new String[0]
                    : nodes.stream().filter(Objects::nonNull).distinct().sorted().toArray(String[]::new);
            members = new HashSet<>(Arrays.asList(names));
            int n = names.length;
            primePowers = new long[n];
            tails = new long[LOW_BYTES * n];
            long[] state = new long[LOW_BYTES];
            for (int j = 0; j < n; j++) {
                byte[] bytes = names[j].getBytes(StandardCharsets.UTF_8);
                for (int x = 0; x < LOW_BYTES; x++) {
                    state[x] = x;
                }
                long power = 1;
                // 256 independent chains per byte: the processor overlaps them
                for (byte b : bytes) {
                    int v = b & 0xFF;
                    for (int x = 0; x < LOW_BYTES; x++) {
                        state[x] = (state[x] ^ v) * FNV_PRIME;
                    }
                    power *= FNV_PRIME;
                }
                primePowers[j] = power;
                for (int x = 0; x < LOW_BYTES; x++) {
                    tails[x * n + j] = state[x] - x * power;
                }
            }
        }

        /** The node that answers ARP for the VIP, as {@link ArpElection#elect(String, Collection, String)}. */
        public Optional<String> elect(String vip, String current) {
            if (names.length == 0) {
                return Optional.empty();
            }
            if (current != null && members.contains(current)) {
                return Optional.of(current);
            }
            return Optional.of(names[fresh(hashVip(vip))]);
        }

        private int fresh(long vipHash) {
            int n = names.length;
            int row = ((int) vipHash & 0xFF) * n;
            int best = 0;
            // unsigned order as signed order of the scores with the top bit flipped
            long bestKey = fmix64(vipHash * primePowers[0] + tails[row]) ^ Long.MIN_VALUE;
            for (int j = 1; j < n; j++) {
                long key = fmix64(vipHash * primePowers[j] + tails[row + j]) ^ Long.MIN_VALUE;
                if (key > bestKey) {
                    best = j;
                    bestKey = key;
                }
            }
            return best;
        }
    }
}
