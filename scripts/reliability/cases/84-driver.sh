# Variants of review 2026-12-01b DR2, DR3, DR4, CL1-CL4 and PR2 (issue 29): old, partial and lying
# drivers; what the command line takes from outside. The drivers are tests/fixtures/fake_libcuda.c
# (every entry point the backend calls), built with entry points left out (-DOMIT_<name>) or
# values changed; ids VD1-VD10.

variants_driver() {
    run_case VD1 vd1_no_elapsed_at_all
    run_case VD2 vd2_partial_cleanup VD2 cuStreamDestroy_v2
    run_case VD3 vd2_partial_cleanup VD3 cuMemFreeHost
    run_case VD4 vd4_old_driver_elapsed
    run_case VD5 vd5_lying_values
    run_case VD6 vd6_c1_in_subcommand
    run_case VD7 vd7_trace_read_only
    run_case VD8 vd8_profile_mib_line
    run_case VD9 vd9_stdin_bounded
    run_case VD10 vd10_cupti_hostile
}

# fixture_driver NAME CC-FLAGS...: tests/fixtures/fake_libcuda.c built with the flags; prints
# the folder (libcuda.so and libcuda.so.1).
fixture_driver() {
    local d="$SCRATCH/.drivers/$1"
    shift
    mkdir -p "$d"
    cc -shared -fPIC -o "$d/libcuda.so" tests/fixtures/fake_libcuda.c "$@" && cp "$d/libcuda.so" "$d/libcuda.so.1"
    echo "$d"
}

# An event-timed program that prints what cudaEventElapsedTime said.
timed_program() {
    printf '#include "academy.cuh"\nint main()\n{\n    cudaEvent_t a, b;\n    cudaEventCreate(&a);\n    cudaEventCreate(&b);\n    cudaEventRecord(a, 0);\n    cudaEventRecord(b, 0);\n    cudaEventSynchronize(b);\n    float ms = 0;\n    cudaEventElapsedTime(&ms, a, b);\n    printf("elapsed %%f\\n", ms);\n    cudaEventDestroy(a);\n    cudaEventDestroy(b);\n    return 0;\n}\n' >"$1"
}

vd1_no_elapsed_at_all() {
    case_start VD1 critical "a driver with neither cuEventElapsedTime nor _v2: exercise check (gpu, auto) of an event-timed program, run (auto)"
    local d bad="" rc
    d=$(fixture_driver vd1 -DOMIT_cuEventElapsedTime -DOMIT_cuEventElapsedTime_v2) || { fail "cc failed"; return; }
    timed_program "$CASE_DIR/t.cu"
    LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/t.cu" --backend gpu >"$CASE_DIR/gpu" 2>&1
    rc=$?
    [ $rc = 1 ] && no_panic "$CASE_DIR/gpu" && grep -q 'cuEventElapsedTime_v2 (or cuEventElapsedTime)' "$CASE_DIR/gpu" || bad="$bad [gpu: exit $rc]"
    LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/t.cu" >"$CASE_DIR/auto" 2>&1
    rc=$?
    [ $rc -le 1 ] && no_panic "$CASE_DIR/auto" && grep -q 'checking on the simulator' "$CASE_DIR/auto" || bad="$bad [auto: exit $rc]"
    LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" run pinned-alloc --size 1M >"$CASE_DIR/run" 2>&1
    rc=$?
    [ $rc = 0 ] && no_panic "$CASE_DIR/run" || bad="$bad [run: exit $rc]"
    [ -z "$bad" ]
    verdict $? "gpu: exit 1, $(grep -m1 -o 'lacks the entry point [^,]*' "$CASE_DIR/gpu"); auto: on the simulator, saying why; run: exit 0$bad"
}

