#!/usr/bin/env bash
# The controller's memory at N managed Services (BENCHMARKS.md, "Controller memory at 10,000 Services"):
# `juneau up --no-controller` (local API server + webhook), `juneau controller` beside it as its own JVM with the
# flags given in CONTROLLER_JVM, N Services created by UpLoadBenchmark --kubeconfig (16 kept-alive client threads;
# it returns when every ServiceLoadBalancer has its VIP), then 20 s idle and the controller's VmRSS and heap.
# Needs the jars (bin/juneau builds them) and the cli test classes (mvn -o -B -q -pl cli -am test-compile).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-10000}"
jvm="${CONTROLLER_JVM:--Xmx384m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError}"
dir="$(mktemp -d)"
touch "$dir/up.log"
"$root/bin/juneau" up --no-controller --kubeconfig-out "$dir/kc" >"$dir/up.log" 2>&1 &
up=$!
ctl=
trap 'kill ${ctl:+$ctl} $up 2>/dev/null; wait 2>/dev/null' EXIT
until grep -q 'Press Ctrl-C' "$dir/up.log"; do kill -0 $up; sleep 1; done
JUNEAU_JAVA_OPTS="$jvm" "$root/bin/juneau" controller --kubeconfig "$dir/kc.controller" --identity c1 \
  --metrics-port 0 >"$dir/controller.log" 2>&1 &
ctl=$!
# UpLoadBenchmark's class also names fabric8's mock server (its --stock-mock baseline): those two test jars too
m2="${M2_REPO:-$HOME/.m2/repository}/io/fabric8"
fabric8="$(ls "$root"/cli/target/lib/kubernetes-client-api-*.jar | sed 's/.*-api-//; s/\.jar$//')"
cp="$root/cli/target/test-classes:$root/cli/target/classes:$(ls "$root"/cli/target/lib/*.jar | tr '\n' ':')"
cp="$cp$m2/kubernetes-server-mock/$fabric8/kubernetes-server-mock-$fabric8.jar:$m2/mockwebserver/$fabric8/mockwebserver-$fabric8.jar"
java -Xmx1g -cp "$cp" me.loutres.juneau.cli.demo.UpLoadBenchmark "$n" --threads 16 --kubeconfig "$dir/kc" 2>&1 \
  | grep -v -E 'WARN|^  '
echo "controller JVM: $jvm; load average after the last VIP: $(cut -d' ' -f1-3 /proc/loadavg)"
sleep 20
echo "after 20 s idle: $(grep VmRSS /proc/$ctl/status); load average $(cut -d' ' -f1-3 /proc/loadavg)"
jcmd $ctl GC.heap_info | grep -E 'generation|garbage-first heap|PSYoungGen|ParOldGen'
jcmd $ctl GC.run >/dev/null; sleep 2
echo "after a full GC: $(grep VmRSS /proc/$ctl/status)"
jcmd $ctl GC.heap_info | grep -E 'generation|garbage-first heap|PSYoungGen|ParOldGen'
