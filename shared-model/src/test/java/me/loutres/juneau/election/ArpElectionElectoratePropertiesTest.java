package me.loutres.juneau.election;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The prepared election ({@link ArpElection#among}) against a straightforward one, over random input. */
class ArpElectionElectoratePropertiesTest {

    /** Names of any characters (non-ASCII ones take the UTF-8 path), some repeated, some null. */
    @Provide
    Arbitrary<List<String>> anyNodes() {
        Arbitrary<String> name = Arbitraries.oneOf(
                Arbitraries.strings().withCharRange('a', 'z').withChars('-', '.', '0', '7').ofMaxLength(30),
                Arbitraries.strings().ofMaxLength(12));
        return name.injectNull(0.05).injectDuplicates(0.1).list().ofMaxSize(40);
    }

    @Provide
    Arbitrary<String> anyVips() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(0, 255).list().ofSize(4)
                        .map(o -> o.get(0) + "." + o.get(1) + "." + o.get(2) + "." + o.get(3)),
                Arbitraries.strings().ofMaxLength(20));
    }

    /**
     * Every node scored by the arbitrary-precision reference of the documented score (docs/phases-and-conditions.md),
     * the unsigned highest wins, ties to the smaller name; sticky while the current node is among them.
     */
    static Optional<String> straightforward(String vip, List<String> nodes, String current) {
        if (current != null && nodes.contains(current)) {
            return Optional.of(current);
        }
        String best = null;
        long bestScore = 0;
        for (String node : nodes) {
            if (node == null) {
                continue;
            }
            long s = ArpElectionTest.reference(vip, node);
            int c = best == null ? 1 : Long.compareUnsigned(s, bestScore);
            if (c > 0 || (c == 0 && node.compareTo(best) < 0)) {
                best = node;
                bestScore = s;
            }
        }
        return Optional.ofNullable(best);
    }

    @Property(tries = 400)
    void preparedElectionIsTheStraightforwardOne(@ForAll("anyVips") String vip, @ForAll("anyNodes") List<String> nodes) {
        ArpElection.Electorate electorate = ArpElection.among(nodes);
        Optional<String> expected = straightforward(vip, nodes, null);
        assertThat(electorate.elect(vip, null)).isEqualTo(expected);
        assertThat(ArpElection.elect(vip, nodes, null)).isEqualTo(expected);
    }

    @Property(tries = 200)
    void stickyAsTheStraightforwardOne(@ForAll("anyVips") String vip, @ForAll("anyNodes") List<String> nodes,
            @ForAll @IntRange(min = 0, max = 50) int pick, @ForAll("anyVips") String stranger) {
        ArpElection.Electorate electorate = ArpElection.among(nodes);
        // a member (or null when the pick falls on a null entry), and most likely a non-member
        String member = nodes.isEmpty() ? null : nodes.get(pick % nodes.size());
        assertThat(electorate.elect(vip, member)).isEqualTo(straightforward(vip, nodes, member));
        assertThat(electorate.elect(vip, stranger)).isEqualTo(straightforward(vip, nodes, stranger));
    }

    /** One electorate serves many VIPs, each with another low byte of its hash (another row of the table). */
    @Property(tries = 20)
    void oneElectorateForManyVips(@ForAll("anyNodes") List<String> nodes,
            @ForAll @IntRange(min = 0, max = 1 << 20) int offset) {
        ArpElection.Electorate electorate = ArpElection.among(nodes);
        List<String> vips = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int v = offset + i;
            vips.add("10." + (v >> 16 & 0xFF) + "." + (v >> 8 & 0xFF) + "." + (v & 0xFF));
        }
        for (String vip : vips) {
            assertThat(electorate.elect(vip, null)).as(vip).isEqualTo(ArpElection.elect(vip, nodes, null));
        }
    }

    @Property(tries = 1)
    void specVectorsThroughTheElectorate() {
        ArpElectionTest.specVectors().forEach(args -> {
            Object[] a = args.get();
            @SuppressWarnings("unchecked")
            List<String> nodes = (List<String>) a[1];
            assertThat(ArpElection.among(nodes).elect((String) a[0], null)).contains((String) a[2]);
        });
    }

    @Property(tries = 1)
    void nobodyWithoutNodes() {
        assertThat(ArpElection.among(List.of()).elect("10.0.0.1", "node-a")).isEmpty();
        assertThat(ArpElection.among(null).elect("10.0.0.1", null)).isEmpty();
        List<String> onlyNull = new ArrayList<>();
        onlyNull.add(null);
        assertThat(ArpElection.among(onlyNull).elect("10.0.0.1", null)).isEmpty();
    }
}
