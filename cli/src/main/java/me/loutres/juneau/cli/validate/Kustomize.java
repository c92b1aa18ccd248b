package me.loutres.juneau.cli.validate;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import me.loutres.juneau.view.ManifestException;

/**
 * Renders a kustomization with {@code kubectl kustomize DIR}, the renderer {@code kubectl apply -k} uses, so the
 * objects validated are the ones the cluster would get. kubectl is looked up on the given {@code PATH}.
 */
final class Kustomize {
    private final String searchPath;

    Kustomize(String searchPath) {
        this.searchPath = searchPath == null ? "" : searchPath;
    }

    static Kustomize fromEnvironment() {
        return new Kustomize(System.getenv("PATH"));
    }

    /** The kubectl executable on the search path, if any. */
    Optional<Path> kubectl() {
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The rendered YAML of the kustomization in {@code dir}.
     *
     * @throws ManifestException in one line: not a kustomization, kubectl missing, or kubectl's own first error line
     */
    String render(Path dir) throws ManifestException {
        if (!Files.isDirectory(dir)) {
            throw new ManifestException(dir, 0, Files.exists(dir) ? "-k takes a directory holding a kustomization.yaml"
                    : "no such directory");
        }
        if (!ManifestFiles.isKustomization(dir)) {
            throw new ManifestException(dir, 0, "no kustomization.yaml in the directory; -k takes a kustomization, a plain "
                    + "directory of manifests is given as a path");
        }
        Path kubectl = kubectl().orElseThrow(() -> new ManifestException(dir, 0, "kubectl is not on the PATH; -k renders "
                + "with kubectl kustomize: install kubectl, or render it another way and pipe it in: "
                + "kustomize build " + dir + " | juneau validate -"));
        Process process;
        try {
            process = new ProcessBuilder(kubectl.toString(), "kustomize", dir.toString()).start();
        } catch (IOException e) {
            throw new ManifestException(dir, 0, "cannot run " + kubectl + ": " + e.getMessage());
        }
        try {
            process.getOutputStream().close(); // kubectl kustomize reads no input
        } catch (IOException e) {
            // nothing to tell: it reads no input anyway
        }
        CompletableFuture<byte[]> stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        byte[] out = readAll(process.getInputStream());
        int exit;
        try {
            exit = process.waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new ManifestException(dir, 0, "interrupted while kubectl kustomize ran");
        }
        if (exit != 0) {
            String first = new String(stderr.join(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank())
                    .findFirst().orElse("exit code " + exit).strip();
            throw new ManifestException(dir, 0, "kubectl kustomize failed: " + first);
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
