package me.loutres.juneau.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code juneau webhook} with plain arguments runs without picocli, and says and returns exactly what the picocli path
 * does; help, version and usage errors still go through picocli.
 */
class WebhookDispatchTest {
    @TempDir
    Path dir;

    /** Logging starts (and prints its status once) before the runs compared, not inside the first of them. */
    @org.junit.jupiter.api.BeforeAll
    static void loggingStarted() {
        org.slf4j.LoggerFactory.getILoggerFactory();
    }

    @Test
    void plainArgumentsSkipPicocliAndEndAsThePicocliPathDoes() {
        String cert = dir.resolve("missing.crt").toString();
        String key = dir.resolve("missing.key").toString();
        for (List<String> rest : List.of(
                List.of("--tls-cert-file", cert, "--tls-key-file", key, "--cluster-state", "state.yaml"),
                List.of("--tls-cert-file", cert, "--tls-key-file", key, "--port", "70000"),
                List.of("--tls-cert-file=" + cert, "--tls-key-file=" + key, "--bind-address", "127.0.0.1",
                        "--port", "0", "--shutdown-grace", "1s"))) {
            String[] args = webhook(rest);
            assertThat(Juneau.plainWebhook(args)).as("%s", rest).isPresent();
            Ended direct = ended(() -> Juneau.run(args));
            Ended picocli = ended(() -> Juneau.commandLine("webhook").execute(args));
            assertThat(direct).isEqualTo(picocli);
            assertThat(direct.exit).isEqualTo(Juneau.EXIT_UNAVAILABLE);
            assertThat(direct.err).startsWith("juneau webhook: ");
        }
    }

    @Test
    void helpVersionAndUsageErrorsGoThroughPicocli() {
        for (List<String> rest : List.<List<String>>of(List.of("--help"), List.of("--version"), List.of(),
                List.of("--tls-cert-file", "c", "--tls-key-file", "k", "--port", "x"),
                List.of("--tls-cert-file", "c", "--tls-key-file", "k", "--no-such-option"))) {
            String[] args = webhook(rest);
            assertThat(Juneau.plainWebhook(args)).as("%s", rest).isEmpty();
            assertThat(ended(() -> Juneau.run(args))).isEqualTo(ended(() -> Juneau.commandLine("webhook").execute(args)));
        }
        Ended help = ended(() -> Juneau.run("webhook", "--help"));
        assertThat(help.out).contains("Usage: juneau webhook").contains("--tls-cert-file");
        Ended error = ended(() -> Juneau.run("webhook", "--tls-cert-file", "c"));
        assertThat(error.exit).isEqualTo(Juneau.EXIT_UNAVAILABLE);
        assertThat(error.err).startsWith("error: ").contains("--tls-key-file").contains("juneau webhook --help");
        assertThat(Juneau.plainWebhook("validate", "--tls-cert-file", "c", "--tls-key-file", "k")).isEmpty();
    }

    private static String[] webhook(List<String> rest) {
        String[] args = new String[rest.size() + 1];
        args[0] = "webhook";
        for (int i = 0; i < rest.size(); i++) {
            args[i + 1] = rest.get(i);
        }
        return args;
    }

    private record Ended(int exit, String out, String err) {
    }

    /** Runs one command; only its own threads' output is compared (see {@link CapturedOutput}). */
    private static Ended ended(java.util.function.IntSupplier run) {
        synchronized (CommandRun.class) {
            try (CapturedOutput captured = CapturedOutput.start()) {
                int exit = run.getAsInt();
                return new Ended(exit, captured.out(), captured.err());
            }
        }
    }
}
