package me.loutres.juneau.webhook.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged AdmissionReviews through the real envelope and rules (docs/admission.md, issue 12 item 4): no answer carries
 * exception text, none is a 5xx or an errored review, every case is answered within its deadline, no worker thread
 * dies. 5,000 cases here; the benchmark profile runs 100,000 ({@code -Dfuzz.cases}, BENCHMARKS.md). A failure prints its
 * seed and a minimised input; {@code -Dfuzz.seed=N -Dfuzz.cases=1} reruns exactly that case.
 */
class AdmissionFuzzTest {
    static final long FIRST_SEED = Long.getLong("fuzz.seed", 20261201L);
    static final int CASES = Integer.getInteger("fuzz.cases", 5_000);
    /** Far above any honest case (the largest bodies take tens of ms); only a hang reaches it. */
    static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static ServletTarget target;

    @BeforeAll
    static void start() throws Exception {
        target = new ServletTarget(dir);
    }

    @AfterAll
    static void stop() {
        target.close();
    }

    @Test
    void damagedReviewsAreAnsweredWithoutExceptionTextOr5xxOrHangs() throws Exception {
        FuzzRunner.Report report = new FuzzRunner(target, FuzzOracle::problem, DamagedReviews::generate, DEADLINE, 2)
                .run(FIRST_SEED, CASES);
        System.out.println("admission fuzz (servlet): " + report.summary());
        assertThat(report.failures().stream().map(FuzzRunner.Failure::toString).collect(Collectors.joining("\n\n")))
                .as("%d of %d cases failed; the first ones, minimised", report.failed(), report.cases())
                .isEmpty();
        assertThat(report.deadThreads()).as("worker threads that died").isZero();
        assertThat(report.outcomes()).as("every case answered").doesNotContainKeys("hung", "thrown");
    }

    @Test
    void aDuplicatedUidKeyLeavesTheUidToBeEchoedUndefined() throws Exception {
        // found by the 100,000-case run: "uid":"<uid>" then "uid":7; the reader keeps the last key, so the review
        // echoes "7", which the oracle called a lost uid. The first seed that damages the uid this way is looked up
        // (the generator's choices move when it learns a new kind), so the case stays this one.
        FuzzCase c = java.util.stream.LongStream.range(FIRST_SEED, FIRST_SEED + 200_000).mapToObj(DamagedReviews::generate)
                .filter(f -> f.toString().contains("request.uid duplicated with")).findFirst()
                .orElseThrow(() -> new AssertionError("no seed in 200,000 duplicates request.uid"));
        assertThat(c.uid()).isNull();
        assertThat(FuzzOracle.problem(c, target.send(c))).isEmpty();
        FuzzCase plain = DamagedReviews.generate(FIRST_SEED);
        assertThat(plain.toString()).doesNotContain("request.uid duplicated");
    }

    @Test
    void theGeneratorIsDeterministicAndDamagesEveryKindOfPosition() {
        for (long seed = FIRST_SEED; seed < FIRST_SEED + 200; seed++) {
            assertThat(DamagedReviews.generate(seed).body()).isEqualTo(DamagedReviews.generate(seed).body());
        }
        // the generator reaches the envelope, the bytes and the rules' objects, not only one of them
        String all = java.util.stream.LongStream.range(FIRST_SEED, FIRST_SEED + 2_000)
                .mapToObj(DamagedReviews::generate).map(FuzzCase::toString).collect(Collectors.joining("\n"));
        assertThat(all).contains("request.object.spec", "request.oldObject", "request.uid", "truncated at",
                "duplicated with", "nested", "null element", "sent to /", "Content-Type");
    }
}
