package me.loutres.juneau.agent.scenario;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import me.loutres.juneau.agent.AgentJvm;
import me.loutres.juneau.apiserver.LocalApiServer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * The node agent's footprint beside N ServiceLoadBalancers (issue 38; benchmarks/agent/memory.sh runs it): the local
 * API server ({@link LocalApiServer}, which pages lists as kube-apiserver does) in this JVM holds N
 * ServiceLoadBalancers as the controller writes them (labels, finalizer, three conditions; no ownerReference, which
 * its garbage collector would follow to a Service that does not exist), of which every {@code every}-th names node {@code node-a} in
 * {@code status.advertisingNodes}; then {@code juneau agent --node node-a} runs as its own JVM with the image's flags
 * ({@link AgentJvm}, plus native memory tracking), on the classpath {@code -Dagent.cp} (default: this one), so two
 * builds are compared against the same server. Once its first list is in and it settled (its own full collection at
 * 10 s), it prints the agent's heap after a full collection ({@code jcmd GC.run}, {@code GC.heap_info}), its VmRSS,
 * its CPU over {@code idle} seconds (utime + stime of /proc/PID/stat) and the NMT summary's totals by category.
 * Arguments: N (10000), every (10), idle seconds (60). Not run by {@code mvn verify}.
 */
public final class AgentFootprintBenchmark {
    private AgentFootprintBenchmark() {
    }

    static String json(int i, boolean onNodeA) {
        String nodes = onNodeA ? "\"node-a\",\"node-b\"" : "\"node-b\",\"node-c\"";
        return "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"ServiceLoadBalancer\",\"metadata\":{\"name\":"
                + "\"s" + i + "\",\"namespace\":\"bulk\",\"labels\":{"
                + "\"juneau.loutres.me/service-name\":\"s" + i + "\",\"juneau.loutres.me/service-namespace\":\"bulk\"},"
                + "\"finalizers\":[\"juneau.loutres.me/finalizer\"]},\"spec\":{\"serviceRef\":{\"name\":\"s" + i + "\"},"
                + "\"externalNetwork\":\"bulk\"},\"status\":{\"vip\":\"198.18." + (128 + i / 250 % 64) + "."
                + (i % 250 + 1) + "\",\"addressPool\":\"bulk\",\"phase\":\"Ready\",\"observedGeneration\":1,"
                + "\"advertisingNodes\":[" + nodes + "],\"conditions\":["
                + condition("Allocated", "VIP from AddressPool bulk") + ","
                + condition("Available", "may be advertised by 2 node(s)") + ","
                + condition("Announced", "Established (tor)") + "]}}";
    }

