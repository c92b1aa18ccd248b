#!/usr/bin/env bash
# The webhook steady and cold, measured by outside clients (issue 22 item 1; docs/benchmarks-history.md,
# "Webhook steady and cold"): start `juneau webhook` with the flags a build ships, time its first /readyz 200, warm
# it up for 20 s, then per repetition, interleaved on the same process: hey at a fixed 1,000 req/s against GET /healthz and against the
# 3,477-byte Service review (POST /validate/services), then wrk's closed-loop maximum against each; the resident
# set is read after every step, and for each wrk step the webhook JVM's CPU (user + system, /proc) per answered
# request: on a machine other work loads, the review's CPU per request against healthz's says more than the maxima.
#
#   benchmarks/webhook/steady.sh [--root DIR] [--flags juneau|image] [--reps N] [--out DIR] [--extra 'JVM FLAGS']
#       [--ready-only]
#
# --out: where the certificate, the review body and the logs go; without it a directory of the script's own, removed
#   at the end (kept when the webhook fails to start: the error names its log).
# --root: a built worktree (mvn -B package -DskipTests; its cli/target and webhook/target/test-classes), so the
#   same script measures another build's jars, e.g. main's in a second worktree, back to back.
# --flags juneau: what `bin/juneau webhook` runs (its flags and the class-data archive the build trained);
#   --flags image: webhook/Dockerfile's ENTRYPOINT flags with -XX:MaxRAM=384m, which sizes the heap as the
#   Deployment's 384Mi memory limit does inside the container.
# --extra: JVM flags appended after the shipped ones (they win), to try another setting.
# --ready-only: stop after the first line (time to the first /readyz 200 and the CPU until then), for a series of
#   starts without the load.
# hey sends "host:port" as the TLS server name, which the JDK refuses; -host localhost avoids that.
# Needs wrk and hey (Debian packages of those names), openssl and curl.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
flags=juneau
reps=3
out=""
extra=""
ready_only=""
rate=1000
fixed_seconds=15
max_seconds=10
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root="$(cd "$2" && pwd)"; shift 2 ;;
    --flags) flags="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --extra) extra="$2"; shift 2 ;;
    --ready-only) ready_only=1; shift ;;
    *) echo "steady.sh: unknown argument $1; accepted: --root DIR --flags juneau|image --reps N --out DIR --extra FLAGS --ready-only" >&2; exit 2 ;;
  esac
done
for tool in wrk hey openssl curl; do
  command -v "$tool" >/dev/null || { echo "steady.sh: $tool is needed (apt-get install -y $tool)" >&2; exit 2; }
done
# a directory the script made itself (no --out) is removed at the end, unless the webhook failed and its log is
# what the error message points to
made_out=
[ -n "$out" ] || { out="$(mktemp -d /tmp/webhook-steady.XXXXXX)"; made_out=1; }
trap '[ -z "$made_out" ] || rm -rf "$out"' EXIT
mkdir -p "$out"
lib="$root/cli/target/lib"
jar="$(ls "$root"/cli/target/cli-*.jar | head -n 1)"

# fresh certificate for 127.0.0.1
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$out/tls.key" -out "$out/tls.crt" 2>/dev/null
# the review body, from the benchmark's own class (uid placeholder kept: every answer echoes it)
cat >"$out/Dump.java" <<'EOF'
public class Dump { public static void main(String[] a) throws Exception {
  java.nio.file.Files.write(java.nio.file.Path.of(a[0]), me.loutres.juneau.webhook.bench.ServiceReview.json()); } }
EOF
java -cp "$root/webhook/target/test-classes" "$out/Dump.java" "$out/review.json"
state="$root/webhook/src/test/resources/cluster-state.yaml"
port=$(( 20000 + RANDOM % 20000 ))
args=(webhook --tls-cert-file "$out/tls.crt" --tls-key-file "$out/tls.key" --port "$port" --bind-address 127.0.0.1
  --cluster-state "$state")

