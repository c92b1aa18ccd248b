#!/usr/bin/env bash
# The webhook's and the controller's memory beside N LoadBalancer Services (issue 38; docs/install.md, "Sizing for
# large clusters"), before and after in the same run, on the same cluster:
#   benchmarks/scale/run.sh [N]          (default 5000; 50000 is the issue's target, about 10 ms of CPU per Service)
#   BEFORE_ROOT=/path/to/base/checkout   a checkout of the base commit with its jars built (mvn -o -q -B package
#                                        -DskipTests -pl cli -am there); without it, only this checkout is measured
# `juneau up --no-controller` (local API server + its webhook) from this checkout; N Services, each with one
# EndpointSlice, in an ARP network, created through the API (UpLoadBenchmark --kubeconfig --arp --endpoint-slices,
# 16 client threads) while this checkout's controller runs, so it writes their ServiceLoadBalancers and
# ARPAdvertisements and the load returns when every VIP is assigned. Beside it, each build's webhook runs as its own
# process with the shipped flags (bin/juneau webhook: its image's heap, serial collector), watching the same cluster.
# Then each build's controller is started alone on the full, reconciled cluster (bin/juneau controller: its image's
# heap, serial collector, C1) and measured once it is leader and quiet. Each process: VmRSS, then a full GC (jcmd GC.run)
# and its live heap (the used sizes of jcmd GC.heap_info) per Service, and the stored kinds' instance counts and
# shallow bytes (jcmd GC.class_histogram) in the log directory.
# Needs this checkout's jars (bin/juneau builds them) and the cli test classes (mvn -o -B -q -pl cli -am test-compile).
# Its temp directory (kubeconfigs with the local API server's tokens, a throwaway TLS key, the logs) is removed at
# the end; KEEP_LOGS=1 keeps it and prints its path.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
before="${BEFORE_ROOT:-}"
n="${1:-5000}"
dir="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null
  if [ -n "${KEEP_LOGS:-}" ]; then echo "logs kept in $dir" >&2; else rm -rf "$dir"; fi' EXIT
builds=(after)
declare -A checkout=([after]="$root")
if [ -n "$before" ]; then
  builds=(before after)
  checkout[before]="$before"
  # its jars are built (mvn package): bin/juneau must not rebuild them for a checkout without its stamp
  [ -f "$before/cli/target/.juneau-built" ] || touch "$before/cli/target/.juneau-built"
fi

touch "$dir/up.log"
"$root/bin/juneau" up --no-controller --kubeconfig-out "$dir/kc" >"$dir/up.log" 2>&1 &
pids+=($!)
until grep -q 'Press Ctrl-C' "$dir/up.log"; do kill -0 "${pids[0]}"; sleep 1; done

# a throwaway serving certificate: the standalone webhooks only watch and hold the cluster view here
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -keyout "$dir/tls.key" -out "$dir/tls.crt" \
  >/dev/null 2>&1
declare -A webhook
port=18443
for b in "${builds[@]}"; do
  "${checkout[$b]}/bin/juneau" webhook --kubeconfig "$dir/kc" --tls-cert-file "$dir/tls.crt" \
    --tls-key-file "$dir/tls.key" --port $port --bind-address 127.0.0.1 >"$dir/webhook-$b.log" 2>&1 &
  webhook[$b]=$!
  pids+=($!)
  port=$((port + 1))
done

# the controller of a build, alone; returns when it leads and its caches are synced
start_controller() {
  "${checkout[$1]}/bin/juneau" controller --kubeconfig "$dir/kc.controller" --identity "c-$1" --metrics-port 0 \
    >"$dir/controller-$1.log" 2>&1 &
  ctl=$!
  pids+=($ctl)
  until grep -q 'synced in' "$dir/controller-$1.log" && grep -q 'became leader' "$dir/controller-$1.log"; do
    kill -0 $ctl; sleep 1
  done
}

# waits until the process used under 2 % of a core over 5 s (its first passes over every Service are done)
quiet() {
  local hz a b; hz=$(getconf CLK_TCK)
  while true; do
    a=$(sed 's/.*) //' /proc/$1/stat | awk '{print $12 + $13}'); sleep 5
    b=$(sed 's/.*) //' /proc/$1/stat | awk '{print $12 + $13}')
    [ $(( (b - a) * 100 )) -lt $(( hz * 5 * 2 )) ] && return 0
  done
}

