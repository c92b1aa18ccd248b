package me.loutres.juneau.runtime.ops;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The API server and credentials a server command uses: {@code --kubeconfig FILE}, else the in-cluster account. */
public final class ClientConfig {
    private ClientConfig() {
    }

    /** The file cannot be used; the message is one line for the user (the command exits 2 with it). */
    public static final class UnusableException extends Exception {
        private static final long serialVersionUID = 1L;

        UnusableException(String message) {
            super(message);
        }
    }

    /** @param kubeconfig the file given with --kubeconfig, or null for the in-cluster service account */
    public static Config of(Path kubeconfig) throws UnusableException {
        if (kubeconfig == null) {
            return Config.autoConfigure(null);
        }
        if (!Files.isReadable(kubeconfig) || Files.isDirectory(kubeconfig)) {
            throw new UnusableException("--kubeconfig " + kubeconfig + " is not a readable file");
        }
        try {
            return Config.fromKubeconfig(Files.readString(kubeconfig));
        } catch (RuntimeException | IOException e) {
            throw new UnusableException("--kubeconfig " + kubeconfig + " cannot be used: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }
}
