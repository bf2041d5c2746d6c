# The 2026-12-01 review (shared/reviews/2026-12-01-reliability.md) of the exercise surfaces:
# the rows fixed by issue 21's hardening branch (escape injection, bounded reads, recursion,
# printf bounds, concurrent passes, step costs, file-size limits). Ids as in that review; its
# P1 is NP1 here (P1 is the old review's).

# wd SECONDS CMD...: run CMD, killed after SECONDS (a hang is then exit 137).
wd() { local s=$1; shift; timeout -s KILL "$s" "$@"; }
# cav STATE ARGS...: the binary under a 2 GB address-space limit (unbounded reads then abort).
cav() { (ulimit -v 2000000; ca "$@"); }

exercise_surfaces() {
    run_case X1 x1_printf_spec
    run_case X2 x2_x3_names
    run_case X4 x4_x29_json
    run_case X5 x5_devices
    run_case X7 x7_fifo_source
    run_case X11 x11_x13_progress
    run_case X12 x12_passed
    run_case X17 x17_deep_parens
    run_case X21 x21_printf_precision
    run_case NP1 np1_concurrent_passes
    run_case R2 r2_partial_fill
    run_case U2 u2_file_size
}

x1_printf_spec() {
    case_start X1 critical "exercise check of a printf whose conversion spec holds ESC[2J and OSC 0 (text and stderr)"
    printf 'int main()\n{\n    printf("%%\033[2J\033]0;T\007q");\n    return 0;\n}\n' >"$CASE_DIR/a.cu"
    ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/a.cu" --backend sim >"$CASE_DIR/out" 2>&1
    local rc=$?
    terminal_safe "$CASE_DIR/out" && [ $rc = 1 ] && no_panic "$CASE_DIR/out"
    verdict $? "exit $rc; $(grep -c . "$CASE_DIR/out") lines, no control byte: $(grep -m1 'printf\|%' "$CASE_DIR/out" | cut -c1-100)"
}

x2_x3_names() {
    case_start X2 critical "exercise check with OSC 0 / OSC 52 / CSI 2J / U+202E in a function, a kernel and a type name (X2, X3)"
    local e=$'\e]0;PWNED\a\e]52;c;cHduZWQ=\a\e[2J\u202egnp' bad=""
    printf 'void f<"%s">() {}\nint main()\n{\n    return 0;\n}\n' "$e" >"$CASE_DIR/f.cu"
    printf 'int main()\n{\n    k["%s"]<<<1, 1>>>(0);\n    return 0;\n}\n' "$e" >"$CASE_DIR/k.cu"
    printf 'int main()\n{\n    foo<"%s"> x;\n    return 0;\n}\n' "$e" >"$CASE_DIR/t.cu"
    for f in f k t; do
        ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/$f.cu" --backend sim >"$CASE_DIR/$f.out" 2>&1
        terminal_safe "$CASE_DIR/$f.out" || bad="$bad [$f: control bytes]"
        grep -q $'\u202e' "$CASE_DIR/$f.out" && bad="$bad [$f: raw U+202E]"
    done
    [ -z "$bad" ]
    verdict $? "function, kernel, type: no control byte, bidi shown as <U+202E>${bad}"
}

x4_x29_json() {
    case_start X4 major "exercise check --json with C1 (U+009D, U+009B) in the file and in a --profile name (X4, X29)"
    printf 'void f<"\xc2\x9d0;PWNED\xc2\x9c\xc2\x9b2J">() {}\nint main()\n{\n    return 0;\n}\n' >"$CASE_DIR/c1.cu"
    profile_with "name=$(toml_str $'n\u009d0;PWNED\u009c\e[2J')" >"$CASE_DIR/p.toml"
    ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/c1.cu" --backend sim --json >"$CASE_DIR/a.json" 2>"$CASE_DIR/a.err"
    ca "$CASE_DIR/s" --profile "$CASE_DIR/p.toml" exercise check time-a-copy exercises/time-a-copy/solution.cu --backend sim --json >"$CASE_DIR/b.json" 2>"$CASE_DIR/b.err"
    terminal_safe "$CASE_DIR/a.json" "$CASE_DIR/a.err" "$CASE_DIR/b.json" "$CASE_DIR/b.err" &&
        json "$CASE_DIR/a.json" "d['passed']" >/dev/null && json "$CASE_DIR/b.json" "d['passed']" >/dev/null
    verdict $? "both valid JSON, C1 escaped (\\u009b), stderr clean"
}

