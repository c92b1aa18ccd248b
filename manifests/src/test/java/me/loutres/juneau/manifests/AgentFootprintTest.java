package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The node agent runs on every node, so its JVM flags and its resources are what one node pays (README, "What one
 * node pays"; BENCHMARKS.md, "Node agent: what one node pays"): the image's ENTRYPOINT, the DaemonSet, {@code
 * bin/juneau agent} and the namespace-LAN tests' agents ({@code AgentJvm.FLAGS}) run the same flags, and the
 * DaemonSet's requests and limit are those the measurements gave, with room for what the flags bound.
 */
class AgentFootprintTest {
    /** A JVM option ({@code -X...}) or one of Juneau's own system properties ({@code -Djuneau....}), should one be added. */
    static final Pattern QUOTED_FLAG = Pattern.compile("\"(-X[^\"]+|-Djuneau\\.[^\"]+)\"");

    /** The flags in {@code agent/src/main/java/.../AgentJvm.java}, in order. */
    static List<String> agentJvmFlags() throws IOException {
        String src = Files.readString(
                DockerfilesTest.ROOT.resolve("agent/src/main/java/me/loutres/juneau/agent/AgentJvm.java"));
        return quotedFlags(src.substring(src.indexOf("FLAGS = List.of(")));
    }

    static List<String> quotedFlags(String text) {
        List<String> flags = new ArrayList<>();
        Matcher m = QUOTED_FLAG.matcher(text);
        while (m.find()) {
            flags.add(m.group(1));
        }
        return flags;
    }

    static JsonNode agentContainer(Install install) {
        List<JsonNode> pods = DockerfilesTest.pods(install, "agent");
        assertThat(pods).as("the agent's pod in %s", install).hasSize(1);
        return pods.get(0).path("containers").get(0);
    }

    @Test
    void theImageTheDaemonSetAndTheCommandLineRunTheAgentWithTheSameFlags() throws IOException {
        List<String> flags = agentJvmFlags();
        assertThat(flags).contains("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError")
                .anyMatch(f -> f.startsWith("-Xmx")).anyMatch(f -> f.startsWith("-XX:MaxMetaspaceSize="))
                .anyMatch(f -> f.startsWith("-XX:ReservedCodeCacheSize=")).anyMatch(f -> f.startsWith("-Xss"))
                .noneMatch(f -> f.startsWith("-XX:MaxRAMPercentage"));

        String entrypoint = DockerfilesTest.dockerfile("agent").lines().filter(l -> l.startsWith("ENTRYPOINT"))
                .findFirst().orElseThrow();
        assertThat(quotedFlags(entrypoint)).as("agent/Dockerfile ENTRYPOINT").isEqualTo(flags);

        String script = Files.readString(DockerfilesTest.ROOT.resolve("bin/juneau"));
        Matcher agentCase = Pattern.compile("(?m)^\\s*agent\\) jvm_flags=\\(([^)]*)\\)").matcher(script);
        assertThat(agentCase.find()).as("bin/juneau sets the agent's flags").isTrue();
        assertThat(List.of(agentCase.group(1).trim().split("\\s+"))).as("bin/juneau agent").isEqualTo(flags);

        for (Install i : Install.both()) {
            JsonNode env = agentContainer(i).path("env");
            String toolOptions = null;
            for (JsonNode e : env) {
                if ("JAVA_TOOL_OPTIONS".equals(e.path("name").asText())) {
                    toolOptions = e.path("value").asText();
                }
            }
            assertThat(toolOptions).as("the DaemonSet's JAVA_TOOL_OPTIONS in %s", i).isNotNull();
            assertThat(List.of(toolOptions.trim().split("\\s+"))).as("the DaemonSet in %s", i).isEqualTo(flags);
        }
    }

