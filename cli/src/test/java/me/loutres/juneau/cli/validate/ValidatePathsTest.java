package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import me.loutres.juneau.cli.CommandRun;
import me.loutres.juneau.view.ManifestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inputs CI pipelines give a validator: positional paths beside repeated -f, directories with ignore globs and
 * ignore files, YAML that is not Kubernetes, kustomization directories, and an unreadable file next to good ones.
 */
class ValidatePathsTest {
    static final Path GOOD = ValidateGoldenTest.CASES.resolve("01-good-stack");
    static final String NAMESPACE = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n";

    @Test
    void pathsAfterTheOptionsAndRepeatedFilenameOptionsAreTheSame() {
        String network = GOOD.resolve("network.yaml").toString();
        String app = GOOD.resolve("app.yaml").toString();
        CommandRun listed = CommandRun.of("validate", "-f", network, app);
        CommandRun repeated = CommandRun.of("validate", "-f", network, "-f", app);
        CommandRun positional = CommandRun.of("validate", network, app);
        // without the cluster state the corpus validates against, one Service names a network that is not there
        assertThat(listed.exit()).as(listed.transcript()).isEqualTo(ValidateCommand.EXIT_REJECTED);
        assertThat(listed.out()).contains("[" + app + ", document 1]").endsWith("5 accepted, 1 rejected\n");
        assertThat(repeated.out()).isEqualTo(listed.out());
        assertThat(positional.out()).isEqualTo(listed.out());
    }

    @Test
    void ignoreGlobsSkipDirectoriesAndFilesAndSaySo(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("apps/refused"));
        Files.writeString(dir.resolve("apps/a.yaml"), NAMESPACE.formatted("a"));
        Files.writeString(dir.resolve("apps/refused/bad.yaml"), "apiVersion: v1\nkind: [\n");
        Files.writeString(dir.resolve("apps/b.tmpl.yaml"), "{{ .Values.broken }}: [\n");
        CommandRun run = CommandRun.of("validate", dir.toString(), "--ignore", "apps/refused", "--ignore", "*.tmpl.yaml");
        assertThat(run.exit()).as(run.transcript()).isZero();
        assertThat(run.out()).isEqualTo("namespace/a created (no Juneau rules for Namespace) [" + dir.resolve("apps/a.yaml")
                + ", document 1]\n1 accepted, 0 rejected\n");
        assertThat(run.err()).isEqualTo("note: " + dir.resolve("apps/refused") + ": skipped (--ignore apps/refused)\n");
        // without the globs the same tree fails on both files
        CommandRun all = CommandRun.of("validate", dir.toString());
        assertThat(all.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(all.err().lines().filter(l -> l.startsWith("error: "))).hasSize(2);
    }

