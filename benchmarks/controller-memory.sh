#!/usr/bin/env bash
# The controller's memory at N managed Services (docs/benchmarks-history.md, "Controller memory at 10,000 Services"):
# `juneau up --no-controller` (local API server + webhook), `juneau controller` beside it as its own JVM with the
# flags given in CONTROLLER_JVM, N Services created by UpLoadBenchmark --kubeconfig (16 kept-alive client threads;
# it returns when every ServiceLoadBalancer has its VIP), then 20 s idle and the controller's VmRSS and heap.
# Also the controller JVM's own CPU per new Service (utime + stime of /proc/PID/stat from its first sync to the last
# VIP, and to the end of the idle 20 s), by thread group (/proc/PID/task/*/stat; threads that ended are counted in the
# total only). CONTROLLER_ROOT: the checkout whose controller runs (default: this one), to compare two builds against
# the same API server and webhook; it needs its jars built too.
# Its temp directory (kubeconfigs with the local API server's tokens, the logs) is removed at the end; KEEP_LOGS=1
# keeps it and prints its path.
# Needs the jars (bin/juneau builds them) and the cli test classes (mvn -o -B -q -pl cli -am test-compile).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ctl_root="${CONTROLLER_ROOT:-$root}"
n="${1:-10000}"
jvm="${CONTROLLER_JVM:--Xmx384m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError}"
dir="$(mktemp -d)"
touch "$dir/up.log"
"$root/bin/juneau" up --no-controller --kubeconfig-out "$dir/kc" >"$dir/up.log" 2>&1 &
up=$!
ctl=
# the directory holds kubeconfigs with the local API server's tokens: removed at the end unless KEEP_LOGS=1 (then
# its path is printed, for the logs)
trap 'kill ${ctl:+$ctl} $up 2>/dev/null; wait 2>/dev/null
  if [ -n "${KEEP_LOGS:-}" ]; then echo "logs kept in $dir" >&2; else rm -rf "$dir"; fi' EXIT
until grep -q 'Press Ctrl-C' "$dir/up.log"; do kill -0 $up; sleep 1; done
JUNEAU_JAVA_OPTS="$jvm" "$ctl_root/bin/juneau" controller --kubeconfig "$dir/kc.controller" --identity c1 \
  --metrics-port 0 >"$dir/controller.log" 2>&1 &
ctl=$!
# one line per thread group: "group ticks" (clock ticks of utime + stime); the whole process's on the line "total"
cpu() {
  local t comm group
  declare -A by=()
  for t in /proc/$ctl/task/*; do
    comm="$(cat "$t/comm" 2>/dev/null)" || continue
    case "$comm" in
      vert.x-*) group="client I/O and JSON (vert.x)" ;;
      HttpClient-*|JdkHttpClient*) group="client I/O and JSON (JDK client)" ;; # fabric8 on the JDK's HTTP client
      juneau-*) group="controller (workers, lease, watch monitor)" ;;
      pool-*|*[0-9]-poo*) group="informer handlers (fabric8)" ;; # "-793808700-pool-3-thread-1", cut at 15 characters: "-793808700-poo"
      C1\ Compiler*|C2\ Compiler*) group="JIT" ;;
      GC\ *|VM\ Thread|G1\ *|VM\ Periodic*) group="GC and VM" ;;
      *) group="other threads" ;;
    esac
    by[$group]=$(( ${by[$group]:-0} + $(sed 's/.*) //' "$t/stat" 2>/dev/null | awk '{print $12 + $13}') ))
  done
  for group in "${!by[@]}"; do echo "$group|${by[$group]}"; done
  echo "total|$(sed 's/.*) //' /proc/$ctl/stat | awk '{print $12 + $13}')"
}
# prints the CPU used since the snapshot $1 (a file from cpu), per Service, by group
since() {
  local hz; hz=$(getconf CLK_TCK)
  cpu | awk -F'|' -v hz="$hz" -v n="$n" -v label="$2" 'NR == FNR { before[$1] = $2; next }
    { used[$1] = $2 - before[$1] }
    END { printf "controller CPU %s: %.2f ms per Service (%.1f s); by thread group, ms per Service:\n", label,
            used["total"] * 1000 / hz / n, used["total"] / hz
          counted = 0
          for (g in used) if (g != "total") { printf "  %-45s %8.2f\n", g, used[g] * 1000 / hz / n; counted += used[g] }
          printf "  %-45s %8.2f\n", "(threads that ended in between)", (used["total"] - counted) * 1000 / hz / n }' "$1" -
}
until grep -q 'synced in' "$dir/controller.log" && grep -q 'became leader' "$dir/controller.log"; do
  kill -0 $ctl; sleep 1
done
sleep 5 # start-up's JIT and first lists settle
cpu >"$dir/cpu0"
# UpLoadBenchmark's class also names fabric8's mock server (its --stock-mock baseline): those two test jars too
m2="${M2_REPO:-$HOME/.m2/repository}/io/fabric8"
fabric8="$(ls "$root"/cli/target/lib/kubernetes-client-api-*.jar | sed 's/.*-api-//; s/\.jar$//')"
cp="$root/cli/target/test-classes:$root/cli/target/classes:$(ls "$root"/cli/target/lib/*.jar | tr '\n' ':')"
cp="$cp$m2/kubernetes-server-mock/$fabric8/kubernetes-server-mock-$fabric8.jar:$m2/mockwebserver/$fabric8/mockwebserver-$fabric8.jar"
java -Xmx1g -cp "$cp" me.loutres.juneau.cli.demo.UpLoadBenchmark "$n" --threads 16 --kubeconfig "$dir/kc" 2>&1 \
  | grep -v -E 'WARN|^  '
echo "controller JVM: $jvm; load average after the last VIP: $(cut -d' ' -f1-3 /proc/loadavg)"
since "$dir/cpu0" "from its first sync to the last VIP"
sleep 20
since "$dir/cpu0" "from its first sync to the end of the idle 20 s"
# the passes it ran: juneau_reconcile_total by kind and outcome, from its /metrics (the port it picked)
port="$(ss -ltnpH 2>/dev/null | grep "pid=$ctl," | awk '{print $4}' | sed 's/.*://' | head -n 1)"
if [ -n "$port" ]; then
  curl -s "http://127.0.0.1:$port/metrics" | grep '^juneau_reconcile_total' | sed 's/^/  /' || true
fi
echo "after 20 s idle: $(grep VmRSS /proc/$ctl/status); load average $(cut -d' ' -f1-3 /proc/loadavg)"
jcmd $ctl GC.heap_info | grep -E 'generation|garbage-first heap|PSYoungGen|ParOldGen'
jcmd $ctl GC.run >/dev/null; sleep 2
echo "after a full GC: $(grep VmRSS /proc/$ctl/status)"
jcmd $ctl GC.heap_info | grep -E 'generation|garbage-first heap|PSYoungGen|ParOldGen'
