package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.testing.Executables;

/** Renders kustomizations with the real kubectl, as an operator's `kubectl apply -k` would. */
final class Kubectl {
    static final Path BINARY = Executables.locate("kubectl");
    private static final Map<Path, String> RENDERED = new ConcurrentHashMap<>();

    private Kubectl() {
    }

    /** kubectl kustomize DIR (cached per directory: the files do not change during a test run). */
    static String kustomize(Path dir) {
        return RENDERED.computeIfAbsent(dir.toAbsolutePath().normalize(), Kubectl::run);
    }

    private static String run(Path dir) {
        Executables.require(BINARY, "to render the manifests (kubectl kustomize)",
                "install kubectl to run the manifests tests");
        try {
            Path out = Files.createTempFile("kustomize", ".yaml");
            Path err = Files.createTempFile("kustomize", ".err");
            try {
                Process p = new ProcessBuilder(List.of(BINARY.toString(), "kustomize", dir.toString()))
                        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    fail("kubectl kustomize " + dir + " did not finish within 60 s");
                }
                if (p.exitValue() != 0) {
                    fail("kubectl kustomize " + dir + " failed (exit " + p.exitValue() + "):\n"
                            + Files.readString(err, StandardCharsets.UTF_8));
                }
                return Files.readString(out, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run kubectl: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
