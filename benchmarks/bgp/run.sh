#!/bin/sh
# BGP benchmarks (issue 19 item 8; docs/benchmarks-history.md, "Node agent: BGP on the wire"), from the repository
# root, as root, with Debian's bird2 installed. Never run by `mvn verify`. Every lab lives in network namespaces it
# creates, with addresses in 198.18.0.0/15 only, and removes its namespaces and stops its processes (by pid) when done.
#
#   benchmarks/bgp/run.sh [what] [args...]
#     reconfigure [changes]          render + configure at 1, 1,000 and 10,000 routes, bare configure as the baseline,
#                                    BIRD's RSS and CPU at 10,000 routes       (agent: BirdReconfigureBenchmark)
#     bfd [bfd-trials] [hold-trials] a frozen node's route gone at the router, BFD 300 ms x 3 against the hold time
#                                    (agent: BfdDetectionBenchmark)
#     latency [trials] [bulk]        EndpointSlice write -> next hop gone / back at the router, p50/p99 over the
#                                    trials; with bulk > 0, that many more Services, then agent + BIRD RSS and CPU
#                                    (cli: BgpLatencyBenchmark, the namespace LAN of BgpIT)
#     all                            the three, one after the other, with their defaults
#
# BENCH_JAVA_OPTS goes to the benchmark's JVM, e.g. BENCH_JAVA_OPTS=-Dlan.agent.jvm=-Xmx256m for agents whose heap
# holds 10,000 Services (the DaemonSet's 48 MiB does not; BENCHMARKS.md).
#
# The machine these numbers come from is shared: each part prints /proc/loadavg at its start and end; write it
# down next to the numbers.
set -eu
cd "$(dirname "$0")/../.."
[ "$(id -u)" -eq 0 ] || { echo "run as root: the labs create network namespaces" >&2; exit 2; }
command -v bird >/dev/null 2>&1 || [ -x /usr/sbin/bird ] || { echo "no BIRD: apt-get install bird2" >&2; exit 2; }

what="${1:-all}"
[ $# -gt 0 ] && shift

agent_cp() {
    mvn -o -B -q -pl agent -am test-compile dependency:build-classpath \
        -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test >&2
    echo "agent/target/test-classes:agent/target/classes:$(cat agent/target/bench.cp)"
}

cli_cp() {
    mvn -o -B -q -pl cli -am test-compile dependency:build-classpath \
        -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test >&2
    echo "cli/target/test-classes:cli/target/classes:$(cat cli/target/bench.cp)"
}

case "$what" in
    reconfigure) java ${BENCH_JAVA_OPTS:-} -cp "$(agent_cp)" me.loutres.juneau.agent.bgp.BirdReconfigureBenchmark "$@" ;;
    bfd) java ${BENCH_JAVA_OPTS:-} -cp "$(agent_cp)" me.loutres.juneau.agent.bgp.BfdDetectionBenchmark "$@" ;;
    latency) java ${BENCH_JAVA_OPTS:-} -cp "$(cli_cp)" me.loutres.juneau.cli.bgp.BgpLatencyBenchmark "$@" ;;
    all)
        cp="$(agent_cp)"
        java ${BENCH_JAVA_OPTS:-} -cp "$cp" me.loutres.juneau.agent.bgp.BirdReconfigureBenchmark
        java ${BENCH_JAVA_OPTS:-} -cp "$cp" me.loutres.juneau.agent.bgp.BfdDetectionBenchmark
        java ${BENCH_JAVA_OPTS:-} -cp "$(cli_cp)" me.loutres.juneau.cli.bgp.BgpLatencyBenchmark 30 10000
        ;;
    *) echo "unknown benchmark '$what': reconfigure, bfd, latency or all" >&2; exit 2 ;;
esac
