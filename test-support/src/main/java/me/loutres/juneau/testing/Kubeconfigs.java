package me.loutres.juneau.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Kubeconfig files for a test's own API server, as {@code --kubeconfig} reads them. */
public final class Kubeconfigs {
    private Kubeconfigs() {
    }

    /** Writes a kubeconfig whose only context reaches {@code serverUrl} with a bearer token; returns {@code file}. */
    public static Path write(Path file, String serverUrl) throws IOException {
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster:
                    server: %s
                contexts:
                - name: mock
                  context:
                    cluster: mock
                    user: mock
                current-context: mock
                users:
                - name: mock
                  user:
                    token: mock-token
                """.formatted(serverUrl));
        return file;
    }
}
