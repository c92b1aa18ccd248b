package me.loutres.juneau.agent;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import me.loutres.juneau.agent.bgp.BgpDriver;

/**
 * How the agent runs BIRD (docs/bgp.md).
 *
 * @param bird     the bird binary ({@code --bird}; default: {@code bird} on the PATH, or /usr/sbin/bird)
 * @param dir      BIRD's configuration and control socket ({@code --bird-dir}, default /run/juneau/bird, mode 0700)
 * @param routerId {@code --router-id}, or null for the Node's InternalIP
 * @param prefix   a command BIRD runs under (tests run it in a network namespace); empty in the agent
 */
public record BgpOptions(Path bird, Path dir, String routerId, List<String> prefix) {
    public static final Path DEFAULT_DIR = Path.of("/run/juneau/bird");

    public BgpOptions {
        prefix = List.copyOf(prefix == null ? List.of() : prefix);
    }

    public static BgpOptions defaults() {
        return new BgpOptions(locate("bird"), DEFAULT_DIR, null, List.of());
    }

    /** {@code name} on the PATH, else in /usr/sbin (Debian's bird2 puts it there, outside many users' PATH). */
    public static Path locate(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name);
            }
        }
        return Path.of("/usr/sbin", name);
    }

    BgpDriver.Settings settings() {
        return new BgpDriver.Settings(bird, dir, prefix);
    }
}
