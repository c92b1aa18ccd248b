package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.cli.CommandRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI files docs/ci.md shows (docs/ci/: GitHub Actions, GitLab CI, a pre-commit hook) run their own
 * {@code juneau validate} command lines, as written, over a repository laid out as they expect ({@code deploy/},
 * {@code ci/cluster-state.yaml}): good manifests pass with the report the file keeps; a refused one fails the job.
 */
class CiFilesTest {
    static final Path CI = Path.of("../docs/ci");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path repo;

    @BeforeEach
    void repository() throws Exception {
        Files.createDirectories(repo.resolve("deploy"));
        Files.createDirectories(repo.resolve("ci"));
        for (String f : List.of("network.yaml", "app.yaml")) {
            Files.copy(ValidateGoldenTest.CASES.resolve("01-good-stack").resolve(f), repo.resolve("deploy").resolve(f));
        }
        // an export of the cluster, which already holds the network the Services use (a commit may change only them)
        Files.writeString(repo.resolve("ci/cluster-state.yaml"), Files.readString(Path.of(ValidateGoldenTest.STATE))
                + "\n---\n" + Files.readString(repo.resolve("deploy/network.yaml")));
    }

    /**
     * A shell line {@code bin/juneau validate ARGS [> FILE]} (or {@code juneau validate}, {@code java -jar
     * .../juneau-validate.jar validate}) run in this JVM, relative paths taken from the repo.
     */
    record Line(List<String> args, String redirect) {
        static Line parse(String shell) {
            String command = shell.strip();
            String redirect = null;
            int gt = command.indexOf('>');
            if (gt >= 0) {
                redirect = command.substring(gt + 1).strip();
                command = command.substring(0, gt).strip();
            }
            List<String> words = new ArrayList<>(List.of(command.split("\\s+")));
            int at = words.indexOf("validate");
            // the launchers the files may use: the source tree's script, the validate image's juneau, the
            // distribution's jar (these run the same command line, which this test runs in-process)
            assertThat(String.join(" ", words.subList(0, Math.max(at, 0)))).as(shell)
                    .matches("bin/juneau|juneau|java -jar \\S*juneau-validate\\.jar");
            return new Line(words.subList(at, words.size()), redirect);
        }

        CommandRun run(Path repo, List<String> extra) throws Exception {
            List<String> resolved = new ArrayList<>();
            for (String a : args) {
                resolved.add(!a.startsWith("-") && (a.contains("/") || a.endsWith(".yaml")) ? repo.resolve(a).toString() : a);
            }
            extra.forEach(e -> resolved.add(repo.resolve(e).toString()));
            CommandRun r = CommandRun.of(resolved.toArray(String[]::new));
            if (redirect != null) {
                Files.writeString(repo.resolve(redirect), r.out());
            }
            return r;
        }
    }

    static List<String> validateLines(JsonNode node, String field) {
        List<String> lines = new ArrayList<>();
        node.findValues(field).forEach(v -> (v.isArray() ? v : YAML.createArrayNode().add(v)).forEach(s -> {
            if (s.asText().contains("juneau validate") || s.asText().contains("juneau-validate.jar validate")) {
                lines.add(s.asText());
            }
        }));
        return lines;
    }

    @Test
    void theGithubWorkflowWritesValidSarifAndJunitAndFailsOnARefusal() throws Exception {
        JsonNode workflow = YAML.readTree(CI.resolve("github-actions.yml").toFile());
        List<String> lines = validateLines(workflow, "run");
        assertThat(lines).hasSize(2).allSatisfy(l -> assertThat(l).startsWith("java -jar juneau-validate/juneau-validate.jar"));
        // without the source tree: the distribution is fetched, no step builds Juneau
        assertThat(workflow.toString()).contains("unzip -q juneau-validate.zip").doesNotContain("bin/juneau")
                .doesNotContain("mvn ");
        for (String l : lines) {
            assertThat(Line.parse(l).run(repo, List.of()).exit()).as(l).isZero();
        }
        JsonNode sarif = new ObjectMapper().readTree(repo.resolve("juneau.sarif").toFile());
        assertThat(ValidateReportsTest.sarifSchema().validate(sarif)).isEmpty();
        assertThat(Files.readString(repo.resolve("juneau-junit.xml"))).contains("<testsuite name=\"juneau validate\" tests=\"6\"");
        refuseOne();
        assertThat(Line.parse(lines.get(0)).run(repo, List.of()).exit()).isEqualTo(ValidateCommand.EXIT_REJECTED);
        assertThat(new ObjectMapper().readTree(repo.resolve("juneau.sarif").toFile()).findValues("ruleId"))
                .extracting(JsonNode::asText).contains("denied");
    }

    @Test
    void theGitlabJobWritesTheJunitReportItDeclares() throws Exception {
        JsonNode job = YAML.readTree(CI.resolve("gitlab-ci.yml").toFile()).path("juneau-validate");
        List<String> lines = validateLines(job, "script");
        assertThat(lines).hasSize(1);
        assertThat(job.path("image").path("name").asText()).endsWith("/validate:0.1.0");
        assertThat(job.path("image").path("entrypoint").get(0).asText()).isEmpty();
        Line line = Line.parse(lines.get(0));
        assertThat(line.redirect()).isEqualTo(job.path("artifacts").path("reports").path("junit").asText());
        CommandRun run = line.run(repo, List.of());
        assertThat(run.exit()).isZero();
        assertThat(run.err()).isEqualTo("6 accepted, 0 rejected (2 files)\n");
        refuseOne();
        assertThat(line.run(repo, List.of()).exit()).isEqualTo(ValidateCommand.EXIT_REJECTED);
        assertThat(Files.readString(repo.resolve(line.redirect()))).contains("<failure type=\"Forbidden\"");
    }

    @Test
    void thePreCommitHookValidatesTheChangedFilesItIsGiven() throws Exception {
        JsonNode hook = YAML.readTree(CI.resolve("pre-commit-config.yaml").toFile()).path("repos").get(0).path("hooks").get(0);
        Line line = Line.parse(hook.path("entry").asText());
        java.util.regex.Pattern files = java.util.regex.Pattern.compile(hook.path("files").asText());
        // pre-commit passes the changed files its pattern matches after the entry
        List<String> changed = List.of("deploy/app.yaml", "README.md").stream().filter(f -> files.matcher(f).find()).toList();
        assertThat(changed).containsExactly("deploy/app.yaml");
        CommandRun run = line.run(repo, changed);
        assertThat(run.exit()).as(run.transcript()).isZero();
        assertThat(run.out()).endsWith("4 accepted, 0 rejected\n");
        refuseOne();
        CommandRun refused = line.run(repo, changed);
        assertThat(refused.exit()).isEqualTo(ValidateCommand.EXIT_REJECTED);
        // --summary: the refusal and the count, not every accepted object
        assertThat(refused.out()).contains("\"SCTP\" is not supported").doesNotContain("service/front created");
    }

    /** A Service that asks for SCTP, which Juneau refuses. */
    private void refuseOne() throws Exception {
        Path app = repo.resolve("deploy/app.yaml");
        Files.writeString(app, Files.readString(app).replaceFirst("port: 80, targetPort: 8080", "port: 80, targetPort: 8080, protocol: SCTP"));
    }
}
