#!/bin/bash
# Issue 25: `cuda-academy trace` on a machine with a GPU and nvcc. Compiles the programs of
# tests/fixtures/trace-programs/ with nvcc, runs each untraced and under `$BIN trace`, and checks
# that the exit code, stdout and stderr pass through unchanged; runs `trace --open` (text and
# --json) on each trace; compares peak memory of many_copies at N and 4N copies; and builds
# probes/cupti-layout/layout.c with gcc against the real CUPTI headers and diffs its listing with
# probes/cupti-layout/expected.txt (the injection library's Rust declarations).
#
#   BIN=target/release/cuda-academy OUT=/tmp/out bash scripts/trace-live.sh
#
# Everything it writes goes under $OUT; $OUT/summary.txt has one PASS/FAIL/INFO line per check.
set -u
B=$(realpath "${BIN:-target/release/cuda-academy}")
: "${OUT:?set OUT to a folder for the results}"
mkdir -p "$OUT/build"
CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC=$(command -v nvcc || echo "$CUDA/bin/nvcc")
CUPTI_INC=$CUDA/extras/CUPTI/include; [ -f "$CUPTI_INC/cupti.h" ] || CUPTI_INC=$CUDA/include
CUPTI_LIB=$CUDA/extras/CUPTI/lib64; [ -d "$CUPTI_LIB" ] || CUPTI_LIB=$CUDA/lib64
export CUDA_ACADEMY_CACHE_DIR=$OUT/cache
export LD_LIBRARY_PATH=$CUPTI_LIB:${LD_LIBRARY_PATH:-}
S=$OUT/summary.txt
: > "$S"
say() { echo "$*" | tee -a "$S"; }
src=tests/fixtures/trace-programs

say "INFO binary: $("$B" --version | tr '\n' ' ')"
say "INFO nvcc: $("$NVCC" --version | tail -1)"
say "INFO driver: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"

# 1. The layout probe: the real headers against the library's declarations.
if gcc -I"$CUDA/include" -I"$CUPTI_INC" probes/cupti-layout/layout.c -o "$OUT/build/layout" 2> "$OUT/layout.gcc.txt"; then
  "$OUT/build/layout" > "$OUT/layout.txt"
  if grep -v '^#' "$OUT/layout.txt" | diff probes/cupti-layout/expected.txt - > "$OUT/layout.diff"; then
    say "PASS layout: every struct field, constant and callback id matches the headers ($(grep '^#' "$OUT/layout.txt" | tr '\n' ' '))"
  else
    say "FAIL layout: $(wc -l < "$OUT/layout.diff") diff lines, see layout.diff"
    head -40 "$OUT/layout.diff" | sed 's/^/    layout | /' >> "$S"
  fi
else
  say "FAIL layout probe did not compile: $(head -3 "$OUT/layout.gcc.txt" | tr '\n' ' ')"
fi

