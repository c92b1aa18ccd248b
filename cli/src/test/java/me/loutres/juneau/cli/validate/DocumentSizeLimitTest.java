package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import me.loutres.juneau.cli.CommandRun;
import me.loutres.juneau.view.ManifestException;
import me.loutres.juneau.view.YamlDocuments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A document over kube-apiserver's 3 MiB is refused before the YAML parser scans it; a file of many smaller ones is not. */
class DocumentSizeLimitTest {
    private static final Path FILE = Path.of("m.yaml");

    /** A ConfigMap of exactly {@code codePoints} code points, its data in lines of 100 so the parser reads it cheaply. */
    static String configMap(String name, int codePoints) {
        StringBuilder b = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name
                + "\ndata:\n  k: |\n");
        String line = "    " + "y".repeat(95) + "\n";
        while (b.length() + line.length() <= codePoints) {
            b.append(line);
        }
        int left = codePoints - b.length();
        if (left > 0) {
            b.append("#".repeat(left - 1)).append('\n'); // ends the block scalar: a comment line at column 0
        }
        assertThat(b.codePointCount(0, b.length())).isEqualTo(codePoints);
        return b.toString();
    }

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
    void aDocumentOverTheLimitIsRefusedWithOneLineNamingFileDocumentAndLimit(@TempDir Path dir) throws Exception {
        Path big = Files.writeString(dir.resolve("big.yaml"), configMap("small", 200) + "---\n"
                + configMap("big", DocumentSizeLimit.LIMIT + 1));
        CommandRun run = CommandRun.of("validate", "-f", big.toString());
        assertThat(run.exit()).as(run.transcript()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        // the whole file is refused, as for any file the parser cannot read: nothing of it half-reported
        assertThat(run.out()).isEqualTo("0 accepted, 0 rejected, 1 unreadable\n");
        // the first document is 8 lines; the second starts at its marker, which it counts (4 characters)
        assertThat(run.err()).isEqualTo("error: " + big + ":9: document 2 is 3,145,733 characters, "
                + "over the limit of 3,145,728 (3 MiB, the largest request body kube-apiserver accepts, so the cluster "
                + "would refuse it too); split or shrink it\n");
    }

    @Test
    void oneLongLineOverTheLimitIsRefusedToo(@TempDir Path dir) throws Exception {
        // the fuzz case that took seconds: one scalar of 3.3 million characters, no document marker at all
        Path big = Files.writeString(dir.resolve("line.yaml"), "x".repeat(3_300_000) + "\n");
        CommandRun run = CommandRun.of("validate", big.toString());
        assertThat(run.exit()).as(run.transcript()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(run.err()).isEqualTo("error: " + big + ":1: document 1 is 3,300,001 characters, over the limit of "
                + "3,145,728 (3 MiB, the largest request body kube-apiserver accepts, so the cluster would refuse it "
                + "too); split or shrink it\n");
    }

    @Test
    void standardInputIsHeldToTheSameLimit() {
        CommandRun run = withStdin(configMap("big", DocumentSizeLimit.LIMIT + 10), "validate", "-f", "-");
        assertThat(run.exit()).as(run.transcript()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(run.out()).isEqualTo("0 accepted, 0 rejected, 1 unreadable\n");
        assertThat(run.err()).startsWith("error: STDIN:1: document 1 is 3,145,738 characters, over the limit of 3,145,728")
                .hasLineCount(1);
    }

    @Test
    void aDocumentAtTheLimitIsStillValidated(@TempDir Path dir) throws Exception {
        Path atLimit = Files.writeString(dir.resolve("at.yaml"), configMap("big", DocumentSizeLimit.LIMIT));
        CommandRun run = CommandRun.of("validate", "-f", atLimit.toString());
        assertThat(run.exit()).as(run.transcript()).isEqualTo(ValidateCommand.EXIT_ACCEPTED);
        assertThat(run.out()).contains("configmap/big created").endsWith("1 accepted, 0 rejected\n");
    }

    @Test
    void aFileOverTheLimitOfDocumentsUnderItIsValidated(@TempDir Path dir) throws Exception {
        // helm template of a big chart: 4 MiB in one stream, every object well under the limit
        String two = configMap("first", 2 * 1024 * 1024) + "---\n" + configMap("second", 2 * 1024 * 1024);
        CommandRun run = withStdin(two, "validate", "-");
        assertThat(run.exit()).as(run.transcript()).isEqualTo(ValidateCommand.EXIT_ACCEPTED);
        assertThat(run.out()).contains("configmap/first created").contains("configmap/second created")
                .endsWith("2 accepted, 0 rejected\n");
    }

    @Test
    void documentsAreNumberedAsTheParserNumbersThem() throws Exception {
        // the big document of each text, with the limit just under it; its number must be the parser's
        String big = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  k: " + "v".repeat(300) + "\n";
        String small = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: small\n";
        for (String text : List.of(
                big,
                "---\n" + big,
                "# a comment first\n\n" + "---\n" + big,
                "%YAML 1.1\n---\n" + big,
                small + "---\n" + big,
                small + "---\n---\n" + big,
                small + "...\n---\n" + big,
                small + "...\n# only a comment\n---\n" + big,
                "---\n" + small + "--- # a marker with a comment\n" + big + "---\n" + small,
                "\uFEFF" + small + "---\n" + big,
                small.replace("\n", "\r\n") + "---\r\n" + big,
                // old Mac line ends: a lone CR is a YAML line break too, so the marker after it splits the documents
                small.replace("\n", "\r") + "---\r" + big.replace("\n", "\r"))) {
            int parsed = YamlDocuments.parse(FILE, text).stream()
                    .filter(d -> d.content().path("metadata").path("name").asText().equals("big"))
                    .findFirst().orElseThrow().index();
            assertThatThrownBy(() -> DocumentSizeLimit.check(FILE, text, 300)).as(text)
                    .isInstanceOf(ManifestException.class).hasMessageContaining(": document " + parsed + " is ");
            // and with room for the big one (its marker and comment too), no document is over
            assertThatCode(() -> DocumentSizeLimit.check(FILE, text, 400)).as(text).doesNotThrowAnyException();
        }
    }

    @Test
    void theLimitCountsCodePointsNotUtf16Units() {
        String emoji = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: e\ndata:\n  k: " + "\uD83D\uDE00".repeat(100) + "\n";
        int codePoints = emoji.codePointCount(0, emoji.length());
        assertThatCode(() -> DocumentSizeLimit.check(FILE, emoji, codePoints)).doesNotThrowAnyException();
        assertThatThrownBy(() -> DocumentSizeLimit.check(FILE, emoji, codePoints - 1))
                .hasMessage("m.yaml:1: document 1 is " + codePoints + " characters, over the limit of " + (codePoints - 1)
                        + " (3 MiB, the largest request body kube-apiserver accepts, so the cluster would refuse it "
                        + "too); split or shrink it");
    }

    @Test
    void aMarkerInsideALineIsNoMarker() {
        String text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: a --- b\n  l: |\n    ---\n"
                + "  m: ---x\n";
        // one document: the limit between its halves would split it if any of these dashes were taken for a marker
        assertThatThrownBy(() -> DocumentSizeLimit.check(FILE, text, text.length() - 1))
                .hasMessageStartingWith("m.yaml:1: document 1 is " + text.length() + " characters");
    }
}
