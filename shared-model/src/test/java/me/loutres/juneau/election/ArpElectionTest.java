package me.loutres.juneau.election;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ArpElectionTest {

    private static final List<String> FOUR = List.of("node-a", "node-b", "node-c", "node-d");

    static Stream<Arguments> specVectors() {
        return Stream.of(
                Arguments.of("10.0.0.1", FOUR, "node-a"),
                Arguments.of("192.0.2.13", FOUR, "node-b"),
                Arguments.of("192.0.2.12", FOUR, "node-c"),
                Arguments.of("10.0.0.2", List.of("node-a", "worker-2"), "worker-2"),
                Arguments.of("10.0.0.4", List.of("node-a", "worker-2"), "node-a"));
    }

    @ParameterizedTest(name = "docs/phases-and-conditions.md: ({0}, {1}) -> {2}")
    @MethodSource("specVectors")
    void specVectors(String vip, List<String> nodes, String expected) {
        assertThat(ArpElection.elect(vip, nodes, null)).contains(expected);
        assertThat(ArpElection.elect(vip, reversed(nodes), null)).contains(expected);
    }

    private static List<String> reversed(List<String> list) {
        List<String> copy = new ArrayList<>(list);
        Collections.reverse(copy);
        return copy;
    }

    @Test
    void specScoreVector() {
        assertThat(ArpElection.score("10.0.0.1", "node-a")).isEqualTo(0xf2e74bb14f730aecL);
    }

    /** fmix64(FNV-1a 64) computed independently with arbitrary-precision arithmetic modulo 2^64. */
    static long reference(String vip, String node) {
        BigInteger mod = BigInteger.ONE.shiftLeft(64);
        BigInteger h = new BigInteger("cbf29ce484222325", 16);
        BigInteger prime = new BigInteger("100000001b3", 16);
        byte[] v = vip.getBytes(StandardCharsets.UTF_8);
        byte[] n = node.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[v.length + 1 + n.length];
        System.arraycopy(v, 0, all, 0, v.length);
        System.arraycopy(n, 0, all, v.length + 1, n.length);
        for (byte b : all) {
            h = h.xor(BigInteger.valueOf(b & 0xFF)).multiply(prime).mod(mod);
        }
        h = h.xor(h.shiftRight(33)).multiply(new BigInteger("ff51afd7ed558ccd", 16)).mod(mod);
        h = h.xor(h.shiftRight(33)).multiply(new BigInteger("c4ceb9fe1a85ec53", 16)).mod(mod);
        h = h.xor(h.shiftRight(33));
        return h.longValue();
    }

    @ParameterizedTest(name = "score({0}, {1})")
    @CsvSource({
            "10.0.0.1, node-a",
            "192.0.2.13, node-b",
            "10.0.0.2, worker-2",
            "'', ''",
            "255.255.255.255, nœud-é",
    })
    void scoreIsFmix64OfFnv1a64OverVipZeroNode(String vip, String node) {
        assertThat(ArpElection.score(vip, node)).isEqualTo(reference(vip, node));
    }

    @Test
    void scoreOfTheEmptyPairIsTheFinalizerOfOneRoundOverTheSeparator() {
        // FNV-1a of the single byte 0x00: (offset basis ^ 0) * prime, then fmix64
        assertThat(ArpElection.score("", "")).isEqualTo(ArpElection.fmix64(0xcbf29ce484222325L * 0x100000001b3L));
    }

    @Test
    void comparesScoresAsUnsigned() {
        // find a two-node vote where a signed comparison would pick the other node
        String vip = null;
        List<String> pair = List.of("node-a", "worker-2");
        for (int i = 0; i < 256 && vip == null; i++) {
            String candidate = "10.0.0." + i;
            long a = ArpElection.score(candidate, pair.get(0));
            long b = ArpElection.score(candidate, pair.get(1));
            if (Long.compareUnsigned(a, b) != Long.compare(a, b)) {
                vip = candidate;
            }
        }
        assertThat(vip).as("a vip whose scores differ in the sign bit").isNotNull();
        long a = ArpElection.score(vip, "node-a");
        long b = ArpElection.score(vip, "worker-2");
        String unsignedWinner = Long.compareUnsigned(a, b) > 0 ? "node-a" : "worker-2";
        String signedWinner = Long.compare(a, b) > 0 ? "node-a" : "worker-2";
        assertThat(unsignedWinner).isNotEqualTo(signedWinner);
        assertThat(ArpElection.elect(vip, pair, null)).contains(unsignedWinner);
    }

    @Test
    void tiesGoToTheLexicographicallySmallerNameInAnyOrder() {
        List<String> nodes = new ArrayList<>(List.of("node-c", "node-a", "node-b"));
        assertThat(ArpElection.elect("10.0.0.1", nodes, null, (v, n) -> 42L)).contains("node-a");
        assertThat(ArpElection.elect("10.0.0.1", reversed(nodes), null, (v, n) -> 42L)).contains("node-a");
        // a tie between the two highest only; node-a scores lower
        assertThat(ArpElection.elect("10.0.0.1", nodes, null, (v, n) -> n.equals("node-a") ? 1L : -1L))
                .contains("node-b");
    }

    @Test
    void stickyWhileTheCurrentNodeMayStillAnnounce() {
        assertThat(ArpElection.elect("10.0.0.1", FOUR, "node-c")).contains("node-c");
        assertThat(ArpElection.elect("10.0.0.1", FOUR, "gone")).contains("node-a");
        assertThat(ArpElection.elect("10.0.0.1", List.of("node-b"), "node-a")).contains("node-b");
    }

    @Test
    void noNodesMeansNobody() {
        assertThat(ArpElection.elect("10.0.0.1", List.of(), "node-a")).isEqualTo(Optional.empty());
        assertThat(ArpElection.elect("10.0.0.1", null, null)).isEmpty();
    }
}
