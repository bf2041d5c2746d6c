# C6, m11, m12, P49, P50 and the crash variant: fake libcuda.so.1 builds, no GPU.

FAKE_MISSING='int cuInit(unsigned f) { return 0; }'
FAKE_STUB='int cuInit(unsigned f) { return 34; }
int cuDriverGetVersion(int *v) { return 34; }
int cuGetErrorName(int e, const char **s) { return 34; }
int cuGetErrorString(int e, const char **s) { return 34; }
int cuDeviceGetCount(int *c) { return 34; }'
# Logs "PID probe" or "PID main" (is argv[1] the probe argument?) to $FAKE_CUINIT_LOG, then hangs.
FAKE_HANG='#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int cuInit(unsigned f) {
  char cmd[4096] = {0}; FILE *c = fopen("/proc/self/cmdline", "r");
  size_t n = c ? fread(cmd, 1, sizeof cmd - 1, c) : 0; if (c) fclose(c);
  const char *probe = "main"; size_t first = strlen(cmd);
  if (first + 1 < n && strcmp(cmd + first + 1, "__probe-cuinit") == 0) probe = "probe";
  const char *log = getenv("FAKE_CUINIT_LOG");
  if (log) { FILE *o = fopen(log, "a"); if (o) { fprintf(o, "%d %s\n", getpid(), probe); fclose(o); } }
  for (;;) pause(); return 0; }
int cuDriverGetVersion(int *v) { *v = 12000; return 0; }'
FAKE_SEGV='int cuInit(unsigned f) { volatile int *p = 0; return *p; }'

# with_fake LIBDIR OUT ARGS...: the binary against a fake driver; status in $rc, stdout and
# stderr in OUT, stderr alone in OUT.err.
with_fake() {
    local lib=$1 out=$2
    shift 2
    LD_LIBRARY_PATH=$lib ca "$CASE_DIR/s" "$@" >"$out" 2>"$out.err"
    rc=$?
    cat "$out.err" >>"$out"
}

c6_missing_symbol() {
    case_start C6 critical "libcuda exporting only cuInit (returning 0, 100, 999) and one with no cuInit: \`info\`, \`run --backend auto\`, \`run --backend gpu\`"
    local v lib bad="" rc
    for v in 'return 0;' 'return 100;' 'return 999;' none; do
        if [ "$v" = none ]; then lib=$(fake_driver nocuinit 'int cuFoo(void) { return 0; }')
        else lib=$(fake_driver "missing${v//[^0-9]/}" "int cuInit(unsigned f) { $v }"); fi
        with_fake "$lib" "$CASE_DIR/info" info
        [ $rc = 0 ] && no_panic "$CASE_DIR/info" || bad="$bad [info $v: $rc]"
        with_fake "$lib" "$CASE_DIR/auto" run pinned-alloc --size 1M
        [ $rc = 0 ] && [ ! -s "$CASE_DIR/auto.err" ] && no_panic "$CASE_DIR/auto" || bad="$bad [auto $v: $rc]"
        with_fake "$lib" "$CASE_DIR/gpu" run pinned-alloc --size 1M --backend gpu
        [ $rc = 1 ] && no_panic "$CASE_DIR/gpu" || bad="$bad [gpu $v: $rc]"
    done
    [ -z "$bad" ]
    verdict $? "info exit 0 naming the reason, auto falls back, gpu exit 1 with the reason; no panic text or backtrace (RUST_BACKTRACE=1)$bad"
}

m11_stub() {
    case_start m11 minor "the toolkit's stub libcuda (every call returns 34): \`info\`, \`run --backend gpu\`"
    local lib rc; lib=$(fake_driver stub "$FAKE_STUB")
    with_fake "$lib" "$CASE_DIR/out" info
    with_fake "$lib" "$CASE_DIR/gpu" run pinned-alloc --size 1M --backend gpu
    grep -q CUDA_ERROR_STUB_LIBRARY "$CASE_DIR/out" && grep -q LD_LIBRARY_PATH "$CASE_DIR/gpu" && ! grep -q 'CUresult 34' "$CASE_DIR/out" "$CASE_DIR/gpu"
    verdict $? "named, with the LD_LIBRARY_PATH fix: $(grep -o 'CUDA_ERROR_STUB_LIBRARY[^;]*' "$CASE_DIR/gpu" | head -1)"
}

m12_hang() {
    case_start m12 minor "libcuda whose cuInit never returns, limit 2 s: \`info\`, \`run\` auto and gpu; which process entered cuInit"
    local lib rc t0 bad=""; lib=$(fake_driver hang "$FAKE_HANG")
    export CUDA_ACADEMY_CUINIT_TIMEOUT_S=2 FAKE_CUINIT_LOG="$CASE_DIR/entered"
    t0=$SECONDS
    with_fake "$lib" "$CASE_DIR/info" info; [ $rc = 0 ] || bad="$bad [info $rc]"
    with_fake "$lib" "$CASE_DIR/auto" run pinned-alloc --size 1M; [ $rc = 0 ] || bad="$bad [auto $rc]"
    with_fake "$lib" "$CASE_DIR/gpu" run pinned-alloc --size 1M --backend gpu; [ $rc = 1 ] || bad="$bad [gpu $rc]"
    local took=$((SECONDS - t0))
    unset CUDA_ACADEMY_CUINIT_TIMEOUT_S FAKE_CUINIT_LOG
    grep -q 'did not answer within 2 s' "$CASE_DIR/info" || bad="$bad [no message]"
    local p left=0
    for p in $(cut -d' ' -f1 "$CASE_DIR/entered"); do [ -d "/proc/$p" ] && ! grep -q ') Z' "/proc/$p/stat" && left=$((left + 1)); done
    local probes mains
    probes=$(grep -c ' probe$' "$CASE_DIR/entered") mains=$(grep -c ' main$' "$CASE_DIR/entered")
    [ -z "$bad" ] && [ "$left" = 0 ] && [ "$probes" = 3 ] && [ "$mains" = 0 ]
    verdict $? "3 commands in ${took} s, each with the message; cuInit entered by $probes probe children and $mains main processes; $left probes left running$bad"
}

