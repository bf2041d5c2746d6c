#!/usr/bin/env bash
# Measures the real binary in a real terminal (tmux): time to first frame, CPU while idle, and
# resident memory. Usage: benches/tui_live.sh [BINARY] (default target/release/cuda-academy).
# Results go in BENCHMARKS.md; this is a benchmark, not a test.
set -euo pipefail
bin=$(realpath "${1:-target/release/cuda-academy}")
state=$(mktemp -d)
session=cuda-academy-bench-$$
trap 'tmux kill-session -t $session 2>/dev/null || true; rm -rf "$state"' EXIT

first_frame_ms() {
  tmux kill-session -t $session 2>/dev/null || true
  local start now
  start=$(date +%s%N)
  tmux new-session -d -s $session -x "$1" -y "$2" \
    "CUDA_ACADEMY_STATE_DIR=$state $bin"
  until tmux capture-pane -p -t $session 2>/dev/null | grep -q 'Lesson 1/4'; do
    now=$(date +%s%N)
    if (( (now - start) > 5000000000 )); then echo "no frame after 5 s" >&2; exit 1; fi
    sleep 0.002
  done
  now=$(date +%s%N)
  echo $(( (now - start) / 1000000 ))
}

for size in "80 24" "200 60"; do
  runs=()
  for _ in 1 2 3 4 5; do runs+=("$(first_frame_ms $size)"); done
  echo "first frame at ${size/ /x}: ${runs[*]} ms (includes tmux start and polling every 2 ms)"
done

pid=$(tmux list-panes -t $session -F '#{pane_pid}')
ticks() { awk '{print $14 + $15}' /proc/"$pid"/stat; }
sleep 2
t0=$(ticks); sleep 10; t1=$(ticks)
hz=$(getconf CLK_TCK)
echo "CPU while idle for 10 s: $(( (t1 - t0) * 1000 / hz )) ms of CPU time ($(awk "BEGIN{print ($t1-$t0)/$hz/10*100}")%)"
for key in Right Right Right 4 Right Left j j Tab Down Enter; do tmux send-keys -t $session "$key"; sleep 0.05; done
sleep 1
grep -E 'VmRSS|VmHWM' /proc/"$pid"/status | tr -s ' \t' ' '
