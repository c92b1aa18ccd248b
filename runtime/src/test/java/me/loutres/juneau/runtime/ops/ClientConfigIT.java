package me.loutres.juneau.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --kubeconfig} of the server commands: a usable file is used; anything else is one line for the user. */
class ClientConfigIT {
    @TempDir
    Path dir;

    @Test
    void aKubeconfigFileGivesItsServer() throws Exception {
        Path file = Files.writeString(dir.resolve("kubeconfig"), String.join("\n",
                "apiVersion: v1", "kind: Config",
                "clusters: [{name: c, cluster: {server: 'https://198.18.0.1:6443'}}]",
                "users: [{name: u, user: {token: t}}]",
                "contexts: [{name: x, context: {cluster: c, user: u}}]",
                "current-context: x", ""));

        Config config = ClientConfig.of(file);

        assertThat(config.getMasterUrl()).startsWith("https://198.18.0.1:6443");
    }

    @Test
    void aMissingFileOrADirectoryIsNotReadable() {
        assertThatThrownBy(() -> ClientConfig.of(dir.resolve("absent")))
                .isInstanceOf(ClientConfig.UnusableException.class)
                .hasMessage("--kubeconfig " + dir.resolve("absent") + " is not a readable file");
        assertThatThrownBy(() -> ClientConfig.of(dir))
                .isInstanceOf(ClientConfig.UnusableException.class)
                .hasMessage("--kubeconfig " + dir + " is not a readable file");
    }

    @Test
    void aFileThatIsNoKubeconfigIsOneLineNamingIt() throws Exception {
        Path file = Files.writeString(dir.resolve("broken"), "clusters: [\n  {\n");

        assertThatThrownBy(() -> ClientConfig.of(file))
                .isInstanceOf(ClientConfig.UnusableException.class)
                .hasMessageStartingWith("--kubeconfig " + file + " cannot be used: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
