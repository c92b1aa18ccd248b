package me.loutres.juneau.cli.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import me.loutres.juneau.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class PlanGoldenTest {
    static final Path GOLDEN = Path.of("src/test/resources/plan/golden");

    static Stream<Arguments> runs() {
        return Stream.of(
                Arguments.of("spec-example", new String[] {"plan", "--vips", "10", "--vips-per-node", "5", "--tolerate-failures", "1"}),
                Arguments.of("no-failures", new String[] {"plan", "--vips", "7", "--vips-per-node", "3"}),
                Arguments.of("capacity", new String[] {"plan", "-f", "src/test/resources/corpus/cluster-state.yaml"}),
                Arguments.of("capacity-from-manifests", new String[] {"plan", "-f", "src/test/resources/corpus/cases/01-good-stack",
                        "-f", "src/test/resources/corpus/cluster-state.yaml"}),
                Arguments.of("zero-vips", new String[] {"plan", "--vips", "0", "--vips-per-node", "5"}),
                Arguments.of("negative-failures", new String[] {"plan", "--vips", "10", "--vips-per-node", "5", "--tolerate-failures", "-1"}),
                Arguments.of("missing-per-node", new String[] {"plan", "--vips", "10"}),
                Arguments.of("both-modes", new String[] {"plan", "--vips", "10", "--vips-per-node", "5", "-f", "x.yaml"}),
                Arguments.of("nothing", new String[] {"plan"}),
                Arguments.of("no-pools", new String[] {"plan", "-f", "src/test/resources/corpus/cases/12-hand-edits"}),
                Arguments.of("bad-yaml", new String[] {"plan", "-f", "src/test/resources/corpus/cases/19-bad-yaml"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void transcript(String name, String[] args) throws IOException {
        CommandRun.of(args).matchesGolden(GOLDEN.resolve(name + ".txt"));
    }

    @ParameterizedTest(name = "{0} VIPs, {1} per node, {2} failures -> {3} pools, {4} nodes")
    @CsvSource({"10,5,1,2,4", "1,1,0,1,1", "11,5,0,3,3", "100,30,2,4,12", "5,10,3,1,4"})
    void sizing(long vips, long perNode, long failures, long pools, long nodes) {
        Sizing s = Sizing.of(vips, perNode, failures);
        assertThat(s.pools()).isEqualTo(pools);
        assertThat(s.nodes()).isEqualTo(nodes);
    }

    @Test
    void absurdNumbersAreRefusedNotOverflowed() {
        CommandRun run = CommandRun.of("plan", "--vips", "9223372036854775807", "--vips-per-node", "1",
                "--tolerate-failures", "9223372036854775807");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("more nodes than can be counted");
        assertThat(CommandRun.of("plan", "--vips", "ten", "--vips-per-node", "5").exit()).isEqualTo(2);
    }
}
