# Issue 29, the grading helper's variants of review 2026-12-01b CK1, CK5, CK7 and ED6: grading
# bounded in time and memory and cancellable (one walk, event pairs indexed once, the check's
# Halt polled), the arrays in scope bounded, stream and event tables O(log n). Each row must end
# with a verdict or a named stop within the 60 s limit (plus start-up), never a crash.

variants_grading() {
    run_case VG1 vg1_events_read_300000_times
    run_case VG2 vg2_many_distinct_timed_pairs
    run_case VG3 vg3_arrays_in_a_loop_of_functions
    run_case VG4 vg4_events_created_and_destroyed
    run_case VG5 vg5_ck5_cancelled_in_the_tui
    run_case VG6 vg6_array_bomb_under_a_small_address_space
}

# vg_check NAME EXERCISE: check $CASE_DIR/NAME.cu under a 4 GB address space; sets VG_RC and
# VG_SECS, output in NAME.out.
vg_check() {
    local t0=$SECONDS
    (cd "$CASE_DIR" && ulimit -v 4000000 && ca "$CASE_DIR/s" exercise check "$2" "$CASE_DIR/$1.cu" --backend sim >"$CASE_DIR/$1.out" 2>&1)
    VG_RC=$? VG_SECS=$((SECONDS - t0))
}

# A verdict or a named stop (the wall-clock limit, the memory budget, a cap), exit 1, no panic,
# within 90 s.
vg_ended() {
    [ "$VG_RC" = 1 ] && no_panic "$CASE_DIR/$1.out" && [ "$VG_SECS" -le 90 ] &&
        grep -qE 'checks failed|passed|stopped' "$CASE_DIR/$1.out"
}

# timed_copies_read_often COPIES READS: CK5's program, with COPIES four-byte uploads inside one
# pair of events whose elapsed time is read READS times (one 2 MiB copy first, so a bandwidth
# may be reported).
timed_copies_read_often() {
    cat <<CU
#include "academy.cuh"
int main()
{
    float *h;
    cudaMallocHost(&h, 4 << 20);
    float *d;
    cudaMalloc(&d, 4 << 20);
    cudaMemcpy(d, h, 2 << 20, cudaMemcpyHostToDevice);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, 0);
    for (int i = 0; i < $1; i++) cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, 0);
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    float ms = 0;
    for (int j = 0; j < $2; j++) cudaEventElapsedTime(&ms, a, b);
    report("upload_gbps", 1.0);
    return 0;
}
CU
}

vg1_events_read_300000_times() {
    case_start VG1 critical "exercise check pageable-to-pinned: one pair of events around 20,000 small copies, its elapsed time read 300,000 times (about as many as the step budget allows; grading reads every pair; a 4 GB address space)"
    timed_copies_read_often 20000 300000 >"$CASE_DIR/f.cu"
    vg_check f pageable-to-pinned
    vg_ended f && ! grep -q 'step budget' "$CASE_DIR/f.out"
    verdict $? "exit $VG_RC after $VG_SECS s: $(grep -m1 -oE 'not yet: [^.]*checks failed|stopped[^:;]*' "$CASE_DIR/f.out")"
}

vg2_many_distinct_timed_pairs() {
    case_start VG2 critical "exercise check time-a-copy: 10,000 distinct event pairs, each around its own 1 MiB copy and each read 20 times (200,000 pair queries for each median criterion)"
    cat >"$CASE_DIR/f.cu" <<'CU'
#include "academy.cuh"
int main()
{
    float *h;
    cudaMallocHost(&h, 1 << 20);
    float *d;
    cudaMalloc(&d, 1 << 20);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float ms = 0;
    for (int i = 0; i < 10000; i++) {
        cudaEventRecord(a, 0);
        cudaMemcpyAsync(d, h, 1 << 20, cudaMemcpyHostToDevice, 0);
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        for (int k = 0; k < 20; k++) cudaEventElapsedTime(&ms, a, b);
    }
    report("pinned_gbps", 1.0);
    report("pageable_gbps", 1.0);
    return 0;
}
CU
    vg_check f time-a-copy
    vg_ended f && ! grep -q 'step budget' "$CASE_DIR/f.out"
    verdict $? "exit $VG_RC after $VG_SECS s: $(grep -m1 -oE 'not yet: [^.]*checks failed|stopped[^:;]*' "$CASE_DIR/f.out")"
}

