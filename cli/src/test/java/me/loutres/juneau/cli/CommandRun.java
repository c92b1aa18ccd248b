package me.loutres.juneau.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs {@code juneau} in this JVM capturing stdout, stderr and the exit code, and compares the transcript with a
 * golden file ({@code -Djuneau.updateGolden=true} rewrites the golden files instead, for a reviewed change).
 */
public record CommandRun(String[] args, String out, String err, int exit) {

    /** Runs the command; only its own threads' output is captured (see {@link CapturedOutput}). */
    public static synchronized CommandRun of(String... args) {
        try (CapturedOutput captured = CapturedOutput.start()) {
            int exit = Juneau.run(args);
            return new CommandRun(args, captured.out(), captured.err(), exit);
        }
    }

    /** What a reader of the golden file sees: the command, its output, its errors and its exit code. */
    public String transcript() {
        StringBuilder sb = new StringBuilder("$ juneau ").append(String.join(" ", args)).append('\n').append(out);
        if (!err.isEmpty()) {
            sb.append("--- stderr\n").append(err);
        }
        return sb.append("--- exit ").append(exit).append('\n').toString();
    }

    public static boolean updating() {
        return Boolean.getBoolean("juneau.updateGolden");
    }

    /** Compares with (or, when updating, rewrites) the golden file. */
    public CommandRun matchesGolden(Path golden) throws IOException {
        String actual = transcript();
        if (updating()) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, actual);
            return this;
        }
        assertThat(golden).as("golden file (run with -Djuneau.updateGolden=true to create it)").exists();
        assertThat(actual).isEqualTo(Files.readString(golden));
        return this;
    }
}
