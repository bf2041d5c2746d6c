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
    run_case X14 x14_x15_e11_tui_reads
    run_case X16 x16_second_instance
    run_case X35 x35_touch_loop
    run_case F1 f1_f3_failed_save
    run_case E6 e6_latin1_external
    run_case E8 e8_ctrl_z_in_editor
    run_case E9 e9_ctrl_c_in_editor
    run_case S7 s7_paste
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
    # The review had 9 exercises; every one there is now is checked at once.
    local n
    n=$(ls -d exercises/*/ | wc -l)
    case_start NP1 critical "all $n solutions checked at once on one state dir, 5 rounds (the review's P1, then 9)"
    local round kept="" want=""
    for round in 1 2 3 4 5; do
        want="$want $n"
        rm -rf "$CASE_DIR/s"
        for d in exercises/*/; do
            ca "$CASE_DIR/s" exercise check "$(basename "$d")" "$d/solution.cu" --backend sim >/dev/null 2>&1 &
        done
        wait
        kept="$kept $(json "$CASE_DIR/s/exercises/passed.json" "len(d)")"
    done
    [ "$kept" = "$want" ]
    verdict $? "ids kept per round:$kept of $n"
}

r2_partial_fill() {
    case_start R2 critical "1,000 fill_input calls on part of a buffer (65,536 single-float writes each); the same loop forever"
    printf 'int main()\n{\n    float *h;\n    cudaMallocHost(&h, (65536 + 1) * 4);\n    for (int i = 0; i < 1000; i++) {\n        fill_input(h, 65536);\n    }\n    cudaFreeHost(h);\n    return 0;\n}\n' >"$CASE_DIR/r2.cu"
    # The same loop forever: what the review extrapolated (the budget, hours) must stop soon.
    sed 's/for (int i = 0; i < 1000; i++)/while (1)/' "$CASE_DIR/r2.cu" >"$CASE_DIR/r2-forever.cu"
    local t0=$SECONDS
    wd 120 bash -c "$(declare -f ca); ca '$CASE_DIR/s' exercise check time-a-copy '$CASE_DIR/r2.cu' --backend sim" >"$CASE_DIR/out" 2>&1
    local rc=$? t1=$((SECONDS - t0))
    wd 120 bash -c "$(declare -f ca); ca '$CASE_DIR/s' exercise check time-a-copy '$CASE_DIR/r2-forever.cu' --backend sim" >"$CASE_DIR/out2" 2>&1
    local rc2=$? t2=$((SECONDS - t0 - t1))
    [ $rc = 1 ] && grep -q 'runs to the end\|stopped after' "$CASE_DIR/out" && [ $rc2 = 1 ] && grep -q 'stopped after' "$CASE_DIR/out2"
    verdict $? "1,000 calls: exit $rc after $t1 s ($(grep -m1 -o 'runs to the end ([^)]*)\|stopped after[^?]*' "$CASE_DIR/out")); forever: exit $rc2 after $t2 s ($(grep -m1 -o 'stopped after[^?]*' "$CASE_DIR/out2"))"
}

u2_file_size() {
    case_start U2 major "ulimit -f 10: run pipeline --trace t.json"
    mkdir -p "$CASE_DIR/t"
    (ulimit -f 10; ca "$CASE_DIR/s" run pipeline --backend sim --trace "$CASE_DIR/t/t.json") >"$CASE_DIR/out" 2>&1
    local rc=$?
    [ $rc = 1 ] && grep -q 'File too large' "$CASE_DIR/out" && [ -z "$(ls -A "$CASE_DIR/t")" ]
    verdict $? "exit $rc, $(grep -o 'File too large' "$CASE_DIR/out" | head -1), left in the folder: [$(ls -A "$CASE_DIR/t")]"
}