case "$flags" in
  juneau) started=$(date +%s%N)
    JUNEAU_JAVA_OPTS="$extra" "$root/bin/juneau" "${args[@]}" >"$out/server.log" 2>&1 &
    launcher=$! ;;
  image)
    # the image's layout under $out/opt/juneau: its jars, and the class-data archive its build trains (the RUN line)
    opt="$out/opt/juneau"
    mkdir -p "$opt/lib"
    cp "$lib"/* "$jar" "$opt/lib/"
    if grep -q 'SharedArchiveFile=/opt/juneau/juneau-webhook.jsa' "$root/webhook/Dockerfile"; then
      java -XX:DumpLoadedClassList="$out/webhook.classlist" -cp "$opt/lib/*" me.loutres.juneau.cli.CdsTraining \
        >"$out/training.log" 2>&1 && java -Xshare:dump -XX:SharedClassListFile="$out/webhook.classlist" \
        -XX:SharedArchiveFile="$opt/juneau-webhook.jsa" '-Xlog:cds*=off' -cp "$opt/lib/*" >>"$out/training.log" 2>&1 \
        || rm -f "$opt/juneau-webhook.jsa"
    fi
    # the ENTRYPOINT's JVM flags, in order, up to the class path
    mapfile -t image_flags < <(sed -n 's/^ENTRYPOINT \[\(.*\)\]/\1/p' "$root/webhook/Dockerfile" | sed 's/", "/\n/g' \
      | sed 's/^"//; s/"$//' | sed -n '2,$p' | sed '/^-cp$/,$d' | sed "s|/opt/juneau|$opt|g")
    started=$(date +%s%N)
    # shellcheck disable=SC2086
    java -XX:MaxRAM=384m "${image_flags[@]}" $extra -cp "$opt/lib/*" me.loutres.juneau.cli.Juneau "${args[@]}" \
      >"$out/server.log" 2>&1 &
    launcher=$! ;;
  *) echo "steady.sh: --flags juneau or image" >&2; exit 2 ;;
esac
url="https://127.0.0.1:$port"
until curl -ksf -o /dev/null "$url/readyz"; do
  sleep 0.02
  kill -0 "$launcher" 2>/dev/null || { made_out=; echo "steady.sh: the webhook exited; see $out/server.log" >&2; exit 1; }
done
ready_ms=$(( ($(date +%s%N) - started) / 1000000 ))
# bin/juneau execs java, so the launcher's pid is the JVM's (a shell in between would be its parent)
jvm=$launcher
[ "$(cat /proc/$jvm/comm)" = java ] || jvm=$(pgrep -n -P "$launcher")
trap 'kill "$jvm" 2>/dev/null || true; [ -z "$made_out" ] || rm -rf "$out"' EXIT
# CPU (user + system) the JVM used until ready: a busy machine stretches the wall time far more than this
cpu_ms=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%d", ($14 + $15) * 1000 / hz}' "/proc/$jvm/stat")
rss() { awk '/VmRSS/ {printf "%d", $2 / 1024}' "/proc/$jvm/status"; }
load() { cut -d' ' -f1 /proc/loadavg; }
echo "flags=$flags root=$root extra='$extra' ready_ms=$ready_ms cpu_until_ready_ms=$cpu_ms load=$(load) jvm: $(tr '\0' ' ' </proc/$jvm/cmdline | cut -c1-400)"
[ -z "$ready_only" ] || exit 0

cat >"$out/review.lua" <<EOF
local f = io.open("$out/review.json", "rb"); local body = f:read("*a"); f:close()
wrk.method = "POST"; wrk.body = body; wrk.headers["Content-Type"] = "application/json"
EOF
review_hey=(-m POST -T application/json -D "$out/review.json" "$url/validate/services")
healthz_hey=("$url/healthz")
# 10 workers at 100 req/s each: 1,000 req/s
fixed() { hey -host localhost -z "${fixed_seconds}s" -c 10 -q $(( rate / 10 )) "$@"; }
summary_hey() { # target req/s p50 p99 errors
  awk -v t="$1" '/Requests\/sec/ {rps=$2} /  50% in/ {p50=$3*1000} /  99% in/ {p99=$3*1000}
    /\[200\]/ {ok=$2} END {printf "%s hey-1000 rps=%.0f p50_ms=%.2f p99_ms=%.2f ok=%s\n", t, rps, p50, p99, ok}'
}
summary_wrk() { # target cpu_ms_used
  awk -v t="$1" -v cpu="${2:-0}" '/Requests\/sec/ {rps=$2} / 99%/ {p99=$2} /Non-2xx/ {bad=$NF} / requests in / {n=$1}
    END {printf "%s wrk-max rps=%.0f p99=%s non2xx=%s cpu_us_per_req=%.1f\n", t, rps, p99, bad+0, (n > 0 ? cpu * 1000 / n : 0)}'
}
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{printf "%d", ($14 + $15) * 1000 / hz}' "/proc/$jvm/stat"; }

# warm-up: both paths at once for 20 s (the review at 1,000 req/s)
hey -host localhost -z 20s -c 10 -q $(( rate / 10 )) "${review_hey[@]}" >/dev/null &
hey -host localhost -z 20s -c 2 -q 100 "${healthz_hey[@]}" >/dev/null
wait $!
echo "after warm-up rss_mib=$(rss) load=$(load)"
for r in $(seq 1 "$reps"); do
  fixed "${healthz_hey[@]}" | summary_hey "rep=$r healthz"; echo "  rss_mib=$(rss) load=$(load)"
  fixed "${review_hey[@]}" | summary_hey "rep=$r review "; echo "  rss_mib=$(rss) load=$(load)"
  c0=$(cpu_ms); wrk -t2 -c8 -d${max_seconds}s --latency "$url/healthz" >"$out/wrk.txt"
  summary_wrk "rep=$r healthz" $(( $(cpu_ms) - c0 )) <"$out/wrk.txt"; echo "  rss_mib=$(rss) load=$(load)"
  c0=$(cpu_ms); wrk -t2 -c8 -d${max_seconds}s --latency -s "$out/review.lua" "$url/validate/services" >"$out/wrk.txt"
  summary_wrk "rep=$r review " $(( $(cpu_ms) - c0 )) <"$out/wrk.txt"
  echo "  rss_mib=$(rss) load=$(load)"
done
grep -c '"allowed":true' <(curl -ks -H 'Content-Type: application/json' --data-binary @"$out/review.json" \
  "$url/validate/services") >/dev/null || { echo "steady.sh: the review was not allowed" >&2; exit 1; }
echo "peak rss_mib=$(awk '/VmHWM/ {printf "%d", $2 / 1024}' /proc/$jvm/status)"
