package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.testing.Executables;

/** Runs the openssl binary: an independent implementation to check what our code writes. */
public final class OpenSsl {
    public static final Path BINARY = Executables.locate("openssl");

    public record Result(int exitCode, String output) {
    }

    private OpenSsl() {
    }

    public static Result run(String... args) {
        Executables.require(BINARY, "to check certificates independently", "install it (apt-get install openssl)");
        List<String> cmd = new ArrayList<>();
        cmd.add(BINARY.toString());
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("openssl " + String.join(" ", args) + " did not finish");
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            throw new AssertionError("cannot run openssl: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Runs openssl and fails the test with its output when it exits non-zero. */
    public static String ok(String... args) {
        Result r = run(args);
        if (r.exitCode() != 0) {
            fail("openssl " + String.join(" ", args) + " exited " + r.exitCode() + ":\n" + r.output());
        }
        return r.output();
    }

    public static Path write(Path dir, String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.US_ASCII);
        return p;
    }
}
