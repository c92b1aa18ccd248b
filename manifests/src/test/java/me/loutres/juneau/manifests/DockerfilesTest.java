package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the text of the Dockerfiles promises (cli's ImagesIT builds and runs them): a JRE base that is a build
 * argument, a non-root numeric user equal to the pods' runAsUser, the jars Maven really produces, the licence and
 * notices, the subcommand each image runs, and that the manifests use the image each Dockerfile says it builds.
 */
class DockerfilesTest {
    static final Path ROOT = Path.of("..");

    static String dockerfile(String part) throws IOException {
        Path f = ROOT.resolve(part).resolve("Dockerfile");
        assertThat(f).as("a Dockerfile for %s", part).exists();
        return Files.readString(f);
    }

    @ParameterizedTest
    @ValueSource(strings = {"controller", "webhook", "certs"})
    void simpleNonRootJreImageRunningItsSubcommand(String part) throws IOException {
        String text = dockerfile(part);
        List<String> lines = text.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertThat(lines.subList(0, 2)).containsExactly("ARG BASE=eclipse-temurin:17-jre", "FROM ${BASE}");
        assertThat(lines.stream().filter(l -> l.startsWith("FROM"))).hasSize(1);
        assertThat(lines).contains("COPY LICENSE NOTICE THIRD-PARTY.md /opt/juneau/");
        assertThat(lines).noneMatch(l -> l.startsWith("ADD"));
        // the webhook's one RUN makes its class-data sharing archive (its own test below); the others have none
        assertThat(lines.stream().filter(l -> l.startsWith("RUN"))).hasSize(part.equals("webhook") ? 1 : 0);

        Matcher user = Pattern.compile("(?m)^USER (\\d+):(\\d+)$").matcher(text);
        assertThat(user.find()).as("%s has a numeric USER", part).isTrue();
        int uid = Integer.parseInt(user.group(1));
        assertThat(uid).isPositive();
        for (Install i : Install.both()) {
            for (JsonNode pod : pods(i, part)) {
                assertThat(pod.path("securityContext").path("runAsUser").asInt()).as("%s runAsUser in %s", part, i).isEqualTo(uid);
            }
        }

        assertThat(lines).contains("COPY cli/target/lib/ /opt/juneau/lib/", "COPY cli/target/cli-*.jar /opt/juneau/lib/");
        String cliPom = Files.readString(ROOT.resolve("cli/pom.xml"));
        assertThat(cliPom).contains("<outputDirectory>${project.build.directory}/lib</outputDirectory>")
                .contains("<artifactId>cli</artifactId>");
        String entrypoint = lines.stream().filter(l -> l.startsWith("ENTRYPOINT")).findFirst().orElseThrow();
        assertThat(entrypoint).contains("\"me.loutres.juneau.cli.Juneau\", \"" + part + "\"]").contains("\"/opt/juneau/lib/*\"");
        assertThat(Files.readString(ROOT.resolve("cli/src/main/java/me/loutres/juneau/cli/Juneau.java")))
                .contains("public static void main(String[] args)");
        assertThat(subcommandNames()).as("a picocli command named %s exists", part).contains(part);

        Matcher tag = Pattern.compile("docker build -f " + part + "/Dockerfile -t (\\S+) \\.").matcher(text);
        assertThat(tag.find()).isTrue();
        String image = tag.group(1);
        for (Install i : Install.both()) {
            for (JsonNode pod : pods(i, part)) {
                List<String> images = pod.findValuesAsText("image");
                assertThat(images).as("images of %s in %s", part, i).isNotEmpty().allMatch(image::equals);
            }
        }
    }

    @Test
    void theBuildContextHoldsOnlyWhatTheDockerfilesCopy() throws IOException {
        // the context is the repository: without this, the cached base tar and every module's target/ would be sent
        List<String> ignore = Files.readAllLines(ROOT.resolve(".dockerignore")).stream().map(String::trim)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertThat(ignore).startsWith("*").contains("!cli/target/lib/", "!cli/target/cli-*.jar", "!LICENSE", "!NOTICE",
                "!THIRD-PARTY.md");
        assertThat(ROOT.resolve("LICENSE")).content().contains("Apache License", "Version 2.0, January 2004");
    }

    @Test
    void theCertsImageRunsTheCommandsTheJobCalls() throws IOException {
        String certs = Files.readString(ROOT.resolve("certs/src/main/java/me/loutres/juneau/certs/CertsCommand.java"));
        assertThat(certs).contains("GenerateCommand.class", "InjectCommand.class");
        assertThat(Files.readString(ROOT.resolve("cli/src/main/java/me/loutres/juneau/cli/Juneau.java"))).contains("CertsCommand.class");
    }

    @Test
    void theAgentImageRunsAsUidZeroExactlyAsItsDaemonSetSaysAndRunsTheAgentSubcommand() throws IOException {
        String text = dockerfile("agent");
        List<String> lines = text.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertThat(lines.subList(0, 2)).containsExactly("ARG BASE=eclipse-temurin:17-jre", "FROM ${BASE}");
        // BIRD 2, the agent's BGP daemon, comes from the base when it has it, else from its packages
        assertThat(lines.stream().filter(l -> l.startsWith("RUN"))).singleElement().asString()
                .startsWith("RUN command -v bird >/dev/null 2>&1 || (apt-get update && apt-get install -y --no-install-recommends bird2");
        assertThat(lines).noneMatch(l -> l.startsWith("ADD"))
                .contains("COPY cli/target/lib/ /opt/juneau/lib/", "COPY cli/target/cli-*.jar /opt/juneau/lib/", "USER 0:0",
                        "COPY LICENSE NOTICE THIRD-PARTY.md /opt/juneau/");
        assertThat(lines.stream().filter(l -> l.startsWith("ENTRYPOINT")).findFirst().orElseThrow())
                .endsWith("\"me.loutres.juneau.cli.Juneau\", \"agent\"]");
        assertThat(subcommandNames()).contains("agent");
        for (Install i : Install.both()) {
            List<JsonNode> pods = pods(i, "agent");
            assertThat(pods).as("the agent's pod in %s", i).hasSize(1);
            assertThat(pods.get(0).path("securityContext").path("runAsUser").asInt(-1)).isZero();
            assertThat(pods.get(0).findValuesAsText("image")).containsOnly("localhost/juneau/agent:0.1.0");
        }
    }

    /**
     * The webhook image makes its class-data sharing archive at build time, with its own JVM and class path (an archive
     * only matches those), and starts from it with -Xshare:auto, so an archive whose making failed only costs start-up
     * time. The optimising compiler keeps the JVM's thresholds: raised, they left the request path in profiling code for
     * the first 100,000 reviews (BENCHMARKS.md, "Webhook steady and cold"); bin/juneau likewise.
     */
    @Test
    void theWebhookImageStartsFromAClassDataArchiveItMadeAndKeepsTheJvmCompilerThresholds() throws IOException {
        String text = dockerfile("webhook");
        Matcher dump = Pattern.compile("-Xshare:dump -XX:SharedClassListFile=(\\S+) -XX:SharedArchiveFile=(\\S+)").matcher(text);
        assertThat(dump.find()).as("the image dumps a static archive").isTrue();
        assertThat(text).contains("-XX:DumpLoadedClassList=" + dump.group(1) + " -cp '/opt/juneau/lib/*' me.loutres.juneau.cli.CdsTraining")
                .contains("-cp '/opt/juneau/lib/*'").contains("|| rm -f " + dump.group(2));
        String entrypoint = text.lines().filter(l -> l.startsWith("ENTRYPOINT")).findFirst().orElseThrow();
        assertThat(entrypoint).contains("\"-XX:SharedArchiveFile=" + dump.group(2) + "\", \"-Xshare:auto\"")
                .contains("\"-cp\", \"/opt/juneau/lib/*\"").doesNotContain("Tier4");
        String binJuneau = Files.readString(ROOT.resolve("bin/juneau"));
        assertThat(binJuneau).doesNotContain("-XX:Tier4");
        assertThat(Files.readString(ROOT.resolve("cli/pom.xml"))).contains("<argument>-Xshare:dump</argument>",
                "<argument>me.loutres.juneau.cli.CdsTraining</argument>");
    }

    /** Pod specs that run a part's image: by component label. */
    /**
     * The webhook's heap, and its first heap, are sized for its container (percentages of the memory limit the
     * Deployment sets) and {@code bin/juneau webhook} runs with the same heap and first heap, so what was measured
     * with one holds for the other
     * (BENCHMARKS.md, admission review cost by cluster size).
     */
    @Test
    void theWebhookHeapFollowsItsContainerLimitAndBinJuneauUsesTheSameHeap() throws IOException {
        String entrypoint = dockerfile("webhook").lines().filter(l -> l.startsWith("ENTRYPOINT")).findFirst().orElseThrow();
        Matcher percent = Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(entrypoint);
        assertThat(percent.find()).as("the image sizes its heap from the container limit").isTrue();
        // and its first heap: the JVM's own (1.6 % of the limit) collected thirteen times before the first /readyz
        Matcher initial = Pattern.compile("-XX:InitialRAMPercentage=(\\d+)").matcher(entrypoint);
        assertThat(initial.find()).as("the image sizes its first heap from the container limit").isTrue();
        assertThat(entrypoint).contains("-XX:+UseSerialGC");
        for (Install i : Install.both()) {
            for (JsonNode pod : pods(i, "webhook")) {
                JsonNode resources = pod.path("containers").get(0).path("resources");
                String limit = resources.path("limits").path("memory").asText();
                String request = resources.path("requests").path("memory").asText();
                assertThat(limit).as("memory limit in %s", i).matches("\\d+Mi");
                assertThat(request).as("memory request in %s", i).matches("\\d+Mi");
                int limitMi = Integer.parseInt(limit.replace("Mi", ""));
                assertThat(Integer.parseInt(request.replace("Mi", ""))).isLessThanOrEqualTo(limitMi);
                long heapMi = limitMi * Long.parseLong(percent.group(1)) / 100;
                Matcher xmx = Pattern.compile("-Xmx(\\d+)m").matcher(Files.readString(ROOT.resolve("bin/juneau")));
                assertThat(xmx.find()).as("bin/juneau webhook has an explicit heap").isTrue();
                assertThat(Long.parseLong(xmx.group(1))).as("bin/juneau's heap against the image's in %s", i).isEqualTo(heapMi);
                Matcher xms = Pattern.compile("jvm_flags=\\(-Xms(\\d+)m -Xmx").matcher(Files.readString(ROOT.resolve("bin/juneau")));
                assertThat(xms.find()).as("bin/juneau webhook has an explicit first heap").isTrue();
                assertThat(Long.parseLong(xms.group(1))).as("bin/juneau's first heap against the image's in %s", i)
                        .isEqualTo(limitMi * Long.parseLong(initial.group(1)) / 100);
            }
        }
    }

    /**
     * The controller's heap likewise: a percentage of its container limit with the serial collector, and {@code
     * bin/juneau controller} with the same heap, so its measured memory at 10,000 Services holds for both
     * (BENCHMARKS.md, controller memory at 10,000 Services).
     */
    @Test
    void theControllerHeapFollowsItsContainerLimitAndBinJuneauUsesTheSameHeap() throws IOException {
        String entrypoint = dockerfile("controller").lines().filter(l -> l.startsWith("ENTRYPOINT")).findFirst().orElseThrow();
        Matcher percent = Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(entrypoint);
        assertThat(percent.find()).as("the image sizes its heap from the container limit").isTrue();
        assertThat(entrypoint).contains("-XX:+UseSerialGC");
        Matcher bin = Pattern.compile("controller\\) jvm_flags=\\(-Xmx(\\d+)m -XX:\\+UseSerialGC")
                .matcher(Files.readString(ROOT.resolve("bin/juneau")));
        assertThat(bin.find()).as("bin/juneau controller has an explicit heap and the serial collector").isTrue();
        Matcher binFlags = Pattern.compile("controller\\) jvm_flags=\\(([^)]*)\\)")
                .matcher(Files.readString(ROOT.resolve("bin/juneau")));
        assertThat(binFlags.find()).isTrue();
        assertThat(entrypoint).as("the image compiles with C1 only, as measured").contains("-XX:TieredStopAtLevel=1");
        assertThat(binFlags.group(1)).as("bin/juneau controller likewise").contains("-XX:TieredStopAtLevel=1");
        for (Install i : Install.both()) {
            List<JsonNode> pods = pods(i, "controller");
            assertThat(pods).as("the controller's pod in %s", i).isNotEmpty();
            for (JsonNode pod : pods) {
                JsonNode resources = pod.path("containers").get(0).path("resources");
                String limit = resources.path("limits").path("memory").asText();
                String request = resources.path("requests").path("memory").asText();
                assertThat(limit).as("memory limit in %s", i).matches("\\d+Mi");
                assertThat(request).as("memory request in %s", i).matches("\\d+Mi");
                int limitMi = Integer.parseInt(limit.replace("Mi", ""));
                assertThat(Integer.parseInt(request.replace("Mi", ""))).isLessThanOrEqualTo(limitMi);
                assertThat(Long.parseLong(bin.group(1))).as("bin/juneau's heap against the image's in %s", i)
                        .isEqualTo(limitMi * Long.parseLong(percent.group(1)) / 100);
            }
        }
    }

    static List<JsonNode> pods(Install install, String part) {
        return install.objects().stream().filter(o -> part.equals(o.path("metadata").path("labels").path("app.kubernetes.io/component").asText()))
                .map(o -> switch (o.path("kind").asText()) {
                    case "Deployment", "Job", "DaemonSet" -> o.path("spec").path("template").path("spec");
                    case "CronJob" -> o.path("spec").path("jobTemplate").path("spec").path("template").path("spec");
                    default -> null;
                }).filter(p -> p != null).toList();
    }

    static Set<String> subcommandNames() throws IOException {
        Set<String> names = new HashSet<>();
        Pattern p = Pattern.compile("@Command\\(name = \"([a-z-]+)\"");
        for (String module : List.of("certs", "controller", "webhook", "agent", "cli")) {
            Path src = ROOT.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(src)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(src)) {
                for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                    Matcher m = p.matcher(Files.readString(f));
                    while (m.find()) {
                        names.add(m.group(1));
                    }
                }
            }
        }
        return names;
    }
}
