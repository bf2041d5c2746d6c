# Storage (issue 29, review 2026-12-01b ST1-ST6, ED3-ED5): a failed save never destroys what it
# replaces, special files and held locks never block the UI, and the "changed outside" prompt
# never takes typing. Variants of the review's cases, on other files and in other states.

variants_storage() {
    run_case VS1 vs1_full_disk_on_quit
    run_case VS2 vs2_efbig_on_passed_json
    run_case VS3 vs3_fifo_as_progress_json
    run_case VS4 vs4_lock_held_during_ctrl_r
    run_case VS5 vs5_prompt_mid_word_k_and_d
}

# The TUI in tmux with the state folder and temp folder given (tmx_start clears the environment).
_vs_tui() { # NAME STATE EXTRA-COMMAND-PREFIX
    tmx_start "$1" 100 30 "${3:-} CUDA_ACADEMY_STATE_DIR=$2 TMPDIR=$CASE_DIR/tmp NO_COLOR=1 $BIN --backend sim 2>$CASE_DIR/stderr"
    tmx_wait "$1" 'Lesson 1/4' 15 >/dev/null
}

vs1_full_disk_on_quit() {
    case_start VS1 critical "state folder on a full 64 KiB tmpfs holding progress.json and the exercise file: l (move a card), w, Enter, paste 6,000 characters, Ctrl-C (quitting saves both)"
    if [ "$(id -u)" != 0 ]; then _row PASS "skipped: needs root for the tmpfs"; return; fi
    local s="$CASE_DIR/mnt/state" f rc ex_before pr_before rec
    mkdir -p "$CASE_DIR/mnt" "$CASE_DIR/tmp"
    mount -t tmpfs -o size=64k tmpfs "$CASE_DIR/mnt" || { fail "mount failed"; return; }
    mkdir -p "$s/exercises"
    f=$s/exercises/time-a-copy.cu
    ca "$s" exercise show time-a-copy >"$f"
    printf '{"version":2,"seed":5,"current_lesson":null,"lessons":{"lesson-1":{"card":1,"seen":[0,1]}}}\n' >"$s/progress.json"
    ex_before=$(md5sum <"$f") pr_before=$(md5sum <"$s/progress.json")
    dd if=/dev/zero of="$CASE_DIR/mnt/filler" bs=1k count=200 2>/dev/null
    _vs_tui rl-vs1 "$s"
    tmx_keys rl-vs1 l; tmx_keys rl-vs1 w; tmx_keys rl-vs1 Enter; sleep 1
    printf '// %6000s\n' | tr ' ' z >"$CASE_DIR/paste"
    tmux load-buffer -b vs1 "$CASE_DIR/paste"; tmux paste-buffer -p -b vs1 -t rl-vs1; sleep 1
    tmx_keys rl-vs1 C-q
    rc=$(tmx_exit rl-vs1 20)
    tmx_kill rl-vs1
    rec=$(grep -o 'your text is in [^ ]*\.cu' "$CASE_DIR/stderr" | head -1 | sed 's/your text is in //')
    local bad=""
    [ "$(md5sum <"$f")" = "$ex_before" ] || bad="$bad [exercise file changed: $(stat -c %s "$f") bytes]"
    [ "$(md5sum <"$s/progress.json")" = "$pr_before" ] || bad="$bad [progress.json changed]"
    [ -n "$rec" ] && grep -q zzzzzzzzzz "$rec" 2>/dev/null || bad="$bad [no recovery file named: $(head -c 300 "$CASE_DIR/stderr")]"
    umount -l "$CASE_DIR/mnt"
    [ -z "$bad" ]
    verdict $? "exit $rc; exercise file and progress.json byte for byte; text in ${rec:-nowhere}$bad"
}

vs2_efbig_on_passed_json() {
    case_start VS2 critical "ulimit -f 2 with a 1,900-byte passed.json (its next write is over 2 KiB): exercise check of the solution"
    local s="$CASE_DIR/s" before rc
    mkdir -p "$s/exercises"
    python3 -c "import json; print(json.dumps(['other-%03d' % i for i in range(150)]))" >"$s/exercises/passed.json"
    before=$(md5sum <"$s/exercises/passed.json")
    (ulimit -f 2; CUDA_ACADEMY_STATE_DIR=$s NO_COLOR=1 timeout -s KILL 120 "$BIN" exercise check time-a-copy exercises/time-a-copy/solution.cu --backend sim >"$CASE_DIR/out" 2>"$CASE_DIR/err")
    rc=$?
    local bad=""
    [ "$(md5sum <"$s/exercises/passed.json")" = "$before" ] || bad="$bad [passed.json changed: $(stat -c %s "$s/exercises/passed.json") bytes]"
    grep -q 'pass is not recorded' "$CASE_DIR/err" || bad="$bad [no word: $(head -c 200 "$CASE_DIR/err")]"
    no_panic "$CASE_DIR/err" || bad="$bad [panic]"
    ls -a "$s/exercises" | grep -q cuda-academy-tmp && bad="$bad [temp file left]"
    [ -z "$bad" ]
    verdict $? "exit $rc; passed.json byte for byte; $(grep -o 'pass is not recorded[^(]*([^)]*)' "$CASE_DIR/err" | head -1)$bad"
}

