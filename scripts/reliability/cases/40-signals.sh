# M1, M2, the signal passes P40-P48, m13's TERM=dumb, P54's no TTY: the TUI in tmux, killed or
# stopped, always gives the terminal back and keeps the learner's progress.

# tui NAME [ENV...]: the tutorial on the simulator in a fresh tmux pane with its own state dir
# ($CASE_DIR/s), waiting for the first card.
tui() {
    local n=$1
    shift
    tmx_start "$n" 100 30 "$* CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN --backend sim"
    tmx_wait "$n" 'Lesson 1/4' 15
}
card() { json "$CASE_DIR/s/progress.json" "d['lessons']['pageable-memory']['card']" 2>/dev/null || echo none; }

# signal_case ID SEV SIGNAL EXIT: press l (next card), send the signal, expect the exit status,
# a restored terminal and card 1 saved.
signal_case() {
    local id=$1 sev=$2 sig=$3 want=$4
    wanted "$id" || return 0
    case_start "$id" "$sev" "\`kill -$sig\` while the TUI shows card 2 (moved there after the last save)"
    tui rl-$id
    tmx_keys rl-$id l
    kill -"$sig" "$(tmx_pid rl-$id)"
    local code restored c
    code=$(tmx_exit rl-$id 10) restored=$(tmx_restored rl-$id) c=$(card)
    tmx_kill rl-$id
    [ "$code" = "$want" ] && [ "$restored" = restored ] && [ "$c" = 1 ]
    verdict $? "exit $code, terminal $restored, progress card $c"
}

signals_basic() {
    signal_case M1 major QUIT 131
    signal_case P42 critical INT 130
    signal_case P43 critical HUP 129
    signal_case P44 critical TERM 143
}

# suspend_case ID HOW: stop the TUI (kill -TSTP or Ctrl-Z), look at the shell, `fg`, go on.
suspend_case() {
    local id=$1 how=$2
    wanted "$id" || return 0
    case_start "$id" major "$how, look at the shell while stopped, then \`fg\`, \`l\`, \`q\`"
    tui rl-$id
    if [ "$how" = Ctrl-Z ]; then tmx_keys rl-$id C-z; else kill -TSTP "$(tmx_pid rl-$id)"; fi
    tmx_wait rl-$id Stopped 5
    local stopped; stopped=$(tmx_restored rl-$id)
    tmux send-keys -t rl-$id fg Enter
    tmx_wait rl-$id 'Lesson 1/4' 5
    local back; back=$(tmux display -p -t rl-$id '#{alternate_on}')
    local junk; junk=$(tmx_cap rl-$id | grep -c 'RLPROMPT\|\^\[')
    tmx_keys rl-$id l; tmx_keys rl-$id q
    # The shell already printed RLEXIT=147 when the job stopped; `fg` returns the real status.
    sleep 1
    tmux send-keys -t rl-$id 'echo RLFG=$?' Enter
    tmx_wait rl-$id RLFG= 5
    local code restored c
    code=$(tmx_cap rl-$id | grep -o 'RLFG=[0-9]*' | tail -1 | cut -d= -f2) restored=$(tmx_restored rl-$id) c=$(card)
    tmx_kill rl-$id
    [ "$stopped" = restored ] && [ "$back" = 1 ] && [ "$junk" = 0 ] && [ "$code" = 0 ] && [ "$restored" = restored ] && [ "$c" = 1 ]
    verdict $? "while stopped the terminal is $stopped (the shell is usable); after fg: full screen redrawn ($junk stray lines), keys work; exit $code, $restored, card $c"
}

signals_suspend() {
    suspend_case M2 "kill -TSTP"
    suspend_case V4 Ctrl-Z
}

p45_term_during_run() {
    case_start P45 critical "SIGTERM during a run (\`r\` on lesson 4, pipeline)"
    tui rl-p45
    tmx_keys rl-p45 4; tmux send-keys -t rl-p45 r; sleep 0.3
    local t0; t0=$(date +%s%N)
    kill -TERM "$(tmx_pid rl-p45)"
    local code; code=$(tmx_exit rl-p45 10)
    local ms=$((($(date +%s%N) - t0) / 1000000))
    local restored; restored=$(tmx_restored rl-p45)
    tmx_kill rl-p45
    [ "$code" = 143 ] && [ "$restored" = restored ]
    verdict $? "exit $code after ~$ms ms (incl. polling), $restored"
}

p46_resizes() {
    case_start P46 major "50 resizes and 200 SIGWINCH during a run"
    tui rl-p46
    tmx_keys rl-p46 4; tmux send-keys -t rl-p46 r
    local pid i; pid=$(tmx_pid rl-p46)
    for ((i = 0; i < 50; i++)); do tmux resize-window -t rl-p46 -x $((60 + i * 3)) -y $((16 + i % 20)); done
    for ((i = 0; i < 200; i++)); do kill -WINCH "$pid"; done
    sleep 1
    tmx_keys rl-p46 q
    local code restored; code=$(tmx_exit rl-p46 20) restored=$(tmx_restored rl-p46)
    tmx_kill rl-p46
    [ "$code" = 0 ] && [ "$restored" = restored ]
    verdict $? "exit $code, $restored"
}