# 2. Each program, untraced and traced.
build() { # name, extra nvcc flags...
  local name=$1; shift
  "$NVCC" -O2 -lineinfo -o "$OUT/build/$name" "$src/$name.cu" "$@" > "$OUT/build/$name.nvcc.txt" 2>&1 \
    || { say "FAIL $name: nvcc failed: $(head -3 "$OUT/build/$name.nvcc.txt" | tr '\n' ' ')"; return 1; }
}
check() { # name, expected exit code, args...
  local name=$1 want=$2; shift 2
  local prog=$OUT/build/$name t0 t1 t2 rc_plain rc
  t0=$(date +%s%N)
  timeout -s KILL 120 "$prog" "$@" > "$OUT/$name.plain.stdout" 2> "$OUT/$name.plain.stderr"; rc_plain=$?
  t1=$(date +%s%N)
  # A hang (137 after 120 s) is a failure to look into; CUDA_ACADEMY_TRACE_NO_STREAM_ID=1 turns
  # off the one CUPTI call the library makes inside its callback.
  timeout -s KILL 120 "$B" trace --trace-file "$OUT/$name.trace.jsonl" -- "$prog" "$@" > "$OUT/$name.stdout" 2> "$OUT/$name.stderr"; rc=$?
  t2=$(date +%s%N)
  say "INFO $name: untraced $(( (t1 - t0) / 1000000 )) ms, traced $(( (t2 - t1) / 1000000 )) ms"
  [ "$rc_plain" = "$want" ] || say "FAIL $name: untraced exit $rc_plain, expected $want"
  [ "$rc" = "$rc_plain" ] || sed "s/^/    $name stderr | /" "$OUT/$name.stderr" | tail -5 >> "$S"
  [ "$rc" = "$rc_plain" ] && say "PASS $name: exit code $rc passes through" || say "FAIL $name: traced exit $rc, untraced $rc_plain"
  cmp -s "$OUT/$name.plain.stdout" "$OUT/$name.stdout" && say "PASS $name: stdout unchanged" || say "FAIL $name: stdout differs"
  head -c "$(wc -c < "$OUT/$name.plain.stderr")" "$OUT/$name.stderr" | cmp -s - "$OUT/$name.plain.stderr" \
    && say "PASS $name: stderr unchanged (then trace says: $(grep 'cuda-academy: trace' "$OUT/$name.stderr" | head -2 | tr '\n' ' '))" \
    || say "FAIL $name: stderr differs"
  if [ -s "$OUT/$name.trace.jsonl" ]; then
    say "INFO $name: trace $(wc -l < "$OUT/$name.trace.jsonl") lines, header: $(head -1 "$OUT/$name.trace.jsonl" | cut -c1-300)"
    "$B" trace --open "$OUT/$name.trace.jsonl" > "$OUT/$name.open.txt" 2>&1 || say "FAIL $name: trace --open failed"
    "$B" trace --open "$OUT/$name.trace.jsonl" --json > "$OUT/$name.open.json" 2>&1 || say "FAIL $name: trace --open --json failed"
    # What kinds of record the file holds, and how many of each.
    python3 -c "
import json,collections,sys
c=collections.Counter(json.loads(l).get('t') for l in open(sys.argv[1]) if l.strip())
print(dict(c))" "$OUT/$name.trace.jsonl" > "$OUT/$name.kinds.txt" 2>&1
    say "INFO $name: records $(cat "$OUT/$name.kinds.txt")"
    # Only a few result files come back from the device machine: the summary carries the rest.
    sed "s/^/    $name | /" "$OUT/$name.open.txt" >> "$S"
  else
    say "INFO $name: no trace file"
  fi
}

for p in two_streams pageable_async exit_from_thread nvtx_ranges killed_self many_copies kernel_race; do build "$p"; done
build own_cupti -I"$CUPTI_INC" -L"$CUPTI_LIB" -lcupti
check two_streams 0
check pageable_async 0
check exit_from_thread 3
check nvtx_ranges 0
check killed_self 137
check own_cupti 0
check many_copies 0 200000
check kernel_race 0
grep -q '"t":"end"' "$OUT/exit_from_thread.trace.jsonl" 2>/dev/null \
  && say "PASS exit_from_thread: the exit flush ran (an end line)" || say "FAIL exit_from_thread: no end line"
grep -q 'INCOMPLETE' "$OUT/killed_self.open.txt" 2>/dev/null \
  && say "PASS killed_self: the trace is marked incomplete" || say "FAIL killed_self: not marked incomplete"
grep -q '"src_kind":1\|"dst_kind":1' "$OUT/pageable_async.trace.jsonl" 2>/dev/null \
  && say "PASS pageable_async: copies recorded as pageable" || say "FAIL pageable_async: no pageable copy recorded"
grep -q '"t":"marker"' "$OUT/nvtx_ranges.trace.jsonl" 2>/dev/null \
  && say "PASS nvtx_ranges: NVTX markers recorded" || say "INFO nvtx_ranges: no NVTX marker records"