    static String condition(String type, String message) {
        return "{\"type\":\"" + type + "\",\"status\":\"True\",\"reason\":\"" + type + "\",\"message\":\"" + message
                + "\",\"lastTransitionTime\":\"2026-12-02T06:10:00Z\",\"observedGeneration\":1}";
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int every = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int idle = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        Path dir = Files.createTempDirectory("agent-footprint");
        try (LocalApiServer server = LocalApiServer.start(0)) {
            KubernetesClient client = server.adminClient();
            client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                    .withName("bulk").endMetadata().build()).create();
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build())
                    .create();
            ResourceDefinitionContext slbs = ResourceDefinitionContext.fromResourceType(ServiceLoadBalancer.class);
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<?>> created = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String body = json(i, i % every == 0);
                created.add(pool.submit(() -> {
                    GenericKubernetesResource g = Serialization.unmarshal(body, GenericKubernetesResource.class);
                    Object status = g.getAdditionalProperties().get("status");
                    GenericKubernetesResource made = client.genericKubernetesResources(slbs).inNamespace("bulk")
                            .resource(g).create();
                    made.setAdditionalProperty("status", status); // a create leaves the status out, as kube does
                    return client.genericKubernetesResources(slbs).inNamespace("bulk").resource(made).updateStatus();
                }));
            }
            for (Future<?> f : created) {
                f.get();
            }
            pool.shutdown();
            int stored = (n + every - 1) / every;
            System.out.printf("%d ServiceLoadBalancers stored by the API server, %d of them naming node-a%n", n, stored);
            Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"), "juneau-agent",
                    server.agentToken("node-a"));
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            String flags = System.getProperty("agent.jvm");
            command.addAll(flags != null ? List.of(flags.trim().split("\\s+")) : AgentJvm.FLAGS);
            command.add("-XX:NativeMemoryTracking=summary");
            command.addAll(List.of("-cp", System.getProperty("agent.cp", System.getProperty("java.class.path")),
                    "me.loutres.juneau.agent.AgentCommand", "--node", "node-a", "--kubeconfig", kubeconfig.toString(),
                    "--metrics-port", "0", "--bird", dir.resolve("no-bird").toString(), "--bird-dir",
                    dir.resolve("bird").toString(), "--router-id", "198.18.0.11"));
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("agent.log").toFile());
            pb.environment().putAll(AgentJvm.ENVIRONMENT);
            System.out.println("agent JVM: " + String.join(" ", command.subList(1, command.indexOf("-cp"))));
            Process agent = pb.start();
            long started = System.nanoTime();
            try {
                while (!Files.readString(dir.resolve("agent.log")).contains("first list done")) {
                    if (!agent.isAlive()) {
                        died(agent, dir);
                        return;
                    }
                    if (System.nanoTime() - started > TimeUnit.MINUTES.toNanos(5)) {
                        throw new IllegalStateException("no first list in 5 min:\n"
                                + Files.readString(dir.resolve("agent.log")));
                    }
                    Thread.sleep(200);
                }
                System.out.printf("first list done after %.1f s%n", (System.nanoTime() - started) / 1e9);
                Thread.sleep(15_000); // start-up settles: the agent's own full collection runs at 10 s
                long pid = agent.pid();
                long ticks0 = ticks(pid);
                Thread.sleep(idle * 1000L);
                long ticks1 = ticks(pid);
                if (!agent.isAlive()) {
                    died(agent, dir);
                    return;
                }
                double cpu = (ticks1 - ticks0) / 100.0 / idle * 100;
                long rss = statusKib(pid, "VmRSS");
                System.out.printf("VmRSS: anonymous %.1f MiB, files (libjvm, CDS archive, jars) %.1f MiB%n",
                        statusKib(pid, "RssAnon") / 1024.0, statusKib(pid, "RssFile") / 1024.0);
                jcmd(pid, "GC.run");
                long heap = heapUsedKib(jcmd(pid, "GC.heap_info"));
                System.out.printf("agent idle %d s: CPU %.2f %% of a core; VmRSS %.1f MiB; heap used after a full"
                        + " collection %.2f MiB%n", idle, cpu, rss / 1024.0, heap / 1024.0);
                System.out.printf("HEAP_KIB %d STORED %d N %d%n", heap, n == 0 ? 0 : stored, n);
                if (Boolean.getBoolean("histogram")) { // -Dhistogram=true: the heap's largest classes
                    jcmd(pid, "GC.class_histogram").lines().limit(30).forEach(System.out::println);
                }
                System.out.println("NMT (committed):");
                for (String line : jcmd(pid, "VM.native_memory", "summary").split("\n")) {
                    if (line.startsWith("Total:") || line.matches("^-\\s+[A-Z].*\\(reserved=.*")) {
                        System.out.println("  " + line.replaceAll("reserved=\\d+KB, ", "").trim());
                    }
                }
            } finally {
                agent.destroy();
                agent.waitFor(20, TimeUnit.SECONDS);
                agent.destroyForcibly();
            }
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Says how the agent ended (an OutOfMemoryError is what issue 38 is about): its exit value and the log's cause. */
    static void died(Process agent, Path dir) throws IOException {
        String log = Files.readString(dir.resolve("agent.log"));
        String cause = log.lines().filter(l -> l.contains("OutOfMemoryError") || l.contains("Exception"))
                .findFirst().orElse(log.lines().reduce((a, b) -> b).orElse(""));
        System.out.println("AGENT DIED: exit " + agent.exitValue() + ": " + cause.trim());
    }

    /** utime + stime in clock ticks (100 a second on Linux). */
    static long ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    static long statusKib(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        return -1;
    }

    /** The "used" of the heap's generations (serial collector: def new and tenured). */
    static long heapUsedKib(String heapInfo) {
        long used = 0;
        Matcher m = Pattern.compile("generation\\s+total \\d+K, used (\\d+)K").matcher(heapInfo);
        while (m.find()) {
            used += Long.parseLong(m.group(1));
        }
        return used;
    }

    static String jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                String.valueOf(pid)));
        c.addAll(List.of(command));
        Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }
}
