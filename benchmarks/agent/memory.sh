#!/usr/bin/env bash
# The node agent's memory and idle CPU beside N ServiceLoadBalancers (issue 38; docs/benchmarks-history.md, "The
# agent keeps only its node's ServiceLoadBalancers"): agent/.../AgentFootprintBenchmark holds N of them in a fabric8
# mock API server (every EVERY-th names node-a in status.advertisingNodes), runs `juneau agent --node node-a` as its
# own JVM with the image's flags (AgentJvm, plus -XX:NativeMemoryTracking=summary), and prints, once the agent
# settled, its CPU over IDLE seconds, VmRSS, heap after a full collection and NMT totals; then the same with N=0,
# and the heap per ServiceLoadBalancer the agent stores ((heap at N - heap at 0) / stored).
# BASE_ROOT: another checkout (e.g. the commit before) whose agent runs too, against the same kind of server, for a
# before/after in one run; it needs `mvn -o -q -pl agent -am test-compile` done there.
# Usage: benchmarks/agent/memory.sh [N=10000] [EVERY=10] [IDLE=60]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
n="${1:-10000}"
every="${2:-10}"
idle="${3:-60}"
# the agent module's classes and test classes with its dependencies (the reactor's own modules as their classes)
classpath() {
  (cd "$1" && mvn -o -q -pl agent -am test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
    -Dmdep.includeScope=test >/dev/null)
  # the reactor's own modules are listed as their target/classes
  echo "$1/agent/target/test-classes:$1/agent/target/classes:$(cat "$1/agent/target/cp.txt")"
}
cp="$(classpath "$root")"
run() { # label, agent classpath, N
  echo "== $1, N=$3 =="
  java -Xmx1g -Dagent.cp="$2" -cp "$cp" me.loutres.juneau.agent.scenario.AgentFootprintBenchmark "$3" "$every" \
    "$idle" 2>/dev/null | grep -v -E '^[0-9]{2}:[0-9]{2}:' | tee /tmp/agent-footprint.$$
  grep '^HEAP_KIB' /tmp/agent-footprint.$$ | awk '{print $2, $4}' > "/tmp/agent-footprint.$$.$1.$3" || true
}
per_slb() { # label
  if [ ! -s "/tmp/agent-footprint.$$.$1.0" ] || [ ! -s "/tmp/agent-footprint.$$.$1.$n" ]; then
    echo "$1: no figure (the agent died, see above)"; return
  fi
  read -r h0 _ < "/tmp/agent-footprint.$$.$1.0"
  read -r hn stored < "/tmp/agent-footprint.$$.$1.$n"
  # an agent before issue 38 kept every ServiceLoadBalancer of the cluster, not only its node's
  if [ "$1" = before ]; then stored="$n"; fi
  awk -v a="$h0" -v b="$hn" -v s="$stored" -v l="$1" \
    'BEGIN { printf "%s: %.0f bytes of heap per ServiceLoadBalancer the agent stores (%d stored)\n", l, (b - a) * 1024 / s, s }'
}
trap 'rm -f /tmp/agent-footprint.$$*' EXIT
labels=()
if [ -n "${BASE_ROOT:-}" ]; then
  base_cp="$(classpath "$BASE_ROOT")"
  run before "$base_cp" 0
  run before "$base_cp" "$n"
  labels+=(before)
fi
run after "$cp" 0
run after "$cp" "$n"
labels+=(after)
echo "== summary (load average $(cut -d' ' -f1-3 /proc/loadavg)) =="
for l in "${labels[@]}"; do per_slb "$l"; done
