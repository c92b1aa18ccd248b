#!/usr/bin/env bash
# run.sh LABEL CORPUS-DIR COMMAND... — one timed run of a validate command: wall, CPU (user+sys), peak RSS, exit.
# e.g. benchmarks/validate/run.sh after-mix10k /tmp/vc-mix10k bin/juneau validate --summary
set -uo pipefail
label="$1"; corpus="$2"; shift 2
out="$(mktemp)"
/usr/bin/time -f "%e %U %S %M" -o "$out.time" "$@" "$corpus" > "$out" 2>/dev/null
rc=$?
read -r wall user sys rss < "$out.time"
printf '%-16s wall %6.2f s  cpu %6.2f s  rss %4d MB  exit %d  %s\n' "$label" "$wall" "$(echo "$user + $sys" | bc)" \
  "$((rss / 1024))" "$rc" "$(tail -n 1 "$out")"
rm -f "$out" "$out.time"
