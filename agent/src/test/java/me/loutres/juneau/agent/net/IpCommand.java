package me.loutres.juneau.agent.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.api.v1alpha1.NodeNetworkStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Test reference only (the agent image has no iproute2; the agent reads {@link ProcNetwork}): the node's network as
 * iproute2 tells it (no netlink library is in the stack): {@link #read} runs {@code ip -j addr
 * show} and the default routes of both families; {@link #monitor} runs {@code ip monitor address route} and calls
 * back on each line, so a change is seen as the kernel announces it. {@code ip} is the command and its leading
 * options ({@code ip}, or {@code ip -n <netns>} in a test).
 */
public final class IpCommand {
    private static final Logger LOG = LoggerFactory.getLogger(IpCommand.class);
    private final List<String> ip;

    public IpCommand(List<String> ip) {
        this.ip = List.copyOf(ip);
    }

    public NodeNetworkStatus read() throws IOException {
        return NodeNetworkParse.parse(run("-j", "addr", "show"), run("-j", "-4", "route", "show", "default"),
                run("-j", "-6", "route", "show", "default"));
    }

    private String run(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(ip);
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                throw new IOException(String.join(" ", cmd) + " did not finish within 5 s");
            }
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            p.destroyForcibly(); // by its handle, a no-op once it exited
        }
    }

    /** Starts {@code ip monitor address route}; each line it prints calls {@code changed}. Stop it with the handle. */
    public Process monitor(Runnable changed) throws IOException {
        List<String> cmd = new ArrayList<>(ip);
        cmd.addAll(List.of("monitor", "address", "route"));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                while (r.readLine() != null) {
                    changed.run();
                }
            } catch (IOException e) {
                LOG.debug("ip monitor stopped: {}", e.getMessage());
            }
        }, "juneau-agent-ip-monitor");
        t.setDaemon(true);
        t.start();
        return p;
    }
}