# kernel_race: the launches carry their parameters (cuFuncGetParamInfo, CUDA 12.4+), the
# library's own queries are not in the trace, and the judge finds exactly the one race (the
# first fill against the first download), its kernel range said to be assumed.
grep -q '"name":"cuLaunchKernel[^"]*".*"params":\[' "$OUT/kernel_race.trace.jsonl" 2>/dev/null \
  && say "PASS kernel_race: launches record their parameters" || say "FAIL kernel_race: no launch has params"
grep -q '"name":"cuFuncGetParamInfo"' "$OUT/kernel_race.trace.jsonl" 2>/dev/null \
  && say "FAIL kernel_race: the library's own cuFuncGetParamInfo calls are in the trace" || say "PASS kernel_race: no cuFuncGetParamInfo line"
python3 - "$OUT/kernel_race.open.json" >> "$S" 2>&1 <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
f = j["findings"]["findings"]
races = [x for x in f if x["kind"] == "device-race"]
ok = len(races) == 1 and "assumed" in races[0]["message"] and not any("kernels whose parameters" in n for n in j["findings"]["not_watched"])
print(("PASS" if ok else "FAIL") + " kernel_race: %d device-race (want 1, assumed range), kinds %s, calls %s" % (
    len(races), [x["kind"] for x in f], [(x["call"], x["other_call"]) for x in races]))
for x in f:
    print("    kernel_race finding | %s call %s/%s: %s" % (x["kind"], x["call"], x["other_call"], x["message"][:300]))
PY

# 3. Bounded memory: peak RSS of the traced run at N and 4N copies.
if [ -x /usr/bin/time ]; then
  for n in 200000 800000; do
    timeout -s KILL 300 /usr/bin/time -f "%M" -o "$OUT/many_copies.$n.rss" "$B" trace -q --trace-file "$OUT/many_copies.$n.jsonl" -- "$OUT/build/many_copies" "$n" > /dev/null 2>&1
    /usr/bin/time -f "%M" -o "$OUT/many_copies.$n.plain.rss" "$OUT/build/many_copies" "$n" > /dev/null 2>&1
    say "INFO many_copies N=$n: peak RSS traced $(tail -1 "$OUT/many_copies.$n.rss") KiB (trace's own process; the program's below), untraced $(tail -1 "$OUT/many_copies.$n.plain.rss") KiB, trace $(wc -l < "$OUT/many_copies.$n.jsonl") lines"
  done
  # The program's own peak under tracing (the library lives in it): time the program, traced by env.
  lib=$(ls "$CUDA_ACADEMY_CACHE_DIR"/libcuda_academy_inject-*.so | head -1)
  for n in 200000 800000; do
    CUDA_INJECTION64_PATH=$lib CUDA_ACADEMY_TRACE_FILE=$OUT/many_copies.$n.direct.jsonl \
      timeout -s KILL 300 /usr/bin/time -f "%M" -o "$OUT/many_copies.$n.direct.rss" "$OUT/build/many_copies" "$n" > /dev/null 2>&1
    say "INFO many_copies N=$n: program's peak RSS with the library loaded $(tail -1 "$OUT/many_copies.$n.direct.rss") KiB"
  done
else
  say "INFO /usr/bin/time missing: memory not measured"
fi

# 4. Without CUDA, and a missing program.
"$B" trace -- /bin/true 2> "$OUT/true.stderr"; say "INFO /bin/true: exit $?, $(cat "$OUT/true.stderr")"
"$B" trace -- /nonexistent 2> "$OUT/missing.stderr"; rc=$?
[ $rc = 127 ] && say "PASS /nonexistent: exit 127" || say "FAIL /nonexistent: exit $rc"
echo "done: $(grep -c ^PASS "$S") PASS, $(grep -c ^FAIL "$S") FAIL" | tee -a "$S"
