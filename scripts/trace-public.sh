#!/bin/bash
# Issue 25: the public programs of tests/fixtures/trace-programs/public/ (NVIDIA's CUDA samples
# asyncAPI, simpleStreams, simpleMultiCopy, simpleCallback and the developer blog's async.cu)
# under `cuda-academy trace`, on a machine with a GPU and nvcc (no network, no cmake: plain
# nvcc lines). For each: compile; run untraced and traced and compare exit code, stdout and
# stderr; keep the trace (the one to ship), its `--open` text and JSON and its `--trace-out`
# Chrome trace; then time it untraced and traced $REPS times each (the overhead benchmark).
#
#   BIN=target/release/cuda-academy OUT=/tmp/out bash scripts/trace-public.sh
#
# Under $OUT: summary.txt (one PASS/FAIL/INFO line per check, the --open text of each trace),
# overhead.md (the timing table), h200/<name>.trace.jsonl (copy these to
# tests/fixtures/trace-programs/public/h200/), and per program its outputs and exit codes.
set -u
B=$(realpath "${BIN:-target/release/cuda-academy}")
: "${OUT:?set OUT to a folder for the results}"
REPS=${REPS:-5}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT/build" "$OUT/h200" "$OUT/reps"
CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC=$(command -v nvcc || echo "$CUDA/bin/nvcc")
CUPTI_LIB=$CUDA/extras/CUPTI/lib64; [ -d "$CUPTI_LIB" ] || CUPTI_LIB=$CUDA/lib64
export CUDA_ACADEMY_CACHE_DIR=$OUT/cache
export LD_LIBRARY_PATH=$CUPTI_LIB:${LD_LIBRARY_PATH:-}
S=$OUT/summary.txt
: > "$S"
say() { echo "$*" | tee -a "$S"; }
src=tests/fixtures/trace-programs/public

say "INFO binary: $("$B" --version | tr '\n' ' ')"
say "INFO nvcc: $("$NVCC" --version | tail -1)"
say "INFO driver: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"

# name, sources... (relative to $src): each with the samples' Common/ on the include path.
build() {
  local name=$1; shift
  local files=()
  for f in "$@"; do files+=("$src/$f"); done
  "$NVCC" -O2 -lineinfo -arch="$ARCH" -I"$src/Common" -o "$OUT/build/$name" "${files[@]}" \
    > "$OUT/build/$name.nvcc.txt" 2>&1 \
    && say "PASS $name: compiled" \
    || { say "FAIL $name: nvcc failed: $(head -5 "$OUT/build/$name.nvcc.txt" | tr '\n' ' ')"; return 1; }
}

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

check() { # name
  local name=$1 prog=$OUT/build/$1 rc_plain rc t
  [ -x "$prog" ] || return 0
  timeout -s KILL 300 "$prog" > "$OUT/$name.plain.stdout" 2> "$OUT/$name.plain.stderr"; rc_plain=$?
  echo "$rc_plain" > "$OUT/$name.plain.rc"
  local trace=$OUT/h200/$name.trace.jsonl
  timeout -s KILL 300 "$B" trace --no-tui --trace-file "$trace" --trace-out "$OUT/$name.chrome.json" -- "$prog" \
    > "$OUT/$name.stdout" 2> "$OUT/$name.stderr"; rc=$?
  echo "$rc" > "$OUT/$name.rc"
  [ "$rc" = "$rc_plain" ] && say "PASS $name: exit code $rc passes through" || say "FAIL $name: traced exit $rc, untraced $rc_plain"
  # The samples print timings and counters that change from run to run: compare the lines
  # without digits too, and say which comparison held.
  if cmp -s "$OUT/$name.plain.stdout" "$OUT/$name.stdout"; then
    say "PASS $name: stdout unchanged"
  elif diff <(tr -d '0-9' < "$OUT/$name.plain.stdout") <(tr -d '0-9' < "$OUT/$name.stdout") > /dev/null; then
    say "PASS $name: stdout unchanged but for numbers (timings, counters)"
  else
    say "FAIL $name: stdout differs"; diff "$OUT/$name.plain.stdout" "$OUT/$name.stdout" | head -10 | sed "s/^/    $name diff | /" >> "$S"
  fi
  head -c "$(wc -c < "$OUT/$name.plain.stderr")" "$OUT/$name.stderr" | cmp -s - "$OUT/$name.plain.stderr" \
    && say "PASS $name: stderr unchanged (then trace says: $(grep 'cuda-academy: trace' "$OUT/$name.stderr" | tr '\n' ' '))" \
    || say "FAIL $name: stderr differs"
  if [ -s "$trace" ]; then
    say "INFO $name: trace $(wc -l < "$trace") lines, $(wc -c < "$trace") bytes, chrome trace $(wc -c < "$OUT/$name.chrome.json" 2>/dev/null || echo 0) bytes"
    "$B" trace --open "$trace" --no-tui > "$OUT/$name.open.txt" 2>&1 || say "FAIL $name: trace --open failed"
    "$B" trace --open "$trace" --json > "$OUT/$name.open.json" 2>&1 || say "FAIL $name: trace --open --json failed"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['traceEvents']), 'events')" "$OUT/$name.chrome.json" \
      > "$OUT/$name.chrome.txt" 2>&1 && say "PASS $name: the Chrome trace parses ($(cat "$OUT/$name.chrome.txt"))" || say "FAIL $name: the Chrome trace does not parse"
    sed "s/^/    $name | /" "$OUT/$name.open.txt" >> "$S"
  else
    say "FAIL $name: no trace file"
  fi
}

time_it() { # name: REPS untraced runs, then REPS traced, wall-clock ms each, into overhead.md
  local name=$1 prog=$OUT/build/$1 plain=() traced=() t i
  [ -x "$prog" ] || return 0
  for i in $(seq "$REPS"); do
    t=$(date +%s%N); "$prog" > /dev/null 2>&1; plain+=("$(ms_since "$t")")
  done
  for i in $(seq "$REPS"); do
    t=$(date +%s%N)
    "$B" trace -q --no-tui --trace-file "$OUT/reps/$name.$i.jsonl" -- "$prog" > /dev/null 2>&1
    traced+=("$(ms_since "$t")")
    rm -f "$OUT/reps/$name.$i.jsonl"
  done
  median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
  local mp mt
  mp=$(median "${plain[@]}"); mt=$(median "${traced[@]}")
  echo "| $name | ${plain[*]} | $mp | ${traced[*]} | $mt | $(( mt - mp )) |" >> "$OUT/overhead.md"
}

build asyncAPI asyncAPI/asyncAPI.cu
build simpleStreams simpleStreams/simpleStreams.cu
build simpleMultiCopy simpleMultiCopy/simpleMultiCopy.cu
build simpleCallback simpleCallback/simpleCallback.cu simpleCallback/multithreading.cpp
build async async/async.cu
for p in asyncAPI simpleStreams simpleMultiCopy simpleCallback async; do check "$p"; done

{
  echo "Wall-clock ms of the whole process, $REPS runs each (untraced: the program alone;"
  echo "traced: \`cuda-academy trace -q --no-tui -- PROGRAM\`, the library written once before)."
  echo
  echo "| program | untraced runs | median | traced runs | median | traced - untraced |"
  echo "|---|---|---|---|---|---|"
} > "$OUT/overhead.md"
for p in asyncAPI simpleStreams simpleMultiCopy simpleCallback async; do time_it "$p"; done
cat "$OUT/overhead.md" >> "$S"
echo "done: $(grep -c ^PASS "$S") PASS, $(grep -c ^FAIL "$S") FAIL" | tee -a "$S"