vg3_arrays_in_a_loop_of_functions() {
    case_start VG3 critical "exercise check: a function declaring int a[4096] called 2,000 times in a loop (8 Mi elements in all, one array at a time: runs), and 300 arrays of 4096 in nested calls (the array budget, named)"
    cat >"$CASE_DIR/loop.cu" <<'CU'
#include "academy.cuh"
int f(int k)
{
    int a[4096];
    a[4095] = k;
    return a[4095];
}
int main()
{
    int s = 0;
    for (int i = 0; i < 2000; i++) {
        int b[4096];
        b[0] = f(i);
        s = s + b[0];
    }
    printf("%d\n", s);
    return 0;
}
CU
    {
        echo '#include "academy.cuh"'
        printf 'int g(int k)\n{\n'
        for k in $(seq 1 150); do echo "    int g$k[4096];"; done
        printf '    return k;\n}\nint f(int k)\n{\n'
        for k in $(seq 1 150); do echo "    int f$k[4096];"; done
        printf '    return g(k);\n}\nint main()\n{\n    f(1);\n    return 0;\n}\n'
    } >"$CASE_DIR/nested.cu"
    local bad=""
    vg_check loop time-a-copy
    { [ "$VG_RC" = 1 ] && grep -q '1999000' "$CASE_DIR/loop.out" && grep -q 'runs to the end' "$CASE_DIR/loop.out" && ! grep -q 'too many array elements' "$CASE_DIR/loop.out"; } || bad="$bad [loop: exit $VG_RC]"
    vg_check nested time-a-copy
    { [ "$VG_RC" = 1 ] && no_panic "$CASE_DIR/nested.out" && grep -q 'too many array elements at once' "$CASE_DIR/nested.out"; } || bad="$bad [nested: exit $VG_RC]"
    [ -z "$bad" ]
    verdict $? "loop: $(grep -m1 -o '1999000' "$CASE_DIR/loop.out") printed, ran to the end; nested: $(grep -m1 -o 'too many array elements at once[^;]*' "$CASE_DIR/nested.out")$bad"
}

vg4_events_created_and_destroyed() {
    case_start VG4 minor "exercise check: 200,000 cudaEventCreate + cudaEventDestroy, and 60,000 cudaStreamCreate + cudaStreamDestroy, in loops (tables O(log n); the GPU-operation cap stops the first)"
    printf '#include "academy.cuh"\nint main()\n{\n    for (int i = 0; i < 200000; i++) {\n        cudaEvent_t e;\n        cudaEventCreate(&e);\n        cudaEventDestroy(e);\n    }\n    return 0;\n}\n' >"$CASE_DIR/events.cu"
    printf '#include "academy.cuh"\nint main()\n{\n    for (int i = 0; i < 60000; i++) {\n        cudaStream_t s;\n        cudaStreamCreate(&s);\n        cudaStreamDestroy(s);\n    }\n    return 0;\n}\n' >"$CASE_DIR/streams.cu"
    local bad="" es ss
    vg_check events time-a-copy
    es=$VG_SECS
    { [ "$VG_RC" = 1 ] && [ "$es" -le 30 ] && grep -q 'stopped after 100000 GPU operations' "$CASE_DIR/events.out"; } || bad="$bad [events: exit $VG_RC after $es s]"
    vg_check streams time-a-copy
    ss=$VG_SECS
    { [ "$VG_RC" = 1 ] && [ "$ss" -le 30 ] && grep -q 'runs to the end' "$CASE_DIR/streams.out" && no_panic "$CASE_DIR/streams.out"; } || bad="$bad [streams: exit $VG_RC after $ss s]"
    [ -z "$bad" ]
    verdict $? "events: $(grep -m1 -o 'stopped after [0-9]* GPU operations' "$CASE_DIR/events.out") after $es s; streams: ran to the end after $ss s$bad"
}