# one line: VmRSS, then live heap after a full GC, per Service; the histogram goes to the log directory
measure() {
  local pid=$1 label=$2 rss used
  kill -0 "$pid" || { echo "$label: the process died (see $dir)"; return 1; }
  rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
  jcmd "$pid" GC.run >/dev/null; sleep 2
  jcmd "$pid" GC.heap_info >"$dir/heap-$label.txt"
  # the generations' used sizes (not metaspace's, on lines of their own)
  used=$(grep -E 'generation' "$dir/heap-$label.txt" | grep -oE 'used [0-9]+K' | grep -oE '[0-9]+' | paste -sd+ | bc)
  # the class metadata it holds beside the heap (Metaspace committed)
  meta=$(grep -E 'Metaspace' "$dir/heap-$label.txt" | grep -oE 'committed [0-9]+K' | grep -oE '[0-9]+' | head -n 1)
  jcmd "$pid" GC.class_histogram >"$dir/histogram-$label.txt"
  printf '%-18s RSS %6.1f MiB (%.1f MiB after the GC; metaspace %.1f MiB); live heap %6.1f MiB = %5.0f bytes per Service\n' \
    "$label" "$(echo "$rss / 1024" | bc -l)" "$(awk '/VmRSS/ {print $2 / 1024}' /proc/$pid/status)" \
    "$(echo "${meta:-0} / 1024" | bc -l)" "$(echo "$used / 1024" | bc -l)" "$(echo "$used * 1024 / $n" | bc -l)"
  grep -E ' (io\.fabric8\.kubernetes\.api\.model\.(Service|discovery\.v1\.EndpointSlice)|me\.loutres\.juneau\.api\.v1alpha1\.(ServiceLoadBalancer|ARPAdvertisement))$' \
    "$dir/histogram-$label.txt" | awk -v l="$label" '{printf "  %-18s %7d %-60s %6.0f bytes shallow each\n", l, $2, $4, $3 / $2}' \
    || true
}

start_controller after
after_ctl=$ctl
m2="${M2_REPO:-$HOME/.m2/repository}/io/fabric8"
fabric8="$(ls "$root"/cli/target/lib/kubernetes-client-api-*.jar | sed 's/.*-api-//; s/\.jar$//')"
cp="$root/cli/target/test-classes:$root/cli/target/classes:$(ls "$root"/cli/target/lib/*.jar | tr '\n' ':')"
cp="$cp$m2/kubernetes-server-mock/$fabric8/kubernetes-server-mock-$fabric8.jar:$m2/mockwebserver/$fabric8/mockwebserver-$fabric8.jar"
t0=$(date +%s)
java -Xmx1g -cp "$cp" me.loutres.juneau.cli.demo.UpLoadBenchmark "$n" --threads 16 --kubeconfig "$dir/kc" --arp \
  --endpoint-slices >"$dir/load.log" 2>&1 || { tail -n 20 "$dir/load.log"; exit 1; }
grep -v -E 'WARN|^  |\|-' "$dir/load.log" | head -n 8
echo "loaded $n Services, EndpointSlices, ServiceLoadBalancers and ARPAdvertisements in $(( $(date +%s) - t0 )) s"
quiet "$after_ctl"
# bytes per stored object, per kind, plain and lean (this checkout's LeanStore), from the objects of this cluster
echo "bytes of heap per stored object (StoreFootprint; mF: with a real API server's managedFields added):"
java -XX:+UseSerialGC -Xmx2g -cp "$root/controller/target/test-classes:$cp" \
  me.loutres.juneau.controller.cache.StoreFootprint "$dir/kc" 2>&1 | grep -v -E 'WARN|SLF4J|\|-|^$' | sed 's/^/  /' || true
for b in "${builds[@]}"; do quiet "${webhook[$b]}"; measure "${webhook[$b]}" "webhook-$b"; done
kill "$after_ctl"; wait "$after_ctl" 2>/dev/null || true
# each build's controller alone on the same reconciled cluster, from its start
for b in "${builds[@]}"; do
  t0=$(date +%s)
  start_controller "$b"
  quiet "$ctl"
  echo "controller-$b: leader, synced and quiet after $(( $(date +%s) - t0 )) s"
  measure "$ctl" "controller-$b"
  kill "$ctl"; wait "$ctl" 2>/dev/null || true
done
for b in "${builds[@]}"; do
  for p in webhook controller; do
    grep -q -E 'OutOfMemoryError|java.lang.OutOfMemory' "$dir/$p-$b.log" && echo "$p-$b: OutOfMemoryError in its log"
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