v_crash_in_cuinit() {
    case_start V5 critical "variant found in this run: libcuda that crashes (SIGSEGV) inside cuInit: \`info\`, \`run\`, the TUI"
    local lib rc bad=""; lib=$(fake_driver segv "$FAKE_SEGV")
    with_fake "$lib" "$CASE_DIR/info" info; [ $rc = 0 ] || bad="$bad [info $rc]"
    with_fake "$lib" "$CASE_DIR/auto" run pinned-alloc --size 1M; [ $rc = 0 ] || bad="$bad [auto $rc]"
    tmx_start rl-v5 100 30 "LD_LIBRARY_PATH=$lib CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN"
    tmx_wait rl-v5 'the driver crashed' 15 || bad="$bad [TUI: no reason shown]"
    tmx_keys rl-v5 q
    local code restored; code=$(tmx_exit rl-v5 10) restored=$(tmx_restored rl-v5)
    tmx_kill rl-v5
    [ -z "$bad" ] && [ "$code" = 0 ] && [ "$restored" = restored ]
    verdict $? "info/run: \"$(grep -o 'the driver crashed[^;]*' "$CASE_DIR/info" | head -1)\"; TUI falls back, exit $code, $restored (before the probe: info died of SIGSEGV)$bad"
}

p49_junk_lib() {
    case_start P49 major "libcuda.so.1 that is an empty file, or a text file: \`run\` auto and gpu"
    local d="$CASE_DIR/lib" rc bad=""
    mkdir -p "$d"
    for body in "" "not a library"; do
        printf '%s' "$body" >"$d/libcuda.so.1"; cp "$d/libcuda.so.1" "$d/libcuda.so"
        with_fake "$d" "$CASE_DIR/auto" run pinned-alloc --size 1M; [ $rc = 0 ] || bad="$bad [auto $rc]"
        with_fake "$d" "$CASE_DIR/gpu" run pinned-alloc --size 1M --backend gpu; [ $rc = 1 ] || bad="$bad [gpu $rc]"
        no_panic "$CASE_DIR/auto" "$CASE_DIR/gpu" || bad="$bad [panic]"
    done
    [ -z "$bad" ]
    verdict $? "auto falls back, gpu exits 1 with the reason$bad"
}

p50_tui_bad_driver() {
    case_start P50 major "the TUI with the missing-symbol and the hanging libcuda (limit 2 s): status bar, r, q; crash logs"
    local lib kind bad=""
    for kind in missing hang; do
        [ $kind = missing ] && lib=$(fake_driver missing "$FAKE_MISSING") || lib=$(fake_driver hang "$FAKE_HANG")
        tmx_start rl-p50 100 30 "CUDA_ACADEMY_CUINIT_TIMEOUT_S=2 LD_LIBRARY_PATH=$lib CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN"
        tmx_wait rl-p50 'Simulated' 15 || bad="$bad [$kind: no fallback shown]"
        tmx_keys rl-p50 r; sleep 1; tmx_keys rl-p50 q
        local code restored; code=$(tmx_exit rl-p50 10) restored=$(tmx_restored rl-p50)
        tmx_kill rl-p50
        [ "$code" = 0 ] && [ "$restored" = restored ] || bad="$bad [$kind: exit $code, $restored]"
    done
    ! ls "$CASE_DIR"/s/crash-* >/dev/null 2>&1 || bad="$bad [crash log written for a plain fallback]"
    [ -z "$bad" ]
    verdict $? "simulator named in the status bar with the reason, runs, quits, restored; no crash log$bad"
}

gpu_rows() {
    case_start V6 major "variant: the real driver path, the event fallback without CUPTI on the H200 (driver ≥ 12.8 not required)"
    gpu "cargo test --release --features gpu-tests --test it gpu_backend && CUDA_ACADEMY_NO_CUPTI=1 target/release/cuda-academy run pipeline --backend gpu --size 64M --json | grep -c null  # expect 0"
}

v_quit_while_probing() {
    case_start V7 major "variant: q in the TUI while the hanging cuInit is still being probed (limit 5 s): the TUI exits at once, the probe does not outlive its limit"
    local lib; lib=$(fake_driver hang "$FAKE_HANG")
    : >"$CASE_DIR/entered"
    tmx_start rl-v7 100 30 "FAKE_CUINIT_LOG=$CASE_DIR/entered CUDA_ACADEMY_CUINIT_TIMEOUT_S=5 LD_LIBRARY_PATH=$lib CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN"
    tmx_wait rl-v7 'Lesson 1/4' 15
    local t0=$SECONDS
    tmx_keys rl-v7 q
    local code restored; code=$(tmx_exit rl-v7 10) restored=$(tmx_restored rl-v7)
    local took=$((SECONDS - t0))
    tmx_kill rl-v7
    sleep 6
    local p left=0
    for p in $(cut -d' ' -f1 "$CASE_DIR/entered"); do [ -d "/proc/$p" ] && ! grep -q ') Z' "/proc/$p/stat" && left=$((left + 1)); done
    [ "$code" = 0 ] && [ "$restored" = restored ] && [ "$took" -le 3 ] && [ "$left" = 0 ] && grep -q probe "$CASE_DIR/entered"
    verdict $? "exit $code after ${took} s, $restored; probes still running 6 s later: $left"
}
