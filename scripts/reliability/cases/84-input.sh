# Input that keeps up and a terminal that can go (issue 29, helper "input"): unbracketed pastes
# (tmux send-keys -l types the keys one by one; newlines as the CR a terminal sends), a terminal
# that closes or hangs up during the backlog, and stderr that fails every write.

variants_input() {
    run_case VI1 vi1_paste_then_hangup
    run_case VI2 vi2_sighup_during_backlog
    run_case VI3 vi3_pty_closed
    run_case VI4 vi4_stderr_closed_quit
    run_case VI5 vi5_megabyte_line
}

# vi_type NAME FILE: type FILE into the pane as keys, 8,000 at a time (tmux's command limit).
# tmux holds back the tail of a long send-keys until the pane gets more input: vi_wait nudges it
# with Alt-Q, a key the editor binds to nothing.
vi_type() {
    local c
    split -b 8000 "$2" "$CASE_DIR/chunk."
    for c in "$CASE_DIR"/chunk.*; do tmux send-keys -t "$1" -l "$(tr '\n' '\r' <"$c")"; done
}
vi_lines() { python3 -c "import sys; sys.stdout.write(('x = x + 1; // ' + 'a' * 50 + chr(10)) * ($1 // 65))" >"$2"; }
# vi_gone PID SECONDS: 0 once the process is gone.
# vi_wait NAME TEXT SECONDS: tmx_wait, nudging tmux every 0.2 s.
vi_wait() {
    local i
    for ((i = 0; i < $3 * 5; i++)); do
        tmx_cap "$1" | grep -qF -- "$2" && return 0
        tmux send-keys -t "$1" M-q
        sleep 0.2
    done
    return 1
}
vi_gone() {
    local i
    for ((i = 0; i < $2 * 10; i++)); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
    return 1
}
vi_no_crash_log() { ! ls "$1"/crash-*.log >/dev/null 2>&1; }

vi1_paste_then_hangup() {
    case_start VI1 critical "TUI editor: a 300 KB unbracketed paste (send-keys -l), drawn to its last line, then its tmux session killed (the terminal closes)"
    local s="$CASE_DIR/s" bad="" pid t0 t1
    vi_lines 300000 "$CASE_DIR/paste"
    tui_ed rl-vi1 "$s" || bad="$bad [editor not open]"
    pid=$(tmx_pid rl-vi1)
    t0=$(date +%s%N)
    vi_type rl-vi1 "$CASE_DIR/paste"
    vi_wait rl-vi1 'line 4616, column 1' 120 || bad="$bad [not at line 4616 within 120 s: $(tmx_cap rl-vi1 | grep -o 'line [0-9]*, column [0-9]*')]"
    t1=$(date +%s%N)
    tmux kill-session -t rl-vi1
    vi_gone "$pid" 10 || bad="$bad [still running 10 s after the hangup]"
    [ "$(grep -c 'x = x + 1' "$(ex_file "$s")")" = 4615 ] || bad="$bad [saved $(grep -c 'x = x + 1' "$(ex_file "$s")") of 4615 lines]"
    vi_no_crash_log "$s" || bad="$bad [crash log]"
    [ -z "$bad" ]
    verdict $? "sent and drawn at line 4616 in $(((t1 - t0) / 1000000)) ms; gone within 10 s of the hangup, 4615 lines saved, no crash log${bad}"
}

# A backlog: the paste sent in the background while the signal comes.
vi2_sighup_during_backlog() {
    case_start VI2 critical "TUI editor: kill -HUP while a 300 KB unbracketed paste is being typed"
    local s="$CASE_DIR/s" bad="" pid
    vi_lines 300000 "$CASE_DIR/paste"
    # The exit status to a file: the rest of the paste lands in the shell once the TUI is gone.
    tmx_start rl-vi2 100 30 "CUDA_ACADEMY_STATE_DIR=$s $BIN --backend sim; echo \$? >'$CASE_DIR/rc'"
    tmx_wait rl-vi2 'Lesson 1/4' 15 || bad="$bad [no start]"
    tmx_keys rl-vi2 w; tmx_keys rl-vi2 Enter
    tmx_wait rl-vi2 'Exercise:' 10 || bad="$bad [editor not open]"
    tmx_keys rl-vi2 -l '// first'
    tmx_wait rl-vi2 '// first' 10 || bad="$bad [first line not shown]"
    pid=$(tmx_pid rl-vi2)
    vi_type rl-vi2 "$CASE_DIR/paste" &
    local typer=$!
    sleep 2
    kill -HUP "$pid"
    vi_gone "$pid" 10 || bad="$bad [still running 10 s after SIGHUP]"
    kill "$typer" 2>/dev/null; wait "$typer" 2>/dev/null
    sleep 0.5
    [ "$(cat "$CASE_DIR/rc" 2>/dev/null)" = 129 ] || bad="$bad [exit $(cat "$CASE_DIR/rc" 2>/dev/null)]"
    head -1 "$(ex_file "$s")" | grep -q '^// first' || bad="$bad [typed text not saved]"
    vi_no_crash_log "$s" || bad="$bad [crash log]"
    tmx_kill rl-vi2
    [ -z "$bad" ]
    verdict $? "gone within 10 s, exit 129, what was typed saved, no crash log${bad}"
}

