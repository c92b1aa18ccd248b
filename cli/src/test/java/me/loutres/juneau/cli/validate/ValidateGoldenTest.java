package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code juneau validate} over the corpus of good and bad manifests (one directory per rule of docs/admission.md), compared with
 * golden transcripts. Every case runs against the same cluster state, as a pipeline validates against an export of
 * the cluster.
 */
class ValidateGoldenTest {
    static final Path CORPUS = Path.of("src/test/resources/corpus");
    static final Path CASES = CORPUS.resolve("cases");
    static final Path GOLDEN = CORPUS.resolve("golden");
    static final String STATE = CORPUS.resolve("cluster-state.yaml").toString();

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> all = new ArrayList<>();
        for (String c : caseNames()) {
            all.add(Arguments.of(c, "text"));
        }
        all.add(Arguments.of("01-good-stack", "junit"));
        all.add(Arguments.of("06-requested-ip-in-use", "json"));
        all.add(Arguments.of("12-hand-edits", "junit"));
        all.add(Arguments.of("17-dependency-order", "json"));
        return all.stream();
    }

    static List<String> caseNames() throws IOException {
        try (Stream<Path> dirs = Files.list(CASES)) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The cluster a case starts from: its own (a file without .yaml, so -f does not read it), else the shared one. */
    static String state(String name) {
        Path own = CASES.resolve(name).resolve("cluster-state");
        return Files.exists(own) ? own.toString() : STATE;
    }

    static List<String> args(String name, String format) throws IOException {
        List<String> args = new ArrayList<>(List.of("validate", "-f", CASES.resolve(name).toString(), "--cluster-state",
                state(name)));
        Path extra = CASES.resolve(name).resolve("args");
        if (Files.exists(extra)) {
            Files.readAllLines(extra).stream().filter(l -> !l.isBlank()).forEach(args::add);
        }
        if (!"text".equals(format)) {
            args.add("--output");
            args.add(format);
        }
        return args;
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("cases")
    void corpusCase(String name, String format) throws IOException {
        CommandRun run = CommandRun.of(args(name, format).toArray(String[]::new));
        run.matchesGolden(GOLDEN.resolve(name + ("text".equals(format) ? "" : "." + format) + ".txt"));
        assertThat(run.exit()).isBetween(0, 2);
    }

    @Test
    void everyRuleOfSection2HasAFixture() throws IOException {
        assertThat(caseNames()).contains("02-traffic-policy", "03-network-annotation", "04-network-without-pools",
                "05-requested-ip", "06-requested-ip-in-use", "07-protocols-and-families", "08-fixed-vip",
                "09-unchanged-update", "10-load-balancer-ip", "12-hand-edits", "13-controller-writes",
                "14-address-pools", "15-reserved-cidr", "16-external-networks", "21-trim-and-mutate",
                "40-ipv6-and-dual-stack");
    }

    @Test
    void exitCodesFollowTheVerdicts() throws IOException {
        assertThat(CommandRun.of(args("01-good-stack", "text").toArray(String[]::new)).exit()).isEqualTo(0);
        assertThat(CommandRun.of(args("12-hand-edits", "text").toArray(String[]::new)).exit()).isEqualTo(1);
        CommandRun bad = CommandRun.of(args("19-bad-yaml", "text").toArray(String[]::new));
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.out()).isEqualTo("0 accepted, 0 rejected, 1 unreadable\n");
        assertThat(bad.err()).isEqualTo("error: " + CASES.resolve("19-bad-yaml/broken.yaml")
                + ":12: not valid YAML: while parsing a block mapping: expected <block end>, but found '<block mapping start>'\n");
    }

    @Test
    void aMissingFileOrABadOptionIsExitTwo() {
        CommandRun missing = CommandRun.of("validate", "-f", "no/such/dir");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("error: no/such/dir: no such file or directory\n");
        assertThat(CommandRun.of("validate", "-f", CASES.resolve("01-good-stack").toString(), "--output", "xml").exit()).isEqualTo(2);
        assertThat(CommandRun.of("validate").exit()).isEqualTo(2);
        CommandRun badCidr = CommandRun.of("validate", "-f", CASES.resolve("01-good-stack").toString(), "--reserved-cidr", "10.0.0.0/40");
        assertThat(badCidr.exit()).isEqualTo(2);
        assertThat(badCidr.err()).startsWith("error: --reserved-cidr: reserved CIDR \"10.0.0.0/40\" is not valid");
    }

    @Test
    void withoutClusterStateTheManifestsAloneAreTheCluster() {
        CommandRun run = CommandRun.of("validate", "-f", CASES.resolve("17-dependency-order").toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("service/early created").endsWith("5 accepted, 2 rejected\n");
    }
}
