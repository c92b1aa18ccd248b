package me.loutres.juneau.cli.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.apiserver.LocalApiServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code juneau up}: the demo's three parts, kept running for kubectl until interrupted. */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = {"Starts the embedded API server, the webhook and the controller and keeps them running until",
                "interrupted (Ctrl-C). Writes a kubeconfig for kubectl: apply (client- and server-side), create,",
                "get (-w), patch (all three types), describe, events, explain, delete and auth can-i behave as on",
                "a cluster for Services, EndpointSlices, Nodes, Events and Juneau's kinds. Every request needs",
                "a kubeconfig's token and is authorized with RBAC (the manifests' roles). Beside the admin",
                "kubeconfig FILE it writes FILE.controller and one FILE.agent.NODE per node (node-a, node-b,",
                "node-c): each component identity's own."})
public final class UpCommand implements Callable<Integer> {
    @Option(names = "--kubeconfig-out", paramLabel = "FILE", defaultValue = "juneau-local.kubeconfig",
            description = "Where to write the kubeconfig (default: ${DEFAULT-VALUE}).")
    Path kubeconfigOut;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "0",
            description = "API server port on 127.0.0.1 (default: any free port).")
    int port;

    @Option(names = "--no-nodes", description = "Do not create the three local Nodes (node-a, node-b, node-c).")
    boolean noNodes;

    @Option(names = "--no-controller", description = {"Do not run a controller: start as many as you like beside",
            "it (juneau controller --kubeconfig FILE.controller), stop and kill them, as in a cluster."})
    boolean noController;

    private final PrintStream out;
    private final CountDownLatch stop;
    private final Consumer<LocalApiServer> onApiStarted;

    public UpCommand() {
        this(System.out, null);
    }

    /** For tests: returns when the latch opens instead of waiting for a signal. */
    UpCommand(PrintStream out, CountDownLatch stop) {
        this(out, stop, api -> { });
    }

    /**
     * For tests that need to see every request the API server serves, with its sender (HaControllersIT counts the
     * writes of a controller process whose term has ended): {@code onApiStarted} gets the server before anything
     * is written.
     */
    UpCommand(PrintStream out, CountDownLatch stop, Consumer<LocalApiServer> onApiStarted) {
        this.out = out;
        this.stop = stop;
        this.onApiStarted = onApiStarted;
    }

    /** {@code FILE.controller} beside {@code FILE}. */
    static Path beside(Path file, String identity) {
        return file.resolveSibling(file.getFileName() + "." + identity);
    }

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            out.println("juneau up: --port " + port + " is not a port; use 1-65535, or 0 for any free port");
            return 2;
        }
        LocalStack stack;
        try {
            stack = noController ? LocalStack.withoutController(port, 0, !noNodes)
                    : LocalStack.start(port, 0, !noNodes);
        } catch (IOException e) {
            out.println("juneau up: " + e.getMessage());
            return 2;
        }
        onApiStarted.accept(stack.api());
        CountDownLatch done = stop != null ? stop : new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            done.countDown();
            stack.close();
        }, "juneau-up-shutdown");
        if (stop == null) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            Path kubeconfig = stack.api().writeKubeconfig(kubeconfigOut);
            // one per component identity, so a controller or an agent started beside it acts as in a cluster
            Path controllerKubeconfig = stack.api().writeKubeconfig(beside(kubeconfigOut, "controller"),
                    "juneau-controller", Identities.CONTROLLER_TOKEN);
            // one per node: an agent's token names its node, so it may write only that node's status
            List<Path> agentKubeconfigs = new ArrayList<>();
            for (String node : LocalStack.NODE_NAMES) {
                agentKubeconfigs.add(stack.api().writeKubeconfig(beside(kubeconfigOut, "agent." + node),
                        "juneau-agent", stack.api().agentToken(node)));
            }
            if (!stack.awaitReady(Duration.ofSeconds(30))) {
                out.println("juneau up: " + (noController ? "the webhook" : "the controller")
                        + " did not become ready within 30 s");
                stack.close();
                return 2;
            }
            out.println("Juneau LB is up on this machine:");
            out.println("  API server  " + stack.api().url() + "  (bearer tokens; RBAC of manifests/)");
            out.println("  webhook     https://127.0.0.1:" + stack.webhookPort());
            if (stack.controller() != null) {
                out.println("  controller  leader, metrics on http://127.0.0.1:" + stack.controller().metricsPort()
                        + "/metrics");
            } else {
                out.println("  controller  none (--no-controller): bin/juneau controller --kubeconfig "
                        + controllerKubeconfig.toAbsolutePath() + " --identity c1 --metrics-port 0");
            }
            if (!noNodes) {
                out.println("  nodes       " + String.join(", ", LocalStack.NODE_NAMES)
                        + " (InternalIPs 192.168.10.11-13)");
            }
            out.println("  kubeconfigs " + kubeconfig.toAbsolutePath() + " (admin), " + controllerKubeconfig
                    .toAbsolutePath() + " (controller)");
            for (int i = 0; i < agentKubeconfigs.size(); i++) {
                out.println("              " + agentKubeconfigs.get(i).toAbsolutePath() + " (agent of "
                        + LocalStack.NODE_NAMES.get(i) + ")");
            }
            out.println();
            out.println("  export KUBECONFIG=" + kubeconfig.toAbsolutePath());
            out.println("  kubectl apply -f manifests/examples/   # pools, networks, Services");
            out.println("  kubectl get addresspools,externalnetworks,slb,arpadvertisements,svc");
            out.println();
            out.println("Press Ctrl-C to stop.");
            out.flush();
            done.await();
            return 0;
        } catch (IOException e) {
            out.println("juneau up: cannot write the kubeconfig " + kubeconfigOut + ": " + e.getMessage());
            stack.close();
            return 2;
        } finally {
            if (stop != null) {
                stack.close();
            }
        }
    }
}