# The pane closed by the other side (tmux kill-pane: the pty's master closes, no signal from a
# shell in between: the binary is the pane's own command).
vi3_pty_closed() {
    case_start VI3 critical "TUI editor: the pane (pty master) closed mid-session, the binary the pane's own process"
    local s="$CASE_DIR/s" bad="" pid
    tmux kill-session -t rl-vi3 2>/dev/null
    tmux new-session -d -s rl-vi3 -x 100 -y 30 "env CUDA_ACADEMY_STATE_DIR=$s TERM=screen-256color $BIN --backend sim"
    tmx_wait rl-vi3 'Lesson 1/4' 15 || bad="$bad [no start]"
    tmx_keys rl-vi3 w; tmx_keys rl-vi3 Enter
    tmx_wait rl-vi3 'Exercise:' 10 || bad="$bad [editor not open]"
    tmx_keys rl-vi3 -l '// before the close'
    tmx_wait rl-vi3 '// before the close' 10 || bad="$bad [not typed]"
    pid=$(pgrep -f "^$BIN --backend sim" | while read -r p; do [ "$(tr '\0' '\n' </proc/$p/environ | grep -c "^CUDA_ACADEMY_STATE_DIR=$s$")" = 1 ] && echo "$p"; done | head -1)
    tmux kill-session -t rl-vi3
    vi_gone "$pid" 10 || bad="$bad [still running 10 s after the close]"
    head -1 "$(ex_file "$s")" | grep -q '^// before the close' || bad="$bad [not saved]"
    vi_no_crash_log "$s" || bad="$bad [crash log]"
    [ -z "$bad" ]
    verdict $? "gone within 10 s, text saved, no crash log${bad}"
}

vi4_stderr_closed_quit() {
    case_start VI4 major "TUI: stderr closed (2>&-) and stderr failing (2>/dev/full), type in the editor, then q"
    local s bad="" how
    for how in '2>&-' '2>/dev/full'; do
        s="$CASE_DIR/s${#how}"
        tmx_start rl-vi4 100 30 "CUDA_ACADEMY_STATE_DIR=$s $BIN --backend sim $how"
        tmx_wait rl-vi4 'Lesson 1/4' 15 || bad="$bad [$how: no start]"
        tmx_keys rl-vi4 w; tmx_keys rl-vi4 Enter
        tmx_wait rl-vi4 'Exercise:' 10 || bad="$bad [$how: editor not open]"
        tmx_keys rl-vi4 -l '// typed'
        tmx_keys rl-vi4 Escape; tmx_keys rl-vi4 q
        [ "$(tmx_exit rl-vi4 10)" = 0 ] || bad="$bad [$how: exit $(tmx_exit rl-vi4 1)]"
        head -1 "$(ex_file "$s")" | grep -q '^// typed' || bad="$bad [$how: not saved]"
        vi_no_crash_log "$s" || bad="$bad [$how: crash log]"
        tmx_kill rl-vi4
    done
    [ -z "$bad" ]
    verdict $? "both: exit 0, text saved, no crash log${bad}"
}

vi5_megabyte_line() {
    case_start VI5 major "TUI editor: a 1 MB unbracketed paste with no newline (one long line), then Esc and q"
    local s="$CASE_DIR/s" bad="" t0 t1
    python3 -c "import sys; sys.stdout.write('a' * 1000000)" >"$CASE_DIR/paste"
    tui_ed rl-vi5 "$s" || bad="$bad [editor not open]"
    t0=$(date +%s%N)
    vi_type rl-vi5 "$CASE_DIR/paste"
    vi_wait rl-vi5 'line 1, column 1000001' 180 || bad="$bad [not at column 1000001 within 180 s: $(tmx_cap rl-vi5 | grep -o 'line [0-9]*, column [0-9]*')]"
    t1=$(date +%s%N)
    tmx_keys rl-vi5 Escape; tmx_keys rl-vi5 q
    [ "$(tmx_exit rl-vi5 20)" = 0 ] || bad="$bad [exit]"
    [ "$(head -1 "$(ex_file "$s")" | tr -cd a | wc -c)" -ge 1000000 ] || bad="$bad [not saved whole]"
    tmx_kill rl-vi5
    [ -z "$bad" ]
    verdict $? "sent and drawn at column 1000001 in $(((t1 - t0) / 1000000)) ms; saved whole on leaving${bad}"
}
