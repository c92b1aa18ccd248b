package me.loutres.juneau.testing;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** Programs the tests run as an independent check of our output (openssl, kubectl). */
public final class Executables {
    private Executables() {
    }

    /**
     * {@code /usr/bin/NAME} first (where the project's machines have it), else the first one on PATH; when there is
     * none, {@code /usr/bin/NAME}, so that {@link #require} names where it was looked for.
     */
    public static Path locate(String name) {
        Path usual = Path.of("/usr/bin", name);
        if (Files.isExecutable(usual)) {
            return usual;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name);
            }
        }
        return usual;
    }

    /**
     * Fails the test, saying why the program is needed and how to get it, when {@code binary} cannot be run: a
     * missing tool is a broken test machine, not a reason to skip the check.
     */
    public static void require(Path binary, String purpose, String remedy) {
        if (!Files.isExecutable(binary)) {
            fail(binary.getFileName() + " is required " + purpose + " but " + binary
                    + " is missing (and none is on PATH); " + remedy);
        }
    }
}