vg5_ck5_cancelled_in_the_tui() {
    case_start VG5 major "CK5's program (98,990 copies, 250,000 reads) in the editor: Ctrl-R, Esc after 25 s (a 8 GB address space)"
    local s="$CASE_DIR/s" t=gr-vg5 still rc
    mkdir -p "$s/exercises"
    timed_copies_read_often 98990 250000 >"$s/exercises/pageable-to-pinned.cu"
    # Not named rl-*: run.sh's clean-up of another run on this machine kills rl-* sessions.
    tmx_start "$t" 100 30 "ulimit -v 8000000; CUDA_ACADEMY_STATE_DIR=$s NO_COLOR=1 $BIN --backend sim"
    sleep 2
    tmx_keys "$t" w
    tmx_keys "$t" Down
    tmx_keys "$t" Enter
    sleep 1
    tmx_keys "$t" F5
    sleep 25
    tmx_keys "$t" Escape
    sleep 3
    still=$(tmx_cap "$t" | grep -c 'cancelling\|checking')
    tmx_keys "$t" Escape
    tmx_keys "$t" q
    rc=$(tmx_exit "$t" 10)
    local restored
    restored=$(tmx_restored "$t")
    tmx_kill "$t"
    [ "$still" = 0 ] && [ "$rc" = 0 ] && [ "$restored" = restored ]
    verdict $? "3 s after Esc, still checking or cancelling: $still; exit $rc, terminal $restored"
}

vg6_array_bomb_under_a_small_address_space() {
    case_start VG6 critical "CK1's 65,536 ## arrays under a 1.2 GB address space (ulimit -v 1200000), and 48,000 plain int aN[4096] lines"
    cat >"$CASE_DIR/macro.cu" <<'CU'
#include "academy.cuh"
#define A(x) int x##0[4096]; int x##1[4096]; int x##2[4096]; int x##3[4096];
#define B(x) A(x##0) A(x##1) A(x##2) A(x##3)
#define C(x) B(x##0) B(x##1) B(x##2) B(x##3)
#define D(x) C(x##0) C(x##1) C(x##2) C(x##3)
#define E(x) D(x##0) D(x##1) D(x##2) D(x##3)
#define F(x) E(x##0) E(x##1) E(x##2) E(x##3)
#define G(x) F(x##0) F(x##1) F(x##2) F(x##3)
int main()
{
    G(a)
    G(b)
    G(c)
    G(d)
    return 0;
}
CU
    { echo '#include "academy.cuh"'; echo 'int main()'; echo '{'; for k in $(seq 1 48000); do echo "    int a$k[4096];"; done; printf '    return 0;\n}\n'; } >"$CASE_DIR/plain.cu"
    local bad="" f t0 rc
    for f in macro plain; do
        t0=$SECONDS
        (cd "$CASE_DIR" && ulimit -v 1200000 && ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/$f.cu" --backend sim >"$CASE_DIR/$f.out" 2>&1)
        rc=$?
        { [ $rc = 1 ] && no_panic "$CASE_DIR/$f.out" && [ $((SECONDS - t0)) -le 60 ] && grep -qE 'too many array elements at once|may need up to' "$CASE_DIR/$f.out"; } || bad="$bad [$f: exit $rc after $((SECONDS - t0)) s]"
    done
    [ -z "$bad" ]
    verdict $? "macro: $(grep -m1 -oE 'too many array elements at once|may need up to [0-9]* MiB' "$CASE_DIR/macro.out"); plain: $(grep -m1 -oE 'too many array elements at once|may need up to [0-9]* MiB' "$CASE_DIR/plain.out")$bad"
}
