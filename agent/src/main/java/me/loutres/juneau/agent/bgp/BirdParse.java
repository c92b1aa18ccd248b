package me.loutres.juneau.agent.bgp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

/**
 * {@code bird -p -c FILE}: BIRD parses a configuration and exits, touching no running BIRD. Used only when a refusal's
 * words name no piece, to find the piece by leaving each out in turn ({@link RefusalLocator#search}).
 */
final class BirdParse {
    private final Path bird;
    private final Path file;

    /** @param dir BIRD's private directory: the candidate holds the peers' passwords */
    BirdParse(Path bird, Path dir) {
        this.bird = bird;
        this.file = dir.resolve("bird.check.conf");
    }

    /** BIRD's error for {@code text}, or null when it parses. */
    String check(String text) {
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, text, StandardCharsets.UTF_8);
            Process p = new ProcessBuilder(bird.toString(), "-p", "-c", file.toString()).redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "bird -p did not finish within 10 s";
            }
            return p.exitValue() == 0 ? null : out.isEmpty() ? "bird -p exited with " + p.exitValue() : out;
        } catch (IOException e) {
            return "bird -p could not run: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // the next check replaces it
            }
        }
    }
}