x5_devices() {
    case_start X5 critical "exercise check time-a-copy /dev/zero, /dev/urandom, /dev/full (2 GB address-space limit)"
    local d out=""
    for d in /dev/zero /dev/urandom /dev/full; do
        wd 60 bash -c "$(declare -f ca cav); cav '$CASE_DIR/s' exercise check time-a-copy $d --backend sim" >"$CASE_DIR/out" 2>&1
        out="$out [$d: exit $? $(grep -o 'is a character device[^;]*' "$CASE_DIR/out" | head -1)]"
    done
    [ "$(grep -o 'exit 2 is a character device' <<<"$out" | wc -l)" = 3 ]
    verdict $? "$out"
}

x7_fifo_source() {
    case_start X7 minor "exercise check time-a-copy fifo.cu (a FIFO with no writer)"
    mkfifo "$CASE_DIR/fifo.cu"
    wd 10 bash -c "$(declare -f ca); ca '$CASE_DIR/s' exercise check time-a-copy '$CASE_DIR/fifo.cu' --backend sim" >"$CASE_DIR/out" 2>&1
    local rc=$?
    [ $rc = 2 ] && grep -q 'is a FIFO' "$CASE_DIR/out"
    verdict $? "exit $rc: $(head -1 "$CASE_DIR/out" | cut -c1-110)"
}

x11_x13_progress() {
    case_start X11 critical "progress.json a link to /dev/zero (X11), a FIFO (X13): cuda-academy list"
    mkdir -p "$CASE_DIR/z" "$CASE_DIR/f"
    ln -s /dev/zero "$CASE_DIR/z/progress.json"
    mkfifo "$CASE_DIR/f/progress.json"
    wd 30 bash -c "$(declare -f ca cav); cav '$CASE_DIR/z' list" >"$CASE_DIR/z.out" 2>&1
    local rz=$?
    wd 30 bash -c "$(declare -f ca cav); cav '$CASE_DIR/f' list" >"$CASE_DIR/f.out" 2>&1
    local rf=$?
    [ $rz = 0 ] && [ $rf = 0 ]
    verdict $? "link to /dev/zero: exit $rz; FIFO: exit $rf (no hang, no growth)"
}

x12_passed() {
    case_start X12 critical "exercises/passed.json a link to /dev/zero: exercise list; exercise check of a solution"
    mkdir -p "$CASE_DIR/s/exercises"
    ln -s /dev/zero "$CASE_DIR/s/exercises/passed.json"
    wd 60 bash -c "$(declare -f ca cav); cav '$CASE_DIR/s' exercise list" >"$CASE_DIR/l.out" 2>&1
    local rl=$?
    wd 60 bash -c "$(declare -f ca cav); cav '$CASE_DIR/s' exercise check time-a-copy exercises/time-a-copy/solution.cu --backend sim" >"$CASE_DIR/c.out" 2>&1
    local rc=$?
    [ $rl = 0 ] && [ $rc = 0 ] && grep -q 'character device' "$CASE_DIR/l.out" && grep -q 'not recorded.*character device' "$CASE_DIR/c.out"
    verdict $? "list exit $rl, check exit $rc: $(grep -m1 'not recorded' "$CASE_DIR/c.out" | cut -c1-120)"
}

