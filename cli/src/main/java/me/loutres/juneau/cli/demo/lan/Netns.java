package me.loutres.juneau.cli.demo.lan;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Access to network namespaces for the end-to-end test, the demo and the benchmark (never the product itself): {@code ip} commands, and running code on a thread that has entered a
 * namespace with setns(2) — a socket created there stays in that namespace whichever thread uses it later, which
 * is how the test opens a listening socket or a packet socket inside a namespace without touching the root one.
 */
public final class Netns {
    private static final int O_RDONLY = 0;
    private static final int CLONE_NEWNET = 0x40000000;

    public interface LibC extends Library {
        int open(String path, int flags) throws LastErrorException;

        int setns(int fd, int nstype) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    private static final LibC C = Native.load("c", LibC.class);

    private Netns() {
    }

    /** Runs {@code work} on a new thread inside the named namespace and returns its result. */
    public static <T> T inside(String namespace, Callable<T> work) throws Exception {
        FutureTask<T> task = new FutureTask<>(() -> {
            int target = C.open("/var/run/netns/" + namespace, O_RDONLY);
            try {
                // this thread only, and it ends with the task: nothing else of the JVM leaves the root namespace
                C.setns(target, CLONE_NEWNET);
            } finally {
                C.close(target);
            }
            return work.call();
        });
        Thread t = new Thread(task, "netns-" + namespace);
        t.start();
        try {
            return task.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            throw e;
        }
    }

    /** Runs a command, failing with its output when it exits non-zero. */
    public static String run(String... command) throws IOException, InterruptedException {
        Result r = tryRun(command);
        if (r.code() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + r.code() + "): " + r.output().trim());
        }
        return r.output();
    }

    public record Result(int code, String output) {
    }

    public static Result tryRun(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        return new Result(p.waitFor(), new String(out, StandardCharsets.UTF_8));
    }

    /** {@code ip -n <ns> <args...>} */
    public static String ip(String namespace, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip", "-n", namespace));
        cmd.addAll(Arrays.asList(args));
        return run(cmd.toArray(String[]::new));
    }

    /** {@code ip netns exec <ns> <args...>} */
    public static String exec(String namespace, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        cmd.addAll(Arrays.asList(args));
        return run(cmd.toArray(String[]::new));
    }
}