    @Test
    void anIgnoreFileInADirectoryListsWhatToSkipBelowIt(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("sub/demo"));
        Files.writeString(dir.resolve("sub/.juneauignore"), "# the demo is validated on its own\ndemo/\n");
        Files.writeString(dir.resolve("sub/ns.yaml"), NAMESPACE.formatted("kept"));
        Files.writeString(dir.resolve("sub/demo/ns.yaml"), NAMESPACE.formatted("skipped"));
        CommandRun run = CommandRun.of("validate", dir.toString());
        assertThat(run.exit()).as(run.transcript()).isZero();
        assertThat(run.out()).contains("namespace/kept").doesNotContain("namespace/skipped");
        assertThat(run.err()).isEqualTo("note: " + dir.resolve("sub/demo") + ": skipped (" + dir.resolve("sub/.juneauignore") + ")\n");
        // named directly, the ignored directory is validated
        assertThat(CommandRun.of("validate", dir.resolve("sub/demo").toString()).out()).contains("namespace/skipped");
    }

    @Test
    void theExamplesFolderValidatesCleanlyByDefault() {
        CommandRun run = CommandRun.of("validate", "../manifests/examples");
        assertThat(run.exit()).as(run.transcript()).isZero();
        assertThat(run.out()).doesNotContain("Warning:").endsWith(" accepted, 0 rejected\n");
        assertThat(run.err()).isEqualTo("note: ../manifests/examples/demo: skipped (../manifests/examples/.juneauignore)\n");
        // the demo's objects, refused ones included, are still there for the demo and for a run of their own
        CommandRun demo = CommandRun.of("validate", "../manifests/examples/demo");
        assertThat(demo.exit()).isEqualTo(ValidateCommand.EXIT_REJECTED);
        assertThat(demo.out()).contains("refused/sctp-port.yaml");
    }

    @Test
    void yamlThatIsNotKubernetesIsSkippedWithANote(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("values.yaml"), "replicaCount: 2\nimage:\n  tag: latest\n");
        Files.writeString(dir.resolve("Chart.yaml"), "apiVersion: v2\nname: web\nversion: 1.0.0\n");
        Files.writeString(dir.resolve("ns.yaml"), NAMESPACE.formatted("a") + "---\nnotes: a document of notes\n");
        CommandRun run = CommandRun.of("validate", dir.toString());
        assertThat(run.exit()).as(run.transcript()).isZero();
        assertThat(run.out()).endsWith("1 accepted, 0 rejected\n");
        assertThat(run.err().lines()).containsExactly(
                "note: " + dir.resolve("Chart.yaml") + ":1: document 1 skipped: not a Kubernetes object (no kind, no metadata)",
                "note: " + dir.resolve("ns.yaml") + ":6: document 2 skipped: not a Kubernetes object (no kind, no metadata)",
                "note: " + dir.resolve("values.yaml") + ":1: document 1 skipped: not a Kubernetes object (no kind, no metadata)");
        // an object that has metadata but lost its kind is still an error, not a note
        Files.writeString(dir.resolve("broken.yaml"), "apiVersion: v1\nmetadata:\n  name: x\n");
        CommandRun broken = CommandRun.of("validate", dir.toString());
        assertThat(broken.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(broken.err()).contains("error: " + dir.resolve("broken.yaml") + ":1: object is missing kind");
    }

    @Test
    void aKustomizationGivenAsAPathIsNamedAsSuch(@TempDir Path dir) throws Exception {
        Path overlay = Files.createDirectories(dir.resolve("overlay"));
        Files.writeString(overlay.resolve("kustomization.yaml"), "resources:\n  - ns.yaml\n");
        Files.writeString(overlay.resolve("ns.yaml"), NAMESPACE.formatted("a"));
        CommandRun run = CommandRun.of("validate", overlay.toString());
        assertThat(run.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(run.err()).isEqualTo("error: " + overlay + ": is a kustomization; use -k " + overlay
                + " to validate what it renders (kubectl kustomize)\n");
        // below a directory given as a path, a kustomization is skipped with a note saying how to validate it
        Files.writeString(dir.resolve("ns.yaml"), NAMESPACE.formatted("b"));
        CommandRun parent = CommandRun.of("validate", dir.toString());
        assertThat(parent.exit()).as(parent.transcript()).isZero();
        assertThat(parent.err()).isEqualTo("note: " + overlay + ": a kustomization, skipped; validate it with -k " + overlay + "\n");
    }

    @Test
    void withoutKubectlOnThePathMinusKSaysWhatToDo(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("kustomization.yaml"), "resources: []\n");
        Path emptyBin = Files.createDirectories(dir.resolve("bin"));
        Kustomize kustomize = new Kustomize(emptyBin + ":" + dir.resolve("nowhere"));
        assertThat(kustomize.kubectl()).isEmpty();
        ManifestReader.Inputs read = new ManifestReader(java.util.List.of(), kustomize, System.in)
                .read(java.util.List.of(), java.util.List.of(dir));
        assertThat(read.objects()).isEmpty();
        assertThat(read.failures()).extracting(ManifestException::getMessage).containsExactly(dir + ": kubectl is not on "
                + "the PATH; -k renders with kubectl kustomize: install kubectl, or render it another way and pipe it in: "
                + "kustomize build " + dir + " | juneau validate -");
        // a directory without a kustomization is refused before kubectl is looked for
        Path plain = Files.createDirectories(dir.resolve("plain"));
        assertThat(new ManifestReader(java.util.List.of(), kustomize, System.in).read(java.util.List.of(),
                java.util.List.of(plain)).failures().get(0).getMessage()).contains("no kustomization.yaml in the directory");
    }

    @Test
    void anUnreadableFileIsReportedAndTheOthersAreStillValidated(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.yaml"), NAMESPACE.formatted("a"));
        Files.writeString(dir.resolve("b.yaml"), "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: [b\n");
        CommandRun run = CommandRun.of("validate", dir.toString());
        assertThat(run.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(run.out()).contains("namespace/a created").endsWith("1 accepted, 0 rejected, 1 unreadable\n");
        assertThat(run.err().lines()).singleElement().asString().startsWith("error: " + dir.resolve("b.yaml") + ":");
    }

    @Test
    void nothingToValidateIsAUsageErrorThatSaysWhatToGive() {
        CommandRun run = CommandRun.of("validate");
        assertThat(run.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(run.err()).isEqualTo("error: nothing to validate; name files or directories, - for standard input, "
                + "or -k DIR for a kustomization (see 'juneau validate --help')\n");
    }
}