# ---- the editor (issue 21's editor and TUI half: K4, K5, K9, K10, K11, K13, E9) -------------
# tui_ed NAME STATE [ENV]: the TUI on the simulator with state dir STATE, its first exercise
# open in the editor (w, Enter).
tui_ed() {
    tmx_start "$1" 100 30 "${3:-} CUDA_ACADEMY_STATE_DIR=$2 $BIN --backend sim"
    tmx_wait "$1" 'Lesson 1/4' 15 || return 1
    tmx_keys "$1" w
    tmx_keys "$1" Enter
    tmx_wait "$1" 'Exercise:' 10
}
ex_file() { echo "$1/exercises/time-a-copy.cu"; }
# The pane as one line, runs of blanks and line ends as one space (banners wrap at any word).
tmx_flat() { tmx_cap "$1" | tr -s ' \n' '  '; }

x14_x15_e11_tui_reads() {
    case_start X14 critical "TUI: the exercise file a link to /dev/zero (X14), a FIFO (X15), then a FIFO left by \$EDITOR (E11)"
    local bad="" s kind
    for kind in zero fifo; do
        s="$CASE_DIR/$kind"
        mkdir -p "$s/exercises"
        if [ $kind = zero ]; then ln -s /dev/zero "$(ex_file "$s")"; else mkfifo "$(ex_file "$s")"; fi
        tui_ed rl-x14 "$s"
        tmx_flat rl-x14 | grep -q 'not a regular file' || bad="$bad [$kind: no message]"
        tmx_keys rl-x14 Escape; tmx_keys rl-x14 q
        [ "$(tmx_exit rl-x14 10)" = 0 ] || bad="$bad [$kind: exit]"
        tmx_kill rl-x14
    done
    s="$CASE_DIR/e11"
    printf '#!/bin/sh\nrm -f "$1"; mkfifo "$1"\n' >"$CASE_DIR/fifo-editor"; chmod +x "$CASE_DIR/fifo-editor"
    tui_ed rl-x14 "$s" "EDITOR=$CASE_DIR/fifo-editor"
    tmx_keys rl-x14 F4; sleep 1
    tmx_flat rl-x14 | grep -q 'not a regular file' || bad="$bad [e11: no message]"
    tmx_keys rl-x14 Escape; tmx_keys rl-x14 q
    [ "$(tmx_exit rl-x14 10)" = 0 ] || bad="$bad [e11: exit]"
    tmx_kill rl-x14
    [ -z "$bad" ]
    verdict $? "each: 'not a regular file' banner, Esc and q answer, exit 0${bad}"
}

x16_second_instance() {
    case_start X16 critical "TUI A types 2 lines (unsaved); TUI B on the same state dir: w, Enter, Esc, q; then B types and saves"
    local s="$CASE_DIR/s" bad=""
    tui_ed rl-x16a "$s"
    tmx_keys rl-x16a '// typed in A' Enter '// second' Enter
    tui_ed rl-x16b "$s"
    tmx_keys rl-x16b Escape; tmx_keys rl-x16b q; tmx_exit rl-x16b 10 >/dev/null
    sleep 1
    tmx_cap rl-x16a | grep -q '// typed in A' || bad="$bad [A lost its lines when B left]"
    tui_ed rl-x16b "$s"
    tmx_keys rl-x16b '// from B' Enter; tmx_keys rl-x16b Escape; tmx_keys rl-x16b q; tmx_exit rl-x16b 10 >/dev/null
    sleep 1
    tmx_cap rl-x16a | grep -q 'The file changed outside' || bad="$bad [no prompt in A]"
    tmx_cap rl-x16a | grep -q '// typed in A' || bad="$bad [A lost its lines]"
    # The prompt takes no typing since issue 29 (review 2026-12-01b ED5): Alt-K keeps mine.
    tmx_keys rl-x16a M-k; tmx_keys rl-x16a Escape; tmx_keys rl-x16a q
    [ "$(tmx_exit rl-x16a 10)" = 0 ] || bad="$bad [A exit]"
    grep -q '// typed in A' "$(ex_file "$s")" || bad="$bad [A's text not saved after Alt-K]"
    tmx_kill rl-x16a; tmx_kill rl-x16b
    [ -z "$bad" ]
    verdict $? "A kept its lines when B left; B's save offered in A (Alt-K keep mine / Alt-L load theirs / Alt-C compare); Alt-K then Esc saved A's text${bad}"
}

