#!/usr/bin/env bash
# Peak resident memory (VmHWM, via GNU time's "Maximum resident set size") of every experiment
# on the simulator, at its default size and at the sizes given (default: 4G).
# Usage: benches/sim_rss.sh [BINARY] [SIZE...]   e.g. benches/sim_rss.sh target/release/cuda-academy 4G 60G
set -euo pipefail
bin=${1:-target/release/cuda-academy}
shift || true
sizes=("default" "${@:-4G}")
[ ${#sizes[@]} -gt 1 ] || sizes=(default 4G)
printf '| experiment | size | peak RSS (MB) | wall (s) | result |\n|---|---|---|---|---|\n'
for id in pageable-vs-pinned pinned-alloc async-copy default-stream pipeline; do
  for size in "${sizes[@]}"; do
    args=(--backend sim run "$id" --json)
    [ "$size" = default ] || args+=(--size "$size")
    log=$(mktemp)
    if /usr/bin/time -v "$bin" "${args[@]}" >"$log.out" 2>"$log"; then result=ok; else result="exit $?"; fi
    kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$log")
    wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$log")
    if [ "$result" != ok ]; then result="$result: $(grep -v -e '^\s' "$log" | head -1 | cut -c1-80)"; fi
    printf '| %s | %s | %.1f | %s | %s |\n' "$id" "$size" "$(echo "$kb / 1000" | bc -l)" "$wall" "$result"
    rm -f "$log" "$log.out"
  done
done