    /** {@code ENVIRONMENT = Map.of("NAME", "value", ...)} in AgentJvm.java, as NAME=value. */
    static List<String> agentJvmEnvironment() throws IOException {
        String src = Files.readString(
                DockerfilesTest.ROOT.resolve("agent/src/main/java/me/loutres/juneau/agent/AgentJvm.java"));
        String map = src.substring(src.indexOf("ENVIRONMENT = Map.of("), src.indexOf(");", src.indexOf("ENVIRONMENT")));
        Matcher m = Pattern.compile("\"(\\w+)\", \"([^\"]*)\"").matcher(map);
        List<String> env = new ArrayList<>();
        while (m.find()) {
            env.add(m.group(1) + "=" + m.group(2));
        }
        return env;
    }

    @Test
    void theImageTheDaemonSetAndTheCommandLineGiveTheAgentTheSameEnvironment() throws IOException {
        List<String> env = agentJvmEnvironment();
        assertThat(env).as("AgentJvm.ENVIRONMENT").contains("MALLOC_ARENA_MAX=2");

        List<String> dockerfileEnv = DockerfilesTest.dockerfile("agent").lines().filter(l -> l.startsWith("ENV "))
                .map(l -> l.substring(4).trim()).toList();
        assertThat(dockerfileEnv).as("agent/Dockerfile ENV").containsAll(env);

        String script = Files.readString(DockerfilesTest.ROOT.resolve("bin/juneau"));
        for (String e : env) {
            String name = e.substring(0, e.indexOf('='));
            String value = e.substring(e.indexOf('=') + 1);
            // an operator's own value wins on the command line
            assertThat(script).as("bin/juneau agent exports %s", name)
                    .contains("export " + name + "=\"${" + name + ":-" + value + "}\"");
        }

        for (Install i : Install.both()) {
            List<String> daemonSetEnv = new ArrayList<>();
            for (JsonNode e : agentContainer(i).path("env")) {
                if (e.has("value")) {
                    daemonSetEnv.add(e.path("name").asText() + "=" + e.path("value").asText());
                }
            }
            assertThat(daemonSetEnv).as("the DaemonSet's env in %s", i).containsAll(env);
        }
    }

    @Test
    void theDaemonSetRequestsWhatTheAgentMeasuredAndItsLimitHoldsWhatTheFlagsBound() throws IOException {
        List<String> flags = agentJvmFlags();
        long bounded = mebibytes(flag(flags, "-Xmx")) + mebibytes(flag(flags, "-XX:MaxMetaspaceSize="))
                + mebibytes(flag(flags, "-XX:ReservedCodeCacheSize="));
        for (Install i : Install.both()) {
            JsonNode resources = agentContainer(i).path("resources");
            long requestMemory = mebibytes(resources.path("requests").path("memory").asText());
            long limitMemory = mebibytes(resources.path("limits").path("memory").asText());
            String requestCpu = resources.path("requests").path("cpu").asText();
            // measured (BENCHMARKS.md): about 125 MiB idle, 138 MiB owning 1,000 VIPs; the request is a busy node's
            assertThat(requestMemory).as("requests.memory in %s", i).isBetween(128L, 160L);
            // the JVM's own bounds (heap, metaspace, compiled code) trip before the kernel's OOM killer does
            assertThat(limitMemory).as("limits.memory in %s", i).isGreaterThan(bounded).isGreaterThan(requestMemory)
                    .isLessThanOrEqualTo(192L);
            assertThat(requestCpu).as("requests.cpu in %s", i).matches("\\d+m");
            assertThat(Integer.parseInt(requestCpu.replace("m", ""))).isBetween(5, 100);
        }
    }

    static String flag(List<String> flags, String prefix) {
        return flags.stream().filter(f -> f.startsWith(prefix)).findFirst().orElseThrow().substring(prefix.length());
    }

    /** "48m", "64M", "96Mi", "1Gi" in MiB. */
    static long mebibytes(String quantity) {
        Matcher m = Pattern.compile("(\\d+)([kKmMgG])i?").matcher(quantity.trim());
        assertThat(m.matches()).as("a memory quantity: %s", quantity).isTrue();
        long n = Long.parseLong(m.group(1));
        return switch (Character.toLowerCase(m.group(2).charAt(0))) {
            case 'k' -> n / 1024;
            case 'g' -> n * 1024;
            default -> n;
        };
    }
}