p47_hangup() {
    case_start P47 critical "closing the terminal under the TUI (tmux kill-session: the pty hangs up)"
    tui rl-p47
    tmx_keys rl-p47 l
    local pid i; pid=$(tmx_pid rl-p47)
    tmux kill-session -t rl-p47
    for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    local alive=no; kill -0 "$pid" 2>/dev/null && alive=yes
    local c; c=$(card)
    [ $alive = no ] && [ "$c" = 1 ]
    verdict $? "process left: $alive, progress card $c"
}

p48_fuzz() {
    case_start P48 critical "1,500 random keys (all but q, Ctrl-C and Ctrl-E, which opens \$EDITOR) and 20 resizes, then q"
    tui rl-p48
    local keys=(h j k l Up Down Left Right PageUp PageDown Space g G Enter Tab BTab a b c d n p N 1 2 3 4 L r s o v c m + - '<' '>' '[' ']' e w x X y Escape '?' z 9 C-r C-t C-g C-x Home End BSpace)
    local i
    for ((i = 0; i < 1500; i++)); do
        tmux send-keys -t rl-p48 "${keys[RANDOM % ${#keys[@]}]}"
        ((i % 75 == 0)) && tmux resize-window -t rl-p48 -x $((40 + RANDOM % 160)) -y $((10 + RANDOM % 50))
    done
    sleep 2
    local pid; pid=$(tmx_pid rl-p48)
    # Leave whatever it is in (an editor, an overlay) and quit.
    tmux resize-window -t rl-p48 -x 100 -y 30
    tmx_keys rl-p48 Escape; tmx_keys rl-p48 Escape; tmx_keys rl-p48 Escape; tmx_keys rl-p48 q
    local code; code=$(tmx_exit rl-p48 10)
    [ "$code" = none ] && { tmx_keys rl-p48 C-c; code=$(tmx_exit rl-p48 10); }
    local restored; restored=$(tmx_restored rl-p48)
    tmx_cap rl-p48 >"$CASE_DIR/screen"
    tmx_kill rl-p48
    [ -n "$pid" ] && [ "$code" = 0 ] && [ "$restored" = restored ] && ! ls "$CASE_DIR"/s/crash-* >/dev/null 2>&1
    verdict $? "still running after the keys; exit $code, $restored, no crash log"
}

p40_terms() {
    case_start P40 minor "TERM unset, vt100, xterm-mono; LANG=C"
    local t out=""
    for t in "-u TERM" "TERM=vt100" "TERM=xterm-mono" "LANG=C LC_ALL=C"; do
        tmx_start rl-p40 100 30 "env $t CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN --backend sim"
        tmx_wait rl-p40 'Lesson 1/4' 15
        tmx_keys rl-p40 l; tmx_keys rl-p40 q
        out="$out [$t: exit $(tmx_exit rl-p40 10), $(tmx_restored rl-p40)]"
        tmx_kill rl-p40
    done
    [[ "$out" != *"exit 1"* && "$out" != *none* && "$out" != *"not restored"* ]]
    verdict $? "$out"
}

m13_dumb() {
    case_start m13a minor "TERM=dumb (in a real tty)"
    tmx_start rl-dumb 100 30 "TERM=dumb CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN --backend sim"
    local code restored; code=$(tmx_exit rl-dumb 10) restored=$(tmx_restored rl-dumb)
    local said; said=$(tmx_cap rl-dumb | grep -c 'TERM=dumb cannot draw')
    tmx_kill rl-dumb
    [ "$code" = 1 ] && [ "$said" -ge 1 ] && [ "$restored" = restored ]
    verdict $? "exit $code, says why, $restored"
}

p41_sizes() {
    case_start P41 major "window sizes 1000x300, 1000x5, 5x1000, 10x3, 2x2, 1x1: start, wait, q"
    local wh out="" ok=0
    for wh in 1000x300 1000x5 5x1000 10x3 2x2 1x1; do
        tmux kill-session -t rl-p41 2>/dev/null
        tmux new-session -d -s rl-p41 -x "${wh%x*}" -y "${wh#*x}" \
            "CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN --backend sim; echo RLEXIT=\$? >$CASE_DIR/exit; sleep 5"
        sleep 1.5
        tmux send-keys -t rl-p41 q
        local i; for ((i = 0; i < 50; i++)); do [ -s "$CASE_DIR/exit" ] && break; sleep 0.1; done
        local code; code=$(cut -d= -f2 "$CASE_DIR/exit" 2>/dev/null)
        rm -f "$CASE_DIR/exit"
        out="$out $wh:$code"
        [ "$code" = 0 ] || ok=1
    done
    tmx_kill rl-p41
    ! ls "$CASE_DIR"/s/crash-* >/dev/null 2>&1 && [ $ok = 0 ]
    verdict $? "exit status per size:$out"
}

p54_no_tty() {
    case_start P54 minor "no TTY (stdin /dev/null, stdout a pipe); \`--streams 0\`, \`--chunks 0\`, \`--size 0\`"
    local out rc bad=""
    out=$(CUDA_ACADEMY_STATE_DIR="$CASE_DIR/s" timeout 10 "$BIN" </dev/null 2>&1 | cat); rc=${PIPESTATUS[0]}
    grep -q 'needs an interactive terminal' <<<"$out" || bad="$bad [no tty: $out]"
    local a
    for a in "--streams 0" "--chunks 0" "--size 0"; do
        # shellcheck disable=SC2086
        ca "$CASE_DIR/s" run pipeline --backend sim $a >/dev/null 2>&1 && bad="$bad [$a accepted]"
    done
    [ -z "$bad" ]
    verdict $? "refused with a message$bad"
}