vs3_fifo_as_progress_json() {
    case_start VS3 critical "progress.json is a FIFO: start the tutorial, l, q (then SIGTERM if still running)"
    local s="$CASE_DIR/s" rc
    mkdir -p "$s" "$CASE_DIR/tmp"
    mkfifo "$s/progress.json"
    _vs_tui rl-vs3 "$s"
    tmx_keys rl-vs3 l; tmx_keys rl-vs3 q
    rc=$(tmx_exit rl-vs3 10)
    if [ "$rc" = none ]; then kill -TERM "$(tmx_pid rl-vs3)" 2>/dev/null; rc="none (hung; SIGTERM: $(tmx_exit rl-vs3 5))"; fi
    local restored
    restored=$(tmx_restored rl-vs3)
    tmx_kill rl-vs3
    # Exit 1 is right: progress could not be saved, and stderr says why.
    [ -p "$s/progress.json" ] && [[ "$rc" = [01] ]] && [ "$restored" = restored ] && grep -q 'progress.json' "$CASE_DIR/stderr"
    verdict $? "exit $rc; still a FIFO: $([ -p "$s/progress.json" ] && echo yes || echo no); terminal $restored; stderr: $(head -c 200 "$CASE_DIR/stderr")"
}

vs4_lock_held_during_ctrl_r() {
    case_start VS4 major "another process holds exercises/.attempts.json.lock and .passed.json.lock for 30 s: open the exercise, put the solution in with the own editor (Ctrl-E: its save is checked at once), then Esc, q"
    local s="$CASE_DIR/s" rc holder t0 t shown
    mkdir -p "$s/exercises" "$CASE_DIR/tmp"
    flock "$s/exercises/.attempts.json.lock" flock "$s/exercises/.passed.json.lock" sleep 30 & holder=$!
    sleep 0.5
    printf '#!/bin/sh\ncp %s "$1"\n' "$PWD/exercises/time-a-copy/solution.cu" >"$CASE_DIR/ed.sh"; chmod +x "$CASE_DIR/ed.sh"
    _vs_tui rl-vs4 "$s" "EDITOR=$CASE_DIR/ed.sh"
    tmx_keys rl-vs4 w; tmx_keys rl-vs4 Enter; sleep 1
    t0=$SECONDS
    tmx_keys rl-vs4 F4
    tmx_wait rl-vs4 'not recorded' 20
    t=$((SECONDS - t0))
    shown=$(tmx_cap rl-vs4 | grep -c 'lock file')
    tmx_keys rl-vs4 Escape; tmx_keys rl-vs4 q
    rc=$(tmx_exit rl-vs4 10)
    kill "$holder" 2>/dev/null
    tmx_kill rl-vs4
    [ "$rc" = 0 ] && [ "$shown" -ge 1 ] && [ "$t" -le 10 ]
    verdict $? "the check and pass were said not recorded, naming the lock file, after $t s; q: exit $rc"
}

vs5_prompt_mid_word_k_and_d() {
    case_start VS5 critical "type an unsaved line, another program rewrites the file, keep typing '    kd = k + d' (the prompt appears mid-word), then Alt-L, Ctrl-C"
    local s="$CASE_DIR/s" f rc typed rec
    mkdir -p "$s" "$CASE_DIR/tmp"
    _vs_tui rl-vs5 "$s"
    tmx_keys rl-vs5 w; tmx_keys rl-vs5 Enter; sleep 1
    tmux send-keys -t rl-vs5 -l '// my unsaved line'; tmx_keys rl-vs5 Enter
    f=$s/exercises/time-a-copy.cu
    cp "$f" "$CASE_DIR/t"; echo '// edited elsewhere' >>"$CASE_DIR/t"; mv "$CASE_DIR/t" "$f"; sleep 0.5
    tmux send-keys -t rl-vs5 -l '    kd = k + d'; sleep 1
    typed=$(tmx_cap rl-vs5 | grep -c 'kd = k + d')
    tmx_keys rl-vs5 M-l; sleep 0.5
    rec=$(grep -rl 'kd = k + d' "$s/recovered" 2>/dev/null | head -1)
    tmx_keys rl-vs5 C-q
    rc=$(tmx_exit rl-vs5 10)
    tmx_kill rl-vs5
    [ "$typed" -ge 1 ] && [ -n "$rec" ] && grep -q 'my unsaved line' "$rec" && grep -q 'edited elsewhere' "$f" && [ "$rc" = 0 ]
    verdict $? "typed text on screen: $typed; after Alt-L the disk's text is loaded and the typed text is in ${rec:-nowhere}; exit $rc"
}