x35_touch_loop() {
    case_start X35 critical "two idle TUIs with the exercise open; touch the file once; type 8 letters into A over 5.6 s"
    local s="$CASE_DIR/s" bad="" m1 m2 i
    tui_ed rl-x35a "$s"; tui_ed rl-x35b "$s"
    touch "$(ex_file "$s")"; sleep 1
    m1=$(stat -c %Y.%s "$(ex_file "$s")")
    for i in a b c d e f g h; do tmux send-keys -t rl-x35a "$i"; sleep 0.7; done
    m2=$(stat -c %Y.%s "$(ex_file "$s")")
    [ "$m1" = "$m2" ] || bad="$bad [the file kept changing]"
    tmx_cap rl-x35a | grep -q abcdefgh || bad="$bad [letters lost]"
    for i in a b; do tmx_keys rl-x35$i Escape; tmx_keys rl-x35$i q; tmx_exit rl-x35$i 10 >/dev/null; tmx_kill rl-x35$i; done
    grep -q abcdefgh "$(ex_file "$s")" || bad="$bad [letters not saved on leaving]"
    [ -z "$bad" ]
    verdict $? "no reload loop (file unchanged for 5.6 s after the touch), the 8 letters kept and saved on leaving${bad}"
}

f1_f3_failed_save() {
    case_start F1 critical "TUI: type, the exercises folder replaced by a regular file, then Esc, then Ctrl-C (F1, F3; fails for root too)"
    local s="$CASE_DIR/s" bad="" rc rec
    tui_ed rl-f1 "$s"
    tmx_keys rl-f1 '// precious' Enter
    rm -rf "$s/exercises"; echo file >"$s/exercises"
    tmx_keys rl-f1 Escape; sleep 0.5
    tmx_cap rl-f1 | grep -q 'exercise not saved' || bad="$bad [no message]"
    tmx_cap rl-f1 | grep -q 'Exercise:' || bad="$bad [the editor closed]"
    tmx_keys rl-f1 C-q
    rc=$(tmx_exit rl-f1 10)
    [ "$rc" = 1 ] || bad="$bad [exit $rc]"
    tmx_cap rl-f1 | grep -q 'your text is in' || bad="$bad [stderr says nothing]"
    rec=$(ls "$s"/recovered/time-a-copy-*.cu 2>/dev/null | head -1)
    [ -n "$rec" ] && grep -q '// precious' "$rec" || bad="$bad [no recovery file]"
    tmx_kill rl-f1
    [ -z "$bad" ]
    verdict $? "editor stays open with 'exercise not saved: cannot create the folder .../exercises'; Ctrl-C: exit 1, stderr names recovered/$(basename "${rec:-none}")${bad}"
}

e6_latin1_external() {
    case_start E6 critical "EDITOR appends a Latin-1 line; Ctrl-E, then Esc and q"
    local s="$CASE_DIR/s" bad="" before after
    printf '#!/bin/sh\nprintf "// caf\\351 au lait\\nint y = 0;\\n" >>"$1"\n' >"$CASE_DIR/latin1"; chmod +x "$CASE_DIR/latin1"
    tui_ed rl-e6 "$s" "EDITOR=$CASE_DIR/latin1"
    tmx_keys rl-e6 '// typed' Enter
    tmx_keys rl-e6 F4; sleep 1
    tmx_flat rl-e6 | grep -q 'is not UTF-8 text' || bad="$bad [no message]"
    before=$(md5sum <"$(ex_file "$s")")
    tmx_keys rl-e6 Escape; tmx_keys rl-e6 q
    [ "$(tmx_exit rl-e6 10)" = 0 ] || bad="$bad [exit]"
    after=$(md5sum <"$(ex_file "$s")")
    [ "$before" = "$after" ] && grep -qa 'caf' "$(ex_file "$s")" && grep -q '// typed' "$(ex_file "$s")" || bad="$bad [the external edit was overwritten]"
    tmx_kill rl-e6
    [ -z "$bad" ]
    verdict $? "banner 'is not UTF-8 text', prompt 'The file changed outside'; the file keeps the typed line and the Latin-1 edit after Esc and q${bad}"
}

