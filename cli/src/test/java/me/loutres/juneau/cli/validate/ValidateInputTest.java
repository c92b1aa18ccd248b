package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import me.loutres.juneau.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where {@code validate} reads from: files, directories, standard input; and no objects at all is an error. */
class ValidateInputTest {
    static final Path GOOD = ValidateGoldenTest.CASES.resolve("01-good-stack/network.yaml");

    private static synchronized CommandRun withStdin(String stdin, String... args) {
        InputStream old = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            return CommandRun.of(args);
        } finally {
            System.setIn(old);
        }
    }

    @Test
    void dashReadsStandardInputAndNamesItStdin() throws Exception {
        CommandRun run = withStdin(Files.readString(GOOD), "validate", "-f", "-");
        assertThat(run.exit()).as(run.transcript()).isZero();
        assertThat(run.out()).contains("created [STDIN, document 1]").contains("accepted, 0 rejected");
        // same verdicts as the file itself
        CommandRun file = CommandRun.of("validate", "-f", GOOD.toString());
        assertThat(run.out().replace("STDIN", GOOD.toString())).isEqualTo(file.out());
    }

    @Test
    void standardInputMixesWithFiles() throws Exception {
        String service = Files.readString(ValidateGoldenTest.CASES.resolve("01-good-stack/app.yaml"));
        CommandRun run = withStdin(service, "validate", "-f", GOOD.toString(), "-f", "-");
        assertThat(run.exit()).as(run.transcript()).isIn(0, 1);
        assertThat(run.out()).contains("[" + GOOD + ", document 1]").contains("[STDIN, document");
    }

    @Test
    void emptyStandardInputIsAnError() {
        CommandRun run = withStdin("", "validate", "-f", "-");
        assertThat(run.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(run.out()).isEqualTo("0 accepted, 0 rejected, 1 unreadable\n");
        assertThat(run.err()).isEqualTo("error: STDIN: no Kubernetes objects found (standard input held none); check the path\n");
    }

    @Test
    void anEmptyFileIsAnErrorNotASilentPass(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.yaml"), "---\n# nothing here\n---\n");
        CommandRun run = CommandRun.of("validate", "-f", empty.toString());
        assertThat(run.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(run.out()).isEqualTo("0 accepted, 0 rejected, 1 unreadable\n");
        assertThat(run.err().lines()).hasSize(1);
        assertThat(run.err()).startsWith("error: " + empty + ": no Kubernetes objects found (the file holds none)");
    }

    @Test
    void aDirectoryWithoutManifestsIsAnErrorEvenNextToAGoodFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "apiVersion: v1\n");
        CommandRun run = CommandRun.of("validate", "-f", GOOD.toString(), "-f", dir.toString());
        assertThat(run.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        // the good file is still validated, and the report counts the empty directory
        assertThat(run.out()).contains("[" + GOOD + ", document 1]").endsWith(" rejected, 1 unreadable\n");
        assertThat(run.err().lines()).hasSize(1);
        assertThat(run.err()).startsWith("error: " + dir + ": no Kubernetes objects found (none in the *.yaml");
    }

    @Test
    void anEmptyListIsNoObjectEither(@TempDir Path dir) throws Exception {
        Path list = Files.writeString(dir.resolve("list.yaml"), "apiVersion: v1\nkind: List\nitems: []\n");
        assertThat(CommandRun.of("validate", "-f", list.toString()).exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
    }

    @Test
    void standardInputCanBeReadOnce() {
        CommandRun run = withStdin("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n", "validate", "-f", "-", "-f", "-");
        assertThat(run.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(run.err()).isEqualTo("error: STDIN: - is given more than once; standard input can be read once\n");
    }

    @Test
    void aNumberThatIsNoIntegerIsRefusedNotTruncated(@TempDir Path dir) throws Exception {
        // docs/admission.md, strict types: 1.5 was once read as 1 and the peer accepted
        Path peer = Files.writeString(dir.resolve("peer.yaml"), """
                apiVersion: juneau.loutres.me/v1alpha1
                kind: BGPPeer
                metadata: {name: tor-9}
                spec: {peerAddress: 198.18.0.9, peerASN: 1.5, myASN: 64513, ebgpMultiHop: 1}
                """);
        CommandRun run = CommandRun.of("validate", "-f", peer.toString());
        assertThat(run.exit()).as(run.transcript()).isNotZero();
        assertThat(run.out()).contains("spec.peerASN: 1.5 has the wrong type for BGPPeer; expected an integer");
    }
}
