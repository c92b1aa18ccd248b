package me.loutres.juneau.agent;

import java.util.List;
import java.util.Map;

/**
 * The JVM options the node agent runs with: the image's ENTRYPOINT ({@code agent/Dockerfile}), the DaemonSet
 * ({@code manifests/base/agent/daemonset.yaml}, whose memory limit is sized from them), {@code bin/juneau agent}
 * and the agents of the namespace-LAN tests and benchmark all give these (manifests' AgentFootprintTest checks that
 * they agree). The agent runs on every node, so what it costs is paid once per node: these are chosen for a small,
 * long-running, mostly idle process (measured in BENCHMARKS.md, "Node agent: what one node pays").
 */
public final class AgentJvm {
    /** In the order the Dockerfile, the DaemonSet and bin/juneau write them. */
    public static final List<String> FLAGS = List.of(
            // one collector thread, no concurrent phases, no remembered sets: the heap holds a few MiB
            "-XX:+UseSerialGC",
            // a bounded heap: an agent owning 1,000 VIPs keeps about 24 MiB live; the DaemonSet's limit counts on it
            "-Xms8m", "-Xmx48m",
            // a small fixed young generation (not a third of the heap); the full collection NodeAgent asks for once
            // start-up is over gives back the old generation start-up's garbage grew, down to -Xms
            "-Xmn4m", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20",
            // the agent's classes (the client, vert.x, netty) fit; a leak fails fast instead of growing the RSS
            "-XX:MaxMetaspaceSize=64m",
            // C1 only: the agent's code is never hot enough for C2 to repay its compile time and memory
            "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:ReservedCodeCacheSize=16m",
            // a few threads, none recursing deeply
            "-Xss256k",
            // no shared-memory counters (jcmd still attaches): their sampler woke the JVM 20 times a second
            "-XX:-UsePerfData",
            // an OutOfMemoryError restarts the pod instead of limping on
            "-XX:+ExitOnOutOfMemoryError");

    /**
     * The environment the agent runs with. glibc gives each thread that allocates natively an arena of its own (up to
     * eight per core), each keeping its freed memory; two are plenty for a process whose allocations are the JVM's.
     */
    public static final Map<String, String> ENVIRONMENT = Map.of("MALLOC_ARENA_MAX", "2");

    private AgentJvm() {
    }
}
