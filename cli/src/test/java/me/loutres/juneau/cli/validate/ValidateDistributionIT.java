package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The validate distribution the package phase builds (cli/target/juneau-validate-VERSION.zip) runs on its own:
 * unpacked in a temporary directory with no source tree, {@code java -jar juneau-validate.jar validate} accepts the
 * good manifests (exit 0), refuses a bad one (exit 1) with SARIF pointing at the offending field's line.
 */
class ValidateDistributionIT {
    static final Path TARGET = Path.of("target").toAbsolutePath();

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    @Test
    void theUnpackedJarValidatesManifestsFromADirectoryWithoutTheSourceTree() throws Exception {
        Path zip;
        try (Stream<Path> files = Files.list(TARGET)) {
            zip = files.filter(f -> f.getFileName().toString().matches("juneau-validate-.*\\.zip")).findFirst()
                    .orElseThrow(() -> new AssertionError("no juneau-validate-*.zip in " + TARGET
                            + " (built by the package phase, cli/pom.xml)"));
        }
        Path unpacked = Files.createDirectories(dir.resolve("dist"));
        unzip(zip, unpacked);
        Path jar;
        try (Stream<Path> found = Files.walk(unpacked)) {
            jar = found.filter(f -> f.getFileName().toString().equals("juneau-validate.jar")).findFirst().orElseThrow();
        }
        Path work = Files.createDirectories(dir.resolve("repo"));
        Files.copy(ValidateGoldenTest.CASES.resolve("01-good-stack/network.yaml"), work.resolve("network.yaml"));
        Files.copy(ValidateGoldenTest.CASES.resolve("01-good-stack/app.yaml"), work.resolve("app.yaml"));
        // what the cluster already holds (the network app.yaml's Services name), as CiFilesTest's repository has it
        Path state = Files.writeString(dir.resolve("cluster-state.yaml"), Files.readString(Path.of(ValidateGoldenTest.STATE))
                + "\n---\n" + Files.readString(work.resolve("network.yaml")));
        assertThat(work.resolve("pom.xml")).doesNotExist();

        Run good = java(work, jar, "validate", ".", "--cluster-state", state.toString(), "--summary");
        assertThat(good.code()).as(good.err()).isZero();
        assertThat(good.out()).contains("accepted, 0 rejected");

        String refused = Files.readString(work.resolve("app.yaml"))
                .replaceFirst("port: 80, targetPort: 8080", "port: 80, targetPort: 8080, protocol: SCTP");
        Files.writeString(work.resolve("app.yaml"), refused);
        Run bad = java(work, jar, "validate", ".", "--cluster-state", state.toString(), "-o", "sarif");
        assertThat(bad.code()).as(bad.err()).isEqualTo(ValidateCommand.EXIT_REJECTED);
        JsonNode result = new ObjectMapper().readTree(bad.out()).path("runs").get(0).path("results").get(0);
        assertThat(result.path("ruleId").asText()).isEqualTo("denied");
        JsonNode region = result.path("locations").get(0).path("physicalLocation").path("region");
        List<String> lines = Files.readAllLines(work.resolve("app.yaml"));
        assertThat(lines.get(region.path("startLine").asInt() - 1)).as(result.toString()).contains("protocol: SCTP");
    }

    static void unzip(Path zip, Path into) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            ZipEntry e;
            while ((e = in.getNextEntry()) != null) {
                Path out = into.resolve(e.getName()).normalize();
                assertThat(out.startsWith(into)).as("%s stays in %s", out, into).isTrue();
                if (e.isDirectory()) {
                    Files.createDirectories(out);
                } else {
                    Files.createDirectories(out.getParent());
                    Files.copy(in, out);
                }
            }
        }
    }

    static Run java(Path cwd, Path jar, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(cwd.getParent(), "out", ".txt");
        Path err = Files.createTempFile(cwd.getParent(), "err", ".txt");
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("java -jar did not end in 120 s");
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
