package me.loutres.juneau.agent.bgp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BIRD as the agent's child process (docs/bgp.md): started with its configuration and control socket in one
 * directory (mode 0700: the configuration holds MD5 passwords), restarted within a second when it dies alone (it reads
 * the last configuration it accepted, so everything is announced again), and never outliving the agent.
 *
 * <p>No route may outlive the agent, even after SIGKILL, so BIRD is started through {@code setpriv --pdeathsig KILL}:
 * the kernel kills it when the thread that started it goes. Java cannot run code between fork and exec, and
 * {@code prctl(PR_SET_PDEATHSIG)} from the JVM would only arm the agent itself; so one long-lived supervisor thread
 * starts every BIRD (the signal follows the thread, not the process) and waits for it.
 *
 * <p>A configuration is applied by writing the file atomically (temporary file, rename) and {@code configure} over the
 * control socket; a configuration BIRD refuses is taken back off the disk, so a restarted BIRD reads the last good one.
 */
public final class BirdDaemon implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BirdDaemon.class);
    private static final Duration RESTART_DELAY = Duration.ofMillis(200);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

    private final Path bird;
    private final Path dir;
    private final Path config;
    private final Path socket;
    private final IntConsumer onRestart;
    private final List<String> prefix;
    private final Thread supervisor;
    private final CompletableFuture<Void> firstStart = new CompletableFuture<>();
    private volatile Process process;
    private volatile boolean stopping;
    private String accepted;
    private BirdControl control;
    private int restarts;

    /** The outcome of one {@link #apply}: accepted (with its time), unchanged, or refused with BIRD's words. */
    public record Applied(boolean ok, boolean changed, String error, Duration took) {
    }

    private BirdDaemon(List<String> prefix, Path bird, Path dir, String initial, IntConsumer onRestart) {
        this.prefix = List.copyOf(prefix);
        this.bird = bird;
        this.dir = dir;
        this.config = dir.resolve("bird.conf");
        this.socket = dir.resolve("bird.ctl");
        this.onRestart = onRestart;
        this.accepted = initial;
        this.supervisor = new Thread(this::supervise, "juneau-bird-supervisor");
        this.supervisor.setDaemon(true);
    }

    /**
     * Starts BIRD with {@code initial} as its configuration and waits until its control socket answers.
     *
     * @param prefix    a command BIRD runs under, which must exec it (tests: {@code ip netns exec NS}); empty in the
     *                  agent
     * @param onRestart called with the exit status each time BIRD died alone and is started again
     * @throws IOException when there is no BIRD to run, the directory cannot be made private, or BIRD does not start
     */
    public static BirdDaemon start(List<String> prefix, Path bird, Path dir, String initial, IntConsumer onRestart)
            throws IOException {
        if (!Files.isExecutable(bird)) {
            throw new IOException("BIRD is not installed: " + bird + " is missing or not executable; install Debian's"
                    + " bird2 package or pass --bird PATH");
        }
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        BirdDaemon d = new BirdDaemon(prefix, bird, dir, initial, onRestart);
        d.write(initial);
        d.supervisor.start();
        try {
            d.firstStart.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            d.close();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IOException("BIRD did not start: " + cause.getMessage(), cause);
        }
        return d;
    }

    private void supervise() {
        long backoff = RESTART_DELAY.toMillis();
        while (!stopping) {
            long started = System.nanoTime();
            Process p;
            try {
                p = new ProcessBuilder(command()).redirectErrorStream(true).start();
                process = p;
                BirdOutput output = BirdOutput.follow(p);
                awaitSocket(p, output);
                firstStart.complete(null);
            } catch (IOException e) {
                if (!firstStart.isDone()) {
                    firstStart.completeExceptionally(e);
                    return;
                }
                LOG.warn("BIRD could not be started again: {}", e.getMessage());
                sleep(Math.max(backoff, 1000));
                continue;
            }
            int status = waitFor(p);
            if (stopping) {
                return;
            }
            // a BIRD that dies at once again and again is not restarted in a tight loop
            backoff = System.nanoTime() - started < Duration.ofSeconds(5).toNanos()
                    ? Math.min(backoff * 2, 5000) : RESTART_DELAY.toMillis();
            synchronized (this) {
                restarts++;
                closeControl();
            }
            LOG.warn("BIRD exited with status {}; starting it again (it reads the last accepted configuration)",
                    status);
            onRestart.accept(status);
            sleep(backoff);
        }
    }

    private List<String> command() {
        List<String> cmd = new ArrayList<>(prefix);
        Path setpriv = Path.of("/usr/bin/setpriv");
        if (Files.isExecutable(setpriv)) {
            cmd.addAll(List.of(setpriv.toString(), "--pdeathsig", "KILL", "--"));
        } else {
            LOG.warn("{} is missing: BIRD would outlive an agent killed with SIGKILL", setpriv);
        }
        cmd.addAll(List.of(bird.toString(), "-f", "-c", config.toString(), "-s", socket.toString()));
        return cmd;
    }

    /**
     * Waits until the control socket answers, or fails when BIRD exits first with BIRD's own words (it names the
     * problem on stderr, e.g. {@code bird: /run/juneau/bird/bird.conf:14:74 Symbol too long}).
     */
    private void awaitSocket(Process p, BirdOutput output) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                String said = output.lastLines();
                throw new IOException("BIRD exited with status " + p.exitValue() + " at start"
                        + (said.isEmpty() ? " and said nothing" : ": " + said));
            }
            if (Files.exists(socket)) {
                try (BirdControl c = BirdControl.connect(socket)) {
                    return;
                } catch (IOException e) {
                    // not listening yet
                }
            }
            sleep(20);
        }
        p.destroyForcibly();
        throw new IOException("BIRD's control socket " + socket + " did not answer within " + START_TIMEOUT);
    }

    private static int waitFor(Process p) {
        while (true) {
            try {
                return p.waitFor();
            } catch (InterruptedException e) {
                // only stop() ends the supervisor: a thread that goes takes BIRD with it (PDEATHSIG)
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Applies {@code text} unless BIRD already runs it; a refusal leaves BIRD and the file on the last good one. */
    public synchronized Applied apply(String text) {
        if (text.equals(accepted)) {
            return new Applied(true, false, null, Duration.ZERO);
        }
        long t0 = System.nanoTime();
        try {
            write(text);
            BirdControl.Reply reply = control().command("configure");
            if (!reply.ok()) {
                write(accepted);
                return new Applied(false, true, "BIRD refused the configuration: " + reply.summary(),
                        Duration.ofNanos(System.nanoTime() - t0));
            }
            accepted = text;
            return new Applied(true, true, null, Duration.ofNanos(System.nanoTime() - t0));
        } catch (IOException e) {
            closeControl();
            try {
                write(accepted);
            } catch (IOException ignored) {
                // the next apply writes it again
            }
            return new Applied(false, true, "BIRD is not answering: " + e.getMessage(),
                    Duration.ofNanos(System.nanoTime() - t0));
        }
    }

    /** A command on the control socket (status queries); reconnects after BIRD restarted. */
    public synchronized BirdControl.Reply command(String command) throws IOException {
        try {
            return control().command(command);
        } catch (IOException e) {
            closeControl();
            throw e;
        }
    }

    public synchronized int restarts() {
        return restarts;
    }

    /** BIRD's process id, or -1 when none runs (for tests). */
    public long pid() {
        Process p = process;
        return p == null || !p.isAlive() ? -1 : p.pid();
    }

    public Path configFile() {
        return config;
    }

    private BirdControl control() throws IOException {
        if (control == null) {
            control = BirdControl.connect(socket);
        }
        return control;
    }

    private void closeControl() {
        if (control != null) {
            try {
                control.close();
            } catch (IOException ignored) {
                // closing a dead connection
            }
            control = null;
        }
    }

    private void write(String text) throws IOException {
        Path tmp = dir.resolve("bird.conf.tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, config, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Stops BIRD (its sessions close with a Cease) and waits for it to exit. */
    @Override
    public void close() {
        stopping = true;
        Process p = process;
        if (p == null) {
            return;
        }
        synchronized (this) {
            try {
                control().command("down");
            } catch (IOException e) {
                LOG.debug("BIRD's 'down': {}", e.getMessage());
            }
            closeControl();
        }
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                LOG.warn("BIRD did not stop within 5 s of 'down'; killing it");
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
