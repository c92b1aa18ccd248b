package me.loutres.juneau.agent.bgp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A JVM that starts BIRD as the agent does and then waits to be killed: BirdDaemonIT kills it with SIGKILL and checks
 * that BIRD went with it. Arguments: bird binary, BIRD's directory, the node's namespace, the configuration file.
 */
public final class BirdInAnotherJvm {
    private BirdInAnotherJvm() {
    }

    public static void main(String[] args) throws Exception {
        BirdDaemon daemon = BirdDaemon.start(List.of("ip", "netns", "exec", args[2]), Path.of(args[0]),
                Path.of(args[1]), Files.readString(Path.of(args[3])), status -> { });
        System.out.println("bird-pid=" + daemon.pid());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
