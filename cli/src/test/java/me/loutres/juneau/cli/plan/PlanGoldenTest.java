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
                Arguments.of("capacity-dual-stack", new String[] {"plan", "-f", "../manifests/examples/dual-stack.yaml"}),
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
        CommandRun run = CommandRun.of("plan", "--vips", "4294967296", "--vips-per-node", "1",
                "--tolerate-failures", "9223372036854775807");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("more nodes than can be counted");
        assertThat(CommandRun.of("plan", "--vips", "ten", "--vips-per-node", "5").exit()).isEqualTo(2);
    }

    /** Each refusal is one line on stderr, exit 2, nothing on stdout, and it names the flag that is wrong. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--vips 0                                                  | error: --vips must be at least 1, got 0",
            "--vips-per-node 0                                         | error: --vips-per-node must be at least 1, got 0",
            "--vips 0 --vips-per-node 0                                | error: --vips must be at least 1, got 0",
            "--vips 5 --vips-per-node -3                               | error: --vips-per-node must be at least 1, got -3",
            "--vips 4294967297 --vips-per-node 1                       | error: --vips must be at most 4294967296 (the IPv4 address space), got 4294967297",
            "--vips 9223372036854775807 --vips-per-node 2              | error: --vips must be at most 4294967296",
            "--vips 10 --vips-per-node 9223372036854775807             | error: --vips-per-node must be at most 4294967296",
            "--vips 10 --tolerate-failures -1                          | error: --tolerate-failures must be 0 or more, got -1",
            "--vips 99999999999999999999 --vips-per-node 1             | error: Invalid value for option '--vips'",
            "--vips 10 --vips-per-node 5 --tolerate-failures 1e3       | error: Invalid value for option '--tolerate-failures'"})
    void everyNumberIsChecked(String args, String error) {
        CommandRun run = CommandRun.of(("plan " + args.strip()).split("\\s+"));
        assertThat(run.exit()).as(run.transcript()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).as(run.err()).hasSize(1);
        assertThat(run.err()).startsWith(error.strip());
    }

    @ParameterizedTest(name = "{0} VIPs, {1} per node -> {2} pools")
    @CsvSource({"4294967296,1,4294967296", "4294967296,4294967296,1", "4294967295,2,2147483648"})
    void theLargestInputsStillCountRight(long vips, long perNode, long pools) {
        assertThat(Sizing.of(vips, perNode, 0).pools()).isEqualTo(pools);
    }
}
