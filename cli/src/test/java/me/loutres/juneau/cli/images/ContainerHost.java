package me.loutres.juneau.cli.images;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Podman on this machine, set up by the test itself: Debian's packages installed with apt-get when missing, and a
 * configuration of its own under target/ (never /etc): runc (crun fails on hosts with hybrid cgroups), default
 * ulimits a sandboxed host accepts, no registry to resolve short names against, and a signature policy that accepts
 * the local images (Debian's package leaves its policy.json as a .dpkg-new file on some hosts; containers/image reads
 * $HOME/.config/containers/policy.json first, so HOME points into target/ as well).
 */
final class ContainerHost {
    /** What the images need on the build machine: the engine, its runtime, the base builder and the exporter. */
    static final List<String> PACKAGES = List.of("podman", "runc", "mmdebstrap", "skopeo", "uidmap", "iproute2");
    private static final Map<String, String> COMMAND_OF = Map.of("podman", "podman", "runc", "runc",
            "mmdebstrap", "mmdebstrap", "skopeo", "skopeo", "uidmap", "newuidmap", "iproute2", "ip");

    private final Map<String, String> env = new HashMap<>();

    private ContainerHost(Path dir) throws IOException {
        Path home = dir.resolve("home");
        Path conf = Files.createDirectories(home.resolve(".config/containers"));
        Files.writeString(dir.resolve("containers.conf"), """
                [containers]
                default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
                [engine]
                runtime = "runc"
                """);
        Files.writeString(dir.resolve("registries.conf"), "unqualified-search-registries = []\n");
        Files.writeString(conf.resolve("policy.json"), "{\"default\": [{\"type\": \"insecureAcceptAnything\"}]}\n");
        env.put("CONTAINERS_CONF", dir.resolve("containers.conf").toString());
        env.put("CONTAINERS_REGISTRIES_CONF", dir.resolve("registries.conf").toString());
        env.put("HOME", home.toString());
    }

    /** Installs what is missing (root only: CI runs as root) and writes the configuration into {@code dir}. */
    static ContainerHost prepare(Path dir) throws IOException, InterruptedException {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new IllegalStateException("ImagesIT needs root (apt-get, network namespaces, rootful podman);"
                    + " CI runs as root, user here is " + System.getProperty("user.name"));
        }
        List<String> missing = new ArrayList<>();
        for (String p : PACKAGES) {
            if (!onPath(COMMAND_OF.get(p))) {
                missing.add(p);
            }
        }
        if (!missing.isEmpty()) {
            // another apt-get on the machine holds the lock for a while: wait for it instead of failing
            run(Map.of(), 600, "apt-get", "-o", "DPkg::Lock::Timeout=300", "update", "-qq");
            List<String> install = new ArrayList<>(List.of("apt-get", "-o", "DPkg::Lock::Timeout=300", "install",
                    "-y", "-qq", "--no-install-recommends"));
            install.addAll(missing);
            run(Map.of("DEBIAN_FRONTEND", "noninteractive"), 900, install.toArray(String[]::new));
        }
        return new ContainerHost(Files.createDirectories(dir));
    }

    private static boolean onPath(String command) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(d, command))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", command)) || Files.isExecutable(Path.of("/sbin", command));
    }

    Map<String, String> env() {
        return Map.copyOf(env);
    }

    /** podman with this configuration; fails with its output when it exits non-zero. */
    String podman(long timeoutSeconds, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("podman"));
        cmd.addAll(List.of(args));
        return run(env, timeoutSeconds, cmd.toArray(String[]::new));
    }

    /** As {@link #podman} but returns the exit code and output instead of failing (cleanup, probes). */
    Result tryPodman(long timeoutSeconds, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("podman"));
        cmd.addAll(List.of(args));
        return tryRun(env, timeoutSeconds, cmd.toArray(String[]::new));
    }

    record Result(int exit, String output) {
    }

    static String run(Map<String, String> env, long timeoutSeconds, String... cmd)
            throws IOException, InterruptedException {
        Result r = tryRun(env, timeoutSeconds, cmd);
        if (r.exit() != 0) {
            throw new IOException(String.join(" ", cmd) + " exited " + r.exit() + ":\n" + tail(r.output()));
        }
        return r.output();
    }

    static Result tryRun(Map<String, String> env, long timeoutSeconds, String... cmd)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("container-host", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                return new Result(-1, "timed out after " + timeoutSeconds + " s: " + String.join(" ", cmd) + "\n"
                        + Files.readString(out, StandardCharsets.UTF_8));
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static String tail(String s) {
        List<String> lines = s.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
