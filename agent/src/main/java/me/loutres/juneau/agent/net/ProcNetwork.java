package me.loutres.juneau.agent.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.NodeNetworkStatus;

/**
 * Reads the network of the namespace a process is in, with no external binary: {@code /proc/<pid>/net/*} and that
 * process's sysfs ({@code /proc/<pid>/root/sys/class/net/<if>/}). The agent reads {@code self}; a test reads a
 * process started inside a network namespace. Each reading is a handful of small files, cheap enough to repeat every
 * second ({@link ProcNetParse} says what is taken from each).
 */
public final class ProcNetwork {
    private final Path proc;

    /** {@code pid}: "self" or a process id. */
    public ProcNetwork(String pid) {
        this(Path.of("/proc", pid));
    }

    public ProcNetwork(Path procPid) {
        this.proc = procPid;
    }

    public NodeNetworkStatus read() throws IOException {
        Path net = proc.resolve("net");
        List<ProcNetParse.Link> links = new ArrayList<>();
        Path sys = proc.resolve("root/sys/class/net");
        for (String name : ProcNetParse.devNames(text(net.resolve("dev")))) {
            Path dir = sys.resolve(name);
            String flags = optional(dir.resolve("flags"));
            links.add(new ProcNetParse.Link(name, optional(dir.resolve("address")),
                    flags.isBlank() ? 0 : ProcNetParse.flags(flags)));
        }
        return ProcNetParse.parse(links, text(net.resolve("fib_trie")), text(net.resolve("route")),
                optional(net.resolve("if_inet6")), optional(net.resolve("ipv6_route")));
    }

    private static String text(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    /** IPv6 off: no if_inet6; an interface gone between two files: no sysfs directory. */
    private static String optional(Path p) throws IOException {
        try {
            return text(p);
        } catch (NoSuchFileException e) {
            return "";
        }
    }
}
