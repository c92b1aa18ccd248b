package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;
import me.loutres.juneau.cli.CommandRun;
import me.loutres.juneau.webhook.fuzz.FuzzCase;
import me.loutres.juneau.webhook.fuzz.FuzzOracle;
import me.loutres.juneau.webhook.fuzz.FuzzRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged manifests through {@code juneau validate} as a user runs it (issue 12 item 4): every file gets exit 0, 1 or
 * 2, a file it cannot read gets one line on stderr, and no output carries exception text; each case finishes within
 * its deadline. 1,000 cases here, 100,000 in the benchmark profile ({@code -Dfuzz.validate.cases}). A failure prints
 * its seed and a minimised manifest; {@code -Dfuzz.validate.seed=N -Dfuzz.validate.cases=1} reruns it.
 */
class ValidateFuzzTest {
    static final long FIRST_SEED = Long.getLong("fuzz.validate.seed", 9_000_000L);
    static final int CASES = Integer.getInteger("fuzz.validate.cases", 1_000);

    @TempDir
    Path dir;

    private FuzzOracle.Answer validate(FuzzCase c) throws Exception {
        Path file = dir.resolve("manifests-" + Thread.currentThread().getId() + ".yaml");
        Files.write(file, DamagedManifests.render(c));
        CommandRun run = CommandRun.of("validate", "-f", file.toString());
        // the notes (a document skipped as not Kubernetes) are not the error line the oracle checks
        String errors = run.err().lines().filter(l -> !l.startsWith("note: ")).map(l -> l + "\n")
                .collect(Collectors.joining());
        return new FuzzOracle.Answer(run.exit(), errors, (run.out() + "\n--- stderr\n" + run.err())
                .getBytes(StandardCharsets.UTF_8));
    }

    static Optional<String> problem(FuzzCase c, FuzzOracle.Answer answer) {
        Optional<String> leak = FuzzOracle.leak(answer.text());
        if (leak.isPresent()) {
            return leak;
        }
        if (answer.status() < 0 || answer.status() > 2) {
            return Optional.of("exit code " + answer.status() + " (expected 0, 1 or 2)");
        }
        // the stderr of an unreadable file: one line that says where and why
        if (answer.status() == 2 && answer.contentType().strip().contains("\n")) {
            return Optional.of("exit 2 with more than one line on stderr");
        }
        if (answer.status() == 2 && answer.contentType().isBlank()) {
            return Optional.of("exit 2 without a reason on stderr");
        }
        return Optional.empty();
    }

    private static String shown(FuzzCase c) {
        String text = new String(DamagedManifests.render(c), StandardCharsets.UTF_8);
        return "\n" + (text.length() > 1500 ? text.substring(0, 1500) + "... (" + text.length() + " chars)" : text);
    }

    @org.junit.jupiter.api.BeforeAll
    static void loggingStartsBeforeOutputIsCaptured() {
        // logback's first start may print its status; in the first case's captured output it read as exception text
        org.slf4j.LoggerFactory.getLogger(ValidateFuzzTest.class).debug("logging started");
    }

    @Test
    void damagedManifestsGetAnExitCodeAndWordsNeverAnException() throws Exception {
        // one thread: the command writes to System.out and System.err, which CommandRun swaps
        FuzzRunner.Report report = new FuzzRunner(this::validate, ValidateFuzzTest::problem,
                DamagedManifests::generate, Duration.ofSeconds(20), 1).showing(ValidateFuzzTest::shown)
                .run(FIRST_SEED, CASES);
        System.out.println("validate fuzz: " + report.summary());
        assertThat(report.failures().stream().map(FuzzRunner.Failure::toString).collect(Collectors.joining("\n\n")))
                .as("%d of %d cases failed; the first ones, minimised", report.failed(), report.cases())
                .isEmpty();
        assertThat(report.outcomes()).doesNotContainKeys("hung", "thrown");
    }

    @Test
    void theGeneratorReachesYamlOnlyDamageAndIsDeterministic() {
        String all = java.util.stream.LongStream.range(FIRST_SEED, FIRST_SEED + 600)
                .mapToObj(DamagedManifests::generate).map(FuzzCase::toString).collect(Collectors.joining("\n"));
        assertThat(all).contains("YAML: empty value", "YAML: alias bomb", "YAML: tab indent", " = null");
        for (long seed = FIRST_SEED; seed < FIRST_SEED + 100; seed++) {
            assertThat(DamagedManifests.render(DamagedManifests.generate(seed)))
                    .isEqualTo(DamagedManifests.render(DamagedManifests.generate(seed)));
        }
    }
}
