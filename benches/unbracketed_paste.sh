#!/usr/bin/env bash
# Issue 29: typing keeps up without bracketed paste. Types BYTES of code into the exercise editor
# as a terminal without bracketed paste (or a paste tool that types) sends it: `tmux send-keys
# -l` in 8,000-character chunks, newlines as CR. Prints the seconds until the status line shows
# the paste's last line, then leaves (Esc, q) and counts the lines saved.
#   benches/unbracketed_paste.sh [BINARY] [BYTES]   (default target/release/cuda-academy, 300000)
# A benchmark, not a test: results go in BENCHMARKS.md.
set -euo pipefail
bin=$(realpath "${1:-target/release/cuda-academy}")
bytes=${2:-300000}
work=$(mktemp -d)
session=cuda-academy-paste-$$
trap 'tmux kill-session -t $session 2>/dev/null || true; rm -rf "$work"' EXIT
line='x = x + 1; // aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
n=$((bytes / (${#line} + 1)))
for _ in $(seq "$n"); do echo "$line"; done >"$work/paste"
tmux new-session -d -s $session -x 100 -y 30 \
  "env -i PATH=$PATH HOME=$HOME TERM=screen-256color CUDA_ACADEMY_STATE_DIR=$work/s $bin --backend sim; echo EXIT=\$?; sleep 100"
for _ in $(seq 50); do tmux capture-pane -p -t $session | grep -q 'Lesson 1/4' && break; sleep 0.2; done
tmux send-keys -t $session w; sleep 0.5; tmux send-keys -t $session Enter; sleep 1
tmux capture-pane -p -t $session | grep -q 'Exercise:' || { echo "the editor did not open" >&2; exit 1; }
split -b 8000 "$work/paste" "$work/chunk."
start=$(date +%s%N)
for c in "$work"/chunk.*; do tmux send-keys -t $session -l "$(tr '\n' '\r' <"$c")"; done
# The cursor was at the start of line 1, so the paste's last line ends on line n+1. tmux holds
# back the tail of a long send-keys until the pane gets more input: Alt-Q (bound to nothing in
# the editor) nudges it.
until tmux capture-pane -p -t $session | grep -q "line $((n + 1)), column 1"; do
  tmux send-keys -t $session M-q; sleep 0.2
done
end=$(date +%s%N)
tmux send-keys -t $session Escape; sleep 1; tmux send-keys -t $session q; sleep 2
saved=$(grep -c 'x = x + 1' "$work/s/exercises/time-a-copy.cu" || true)
echo "$bytes bytes ($n lines) typed: on screen after $(((end - start) / 1000000)) ms; $saved of $n lines saved; $(tmux capture-pane -p -t $session | grep -o 'EXIT=[0-9]*')"