x17_deep_parens() {
    case_start X17 critical "exercise check of 50,000 nested parentheses around a syntax error"
    python3 -c "n=50000; open('$CASE_DIR/deep.cu','w').write('int main()\n{\n    int x = ' + '('*n + '1 @' + ')'*n + ';\n    return 0;\n}\n')"
    ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/deep.cu" --backend sim >"$CASE_DIR/out" 2>&1
    local rc=$?
    [ $rc = 1 ] && grep -q 'syntax error' "$CASE_DIR/out" && no_panic "$CASE_DIR/out"
    verdict $? "exit $rc: $(grep -m1 'syntax error' "$CASE_DIR/out" | cut -c1-100)"
}

x21_printf_precision() {
    case_start X21 critical "printf(\"%.65536f\") and printf(\"%.99999999999999999999f\") (X21, X23)"
    local p out=""
    for p in 65536 99999999999999999999; do
        printf 'int main()\n{\n    printf("%%.%sf\\n", 1.0);\n    return 0;\n}\n' "$p" >"$CASE_DIR/p.cu"
        ca "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/p.cu" --backend sim >"$CASE_DIR/out" 2>&1
        out="$out [exit $? $(grep -o 'digits after the point[^;]*; the most[^`]*' "$CASE_DIR/out" | head -1)]"
        no_panic "$CASE_DIR/out" || out="$out PANIC"
    done
    [ "$(grep -o 'exit 1 digits after the point' <<<"$out" | wc -l)" = 2 ] && ! grep -q PANIC <<<"$out"
    verdict $? "$out"
}

np1_concurrent_passes() {
    case_start NP1 critical "the 9 solutions checked at once on one state dir, 5 rounds (the review's P1)"
    local round kept=""
    for round in 1 2 3 4 5; do
        rm -rf "$CASE_DIR/s"
        for d in exercises/*/; do
            ca "$CASE_DIR/s" exercise check "$(basename "$d")" "$d/solution.cu" --backend sim >/dev/null 2>&1 &
        done
        wait
        kept="$kept $(json "$CASE_DIR/s/exercises/passed.json" "len(d)")"
    done
    [ "$kept" = " 9 9 9 9 9" ]
    verdict $? "ids kept per round:$kept of 9"
}

r2_partial_fill() {
    case_start R2 critical "1,000 fill_input calls on part of a buffer (65,536 single-float writes each)"
    printf 'int main()\n{\n    float *h;\n    cudaMallocHost(&h, (65536 + 1) * 4);\n    for (int i = 0; i < 1000; i++) {\n        fill_input(h, 65536);\n    }\n    cudaFreeHost(h);\n    return 0;\n}\n' >"$CASE_DIR/r2.cu"
    local t0=$SECONDS
    wd 120 bash -c "$(declare -f ca); ca '$CASE_DIR/s' exercise check time-a-copy '$CASE_DIR/r2.cu' --backend sim" >"$CASE_DIR/out" 2>&1
    local rc=$?
    [ $rc = 1 ] && grep -q 'stopped after' "$CASE_DIR/out"
    verdict $? "exit $rc after $((SECONDS - t0)) s: $(grep -m1 -o 'stopped after[^?]*' "$CASE_DIR/out")"
}

u2_file_size() {
    case_start U2 major "ulimit -f 10: run pipeline --trace t.json"
    mkdir -p "$CASE_DIR/t"
    (ulimit -f 10; ca "$CASE_DIR/s" run pipeline --backend sim --trace "$CASE_DIR/t/t.json") >"$CASE_DIR/out" 2>&1
    local rc=$?
    [ $rc = 1 ] && grep -q 'File too large' "$CASE_DIR/out" && [ -z "$(ls -A "$CASE_DIR/t")" ]
    verdict $? "exit $rc, $(grep -o 'File too large' "$CASE_DIR/out" | head -1), left in the folder: [$(ls -A "$CASE_DIR/t")]"
}
