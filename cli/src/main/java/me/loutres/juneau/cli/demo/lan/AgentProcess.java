package me.loutres.juneau.cli.demo.lan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.agent.AgentJvm;
import me.loutres.juneau.cli.CodedLogging;

/**
 * A real node agent in its own JVM inside a node's namespace ({@code ip netns exec <ns> java ... agent}); the test
 * stops only this process, by its pid (ip netns exec replaces itself with java, so the pid is the JVM's).
 */
public final class AgentProcess implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final String node;

    private AgentProcess(Process process, Path log, String node) {
        this.process = process;
        this.log = log;
        this.node = node;
    }

    public static AgentProcess start(String namespace, String node, Path kubeconfig, Path logDir, boolean gratuitousArp)
            throws IOException {
        return start(namespace, node, kubeconfig, logDir, gratuitousArp, List.of(), List.of());
    }

    /**
     * @param jvmArgs   extra JVM options (a benchmark's heap size, for instance)
     * @param agentArgs extra {@code juneau agent} options ({@code --interface eth0}, for instance)
     */
    public static AgentProcess start(String namespace, String node, Path kubeconfig, Path logDir, boolean gratuitousArp,
            List<String> jvmArgs, List<String> agentArgs) throws IOException {
        return start(namespace, node, kubeconfig, logDir, gratuitousArp, AgentJvm.FLAGS,
                System.getProperty("java.class.path"), jvmArgs, agentArgs);
    }

    /**
     * @param baseJvm   the agent's JVM options ({@link AgentJvm#FLAGS}, what the DaemonSet runs; a benchmark's
     *                  baseline may give others)
     * @param classPath the agent's class path (a benchmark's baseline may run other jars)
     */
    public static AgentProcess start(String namespace, String node, Path kubeconfig, Path logDir, boolean gratuitousArp,
            List<String> baseJvm, String classPath, List<String> jvmArgs, List<String> agentArgs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", namespace,
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(baseJvm);
        // the command line's own logging (INFO, one line per state change), not a test classpath's: the shipped
        // logging in code when these are the shipped flags, else (a baseline's older jars) the command line's logback.xml
        cmd.add(baseJvm.equals(AgentJvm.FLAGS) ? "-D" + CodedLogging.SHIPPED + "=true"
                : "-Dlogback.configurationFile=logback.xml");
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", classPath,
                "me.loutres.juneau.agent.AgentCommand", "--node", node, "--kubeconfig", kubeconfig.toString(),
                "--metrics-bind", "127.0.0.1", "--metrics-port", "7473"));
        if (!gratuitousArp) {
            cmd.add("--no-gratuitous-arp");
        }
        cmd.addAll(agentArgs);
        Path log = logDir.resolve("agent-" + node + (gratuitousArp ? "" : "-no-garp") + ".log");
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        // the DaemonSet's environment (malloc arenas), unless this JVM was given its own (a benchmark's baseline)
        AgentJvm.ENVIRONMENT.forEach(builder.environment()::putIfAbsent);
        Process p = builder.start();
        return new AgentProcess(p, log, node);
    }

    public long pid() {
        return process.pid();
    }

    public String node() {
        return node;
    }

    public boolean alive() {
        return process.isAlive();
    }

    public void freeze() throws IOException, InterruptedException {
        Netns.run("kill", "-STOP", Long.toString(process.pid()));
    }

    public void thaw() throws IOException, InterruptedException {
        Netns.run("kill", "-CONT", Long.toString(process.pid()));
    }

    /** SIGTERM and wait: the agent stops answering and releases its Lease. */
    public void stop() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        try {
            thaw();
        } catch (IOException ignored) {
            // not stopped, or already gone
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }

    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