# vd2_partial_cleanup ID SYMBOL: a driver lacking one call that only clean-up makes.
vd2_partial_cleanup() {
    case_start "$1" critical "a driver without $2 (a clean-up call): info, run (auto, gpu), exercise check"
    shift
    local d bad="" a b c e
    d=$(fixture_driver "no-$1" "-DOMIT_$1") || { fail "cc failed"; return; }
    timed_program "$CASE_DIR/t.cu"
    LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" info >"$CASE_DIR/info" 2>&1; a=$?
    LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" run pinned-alloc --size 1M >"$CASE_DIR/run" 2>&1; b=$?
    LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" run pinned-alloc --size 1M --backend gpu >"$CASE_DIR/gpu" 2>&1; c=$?
    LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/t.cu" >"$CASE_DIR/check" 2>&1; e=$?
    [ $a = 0 ] && [ $b = 0 ] && [ $c = 1 ] && [ $e -le 1 ] || bad="$bad [exits $a $b $c $e]"
    no_panic "$CASE_DIR"/info "$CASE_DIR"/run "$CASE_DIR"/gpu "$CASE_DIR"/check || bad="$bad [panic]"
    for f in info run gpu check; do grep -q "lacks the entry point \`$1\`" "$CASE_DIR/$f" || bad="$bad [$f does not name it]"; done
    grep -q 'update the NVIDIA driver' "$CASE_DIR/info" || bad="$bad [no advice]"
    [ -z "$bad" ]
    verdict $? "info 0, run 0 (simulator), --backend gpu 1, check $e; each says: $(grep -m1 -o "lacks the entry point \`$1\`" "$CASE_DIR/info")$bad"
}

vd4_old_driver_elapsed() {
    case_start VD4 critical "a 12.4 driver (no cuEventElapsedTime_v2): exercise check --backend gpu of an event-timed program, and in the TUI's worker path (auto)"
    local d bad="" rc
    d=$(fixture_driver vd4 -DOMIT_cuEventElapsedTime_v2) || { fail "cc failed"; return; }
    timed_program "$CASE_DIR/t.cu"
    for b in gpu auto; do
        LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/t.cu" --backend $b >"$CASE_DIR/$b" 2>&1
        rc=$?
        [ $rc -le 1 ] && no_panic "$CASE_DIR/$b" && grep -q 'elapsed 1.500000' "$CASE_DIR/$b" && grep -q 'backend: Live' "$CASE_DIR/$b" || bad="$bad [$b: exit $rc]"
    done
    [ -z "$bad" ]
    verdict $? "on the fake GPU, the plain cuEventElapsedTime answered: $(grep -m1 -o 'elapsed [0-9.]*' "$CASE_DIR/gpu")$bad"
}

vd5_lying_values() {
    case_start VD5 minor "drivers reporting a version of -5, 0 multiprocessors, 70 GiB free of 1 GiB: info, run (auto)"
    local d bad="" n
    for n in "ver -DVERSION=-5" "sm -DATTR=0" "free -DTOTAL=((size_t)1<<30)"; do
        set -- $n
        d=$(fixture_driver "vd5-$1" "$2") || { fail "cc failed"; return; }
        LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" info >"$CASE_DIR/$1" 2>&1 || bad="$bad [$1: info failed]"
        grep -q 'works' "$CASE_DIR/$1" && bad="$bad [$1: called working]"
        grep -q 'no working device has' "$CASE_DIR/$1" || bad="$bad [$1: no reason]"
        LD_LIBRARY_PATH=$d ca "$CASE_DIR/s" run pinned-alloc --size 1M >"$CASE_DIR/$1.run" 2>&1 || bad="$bad [$1: run failed]"
        grep -q '^Simulated' "$CASE_DIR/$1.run" || bad="$bad [$1: not on the simulator]"
    done
    [ -z "$bad" ]
    verdict $? "each refused: $(grep -m1 -o 'the driver reported [^,]*' "$CASE_DIR/free" | cut -c1-80); run on the simulator$bad"
}

vd6_c1_in_subcommand() {
    case_start VD6 minor "C1 controls (CSI, OSC, ST) in a subcommand name, an exercise subcommand, a flag name and a value, into a pipe and in a tmux pane"
    local bad="" i=0 rc
    for args in $'\xc2\x9b2J' $'exercise \xc2\x9d0;T\xc2\x9c' $'--\xc2\x9bx list' $'run pinned-alloc --streams \xc2\x9b5m'; do
        i=$((i + 1))
        # shellcheck disable=SC2086 # each string is the argument list
        ca "$CASE_DIR/s" $args >"$CASE_DIR/o$i" 2>"$CASE_DIR/e$i"
        rc=$?
        [ $rc = 2 ] && terminal_safe "$CASE_DIR/e$i" && grep -q 'error' "$CASE_DIR/e$i" || bad="$bad [$i: exit $rc, $(cat -v "$CASE_DIR/e$i" | head -1 | cut -c1-60)]"
    done
    tmx_start rl-vd6 100 20 "$BIN" $'\xc2\x9d0;C1TITLE\xc2\x9c'
    tmx_wait rl-vd6 RLEXIT= 10 >/dev/null
    tmux display -p -t rl-vd6 '#{pane_title}' | grep -q C1TITLE && bad="$bad [title set in tmux]"
    tmux kill-session -t rl-vd6 2>/dev/null
    [ -z "$bad" ]
    verdict $? "exit 2, no C1 byte on stderr ($(head -1 "$CASE_DIR/e1" | cut -c1-70)); tmux title unchanged$bad"
}

vd7_trace_read_only() {
    case_start VD7 minor "run --trace into a read-only file system, into a path under a regular file, and into a missing folder"
    local bad="" rc
    mkdir -p "$CASE_DIR/mnt"
    if ! mount -t tmpfs -o ro,size=1m tmpfs "$CASE_DIR/mnt" 2>/dev/null; then
        fail "mount needs root"
        return
    fi
    ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M --trace "$CASE_DIR/mnt/t.json" >/dev/null 2>"$CASE_DIR/ro"
    rc=$?
    umount -l "$CASE_DIR/mnt"
    [ $rc = 1 ] && grep -q 'read-only file system' "$CASE_DIR/ro" || bad="$bad [ro: exit $rc]"
    : >"$CASE_DIR/file"
    ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M --trace "$CASE_DIR/file/t.json" >/dev/null 2>"$CASE_DIR/nd"
    [ $? = 1 ] && grep -q 'is not a folder' "$CASE_DIR/nd" || bad="$bad [not a folder: $(head -1 "$CASE_DIR/nd" | cut -c1-100)]"
    ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M --trace "$CASE_DIR/no/such/t.json" >/dev/null 2>"$CASE_DIR/mf"
    [ $? = 1 ] && grep -q 'mkdir -p' "$CASE_DIR/mf" || bad="$bad [missing]"
    grep -q 'cuda-academy-tmp' "$CASE_DIR/ro" "$CASE_DIR/nd" "$CASE_DIR/mf" && bad="$bad [names the temp file]"
    [ -z "$bad" ]
    verdict $? "$(grep -o 'the folder [^;]*' "$CASE_DIR/ro" | head -1)$bad"
}

vd8_profile_mib_line() {
    case_start VD8 minor "profiles whose one line is 1 MiB (an unterminated string, a key, nested arrays): the error's size"
    local bad="" n f
    python3 - "$CASE_DIR" <<'PY'
import sys
d = sys.argv[1]
cap = (1 << 20) - 16
open(f"{d}/str.toml", "w").write('name = "' + "x" * cap + "\n")
open(f"{d}/key.toml", "w").write("k" * cap + " = \n")
open(f"{d}/arr.toml", "w").write("a = " + "[" * (cap // 2) + "]" * (cap // 2 - 8) + "\n")
PY
    for f in str key arr; do
        ca "$CASE_DIR/s" --profile "$CASE_DIR/$f.toml" info >/dev/null 2>"$CASE_DIR/$f.err"
        n=$(stat -c %s "$CASE_DIR/$f.err")
        [ "$n" -lt 4096 ] && [ "$n" -gt 0 ] && terminal_safe "$CASE_DIR/$f.err" || bad="$bad [$f: $n bytes]"
    done
    [ -z "$bad" ]
    verdict $? "stderr of $(stat -c %s "$CASE_DIR/str.err"), $(stat -c %s "$CASE_DIR/key.err"), $(stat -c %s "$CASE_DIR/arr.err") bytes$bad"
}

vd9_stdin_bounded() {
    case_start VD9 minor "exercise check ID - from /dev/zero, from 2 MiB of text, from a redirect of the solution, and /proc/self/fd/0 piped"
    local bad="" rc
    ca "$CASE_DIR/s" exercise check time-a-copy - --backend sim </dev/zero >/dev/null 2>"$CASE_DIR/zero"
    rc=$?
    [ $rc = 2 ] && grep -q 'more than 1048576 bytes' "$CASE_DIR/zero" || bad="$bad [zero: exit $rc]"
    head -c 2097152 /dev/zero | tr '\0' ' ' | ca "$CASE_DIR/s" exercise check time-a-copy - --backend sim >/dev/null 2>"$CASE_DIR/big"
    [ $? = 2 ] || bad="$bad [big]"
    ca "$CASE_DIR/s" exercise check time-a-copy - --backend sim <exercises/time-a-copy/solution.cu >"$CASE_DIR/sol" 2>&1
    rc=$?
    [ $rc = 0 ] || bad="$bad [solution by redirect: exit $rc]"
    ca "$CASE_DIR/s" exercise show time-a-copy | ca "$CASE_DIR/s" exercise check time-a-copy /proc/self/fd/0 --backend sim >"$CASE_DIR/pipe" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q 'checks:' "$CASE_DIR/pipe" || bad="$bad [pipe: exit $rc]"
    [ -z "$bad" ]
    verdict $? "/dev/zero: $(grep -o 'standard input holds[^;]*' "$CASE_DIR/zero"); the solution by redirect passes; a piped starter is checked$bad"
}

vd10_cupti_hostile() {
    case_start VD10 minor "CUDA_ACADEMY_CUPTI holding an OSC, C1 controls, 10,000 bytes, and an empty part beside a known word"
    local bad="" long
    long=$(head -c 10000 /dev/zero | tr '\0' 'z')
    CUDA_ACADEMY_CUPTI=$'no-tags,\e]0;T\a,\xc2\x9b2J' ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M >/dev/null 2>"$CASE_DIR/osc" || bad="$bad [osc: run failed]"
    terminal_safe "$CASE_DIR/osc" && grep -q 'unknown setting' "$CASE_DIR/osc" || bad="$bad [osc: $(cat -v "$CASE_DIR/osc" | head -1 | cut -c1-80)]"
    grep -q 'no-tags`' "$CASE_DIR/osc" && ! grep -q "unknown setting \`no-tags" "$CASE_DIR/osc" || bad="$bad [a known word called unknown]"
    CUDA_ACADEMY_CUPTI=$long ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M >/dev/null 2>"$CASE_DIR/long"
    [ "$(stat -c %s "$CASE_DIR/long")" -lt 1000 ] || bad="$bad [long: $(stat -c %s "$CASE_DIR/long") bytes]"
    CUDA_ACADEMY_CUPTI='attach-once,' ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M >/dev/null 2>"$CASE_DIR/ok"
    [ -s "$CASE_DIR/ok" ] && bad="$bad [a known word warned]"
    [ -z "$bad" ]
    verdict $? "$(head -1 "$CASE_DIR/osc" | cut -c1-150); 10,000 bytes: a $(stat -c %s "$CASE_DIR/long")-byte warning$bad"
}