e8_ctrl_z_in_editor() {
    case_start E8 critical "EDITOR=vim: Ctrl-E, Ctrl-Z inside vim, then fg, :wq"
    local s="$CASE_DIR/s" bad=""
    tui_ed rl-e8 "$s" "EDITOR='vim -u NONE'"
    tmx_keys rl-e8 F4; sleep 1
    tmx_keys rl-e8 C-z; sleep 1
    tmx_wait rl-e8 Stopped 5 || bad="$bad [no stopped job]"
    # The job's command line printed RLEXIT=147 when it stopped; its real status comes as RLFG.
    tmx_keys rl-e8 'fg; echo RLFG=$?' Enter; sleep 1
    tmx_keys rl-e8 i '// from vim' Escape ':wq' Enter; sleep 1
    tmx_wait rl-e8 '// from vim' 5 || bad="$bad [vim's edit not loaded]"
    tmx_keys rl-e8 Escape; tmx_keys rl-e8 q
    tmx_wait rl-e8 'RLFG=0' 10 || bad="$bad [exit: $(tmx_cap rl-e8 | grep -o 'RLFG=[0-9]*' | tail -1)]"
    [ "$(tmx_restored rl-e8)" = restored ] || bad="$bad [terminal]"
    tmx_kill rl-e8
    [ -z "$bad" ]
    verdict $? "the shell shows the job Stopped; fg brings vim back; :wq returns to the tutorial with vim's line loaded; q exits 0, terminal restored${bad}"
}

e9_ctrl_c_in_editor() {
    case_start E9 major "EDITOR= a script running sleep 1000 (cooked mode): Ctrl-E, then Ctrl-C"
    local s="$CASE_DIR/s" bad=""
    printf '#!/bin/sh\nsleep 1000\n' >"$CASE_DIR/sleeper"; chmod +x "$CASE_DIR/sleeper"
    tui_ed rl-e9 "$s" "EDITOR=$CASE_DIR/sleeper"
    tmx_keys rl-e9 F4; sleep 1
    tmx_keys rl-e9 C-c; sleep 1
    tmx_flat rl-e9 | grep -q 'exited with signal: 2 (SIGINT)' || bad="$bad [the tutorial did not come back]"
    tmx_keys rl-e9 Escape; tmx_keys rl-e9 q
    [ "$(tmx_exit rl-e9 10)" = 0 ] || bad="$bad [exit]"
    tmx_kill rl-e9
    [ -z "$bad" ]
    verdict $? "Ctrl-C ends the editor only; the tutorial comes back (banner: the editor exited with a signal); q exits 0${bad}"
}

s7_paste() {
    case_start S7 critical "TUI editor: paste 1 MB (14,000 lines of 70 characters) with tmux paste-buffer -p (bracketed)"
    local s="$CASE_DIR/s" bad="" t0 t1
    python3 -c "import sys; sys.stdout.write((('    x = x + 1; // ' + 'a' * 50).ljust(69) + chr(10)) * 14000)" >"$CASE_DIR/paste"
    tui_ed rl-s7 "$s"
    tmux load-buffer -b rl-s7 "$CASE_DIR/paste"
    t0=$(date +%s%N)
    tmux paste-buffer -p -b rl-s7 -t rl-s7
    tmx_wait rl-s7 'line 14001' 60 || bad="$bad [not shown within 60 s]"
    t1=$(date +%s%N)
    tmx_keys rl-s7 Escape; tmx_keys rl-s7 q
    [ "$(tmx_exit rl-s7 20)" = 0 ] || bad="$bad [exit]"
    [ "$(grep -c 'x = x + 1' "$(ex_file "$s")")" = 14000 ] || bad="$bad [not saved whole]"
    tmx_kill rl-s7
    [ -z "$bad" ]
    verdict $? "pasted, drawn and at line 14001 in $(( (t1 - t0) / 1000000 )) ms; saved whole on leaving${bad}"
}
