# Helpers for run.sh: recording results, hostile text, fake drivers and driving the TUI in tmux.
# Sourced, not run. Every case works in its own folder under $SCRATCH.

# ---- recording -------------------------------------------------------------------------------
CUR_ID="" CUR_SEV="" CUR_TRIED=""
# case ID SEVERITY-IF-IT-FAILS "what is tried"
case_start() {
    CUR_ID=$1 CUR_SEV=$2 CUR_TRIED=$3
    CASE_DIR="$SCRATCH/$CUR_ID"
    rm -rf "$CASE_DIR" && mkdir -p "$CASE_DIR"
    printf '%-6s %s\n' "$CUR_ID" "$CUR_TRIED" >&2
}
_row() { # STATUS OBSERVED
    local obs=${2//|/\\|} tried=${CUR_TRIED//|/\\|}
    obs=${obs//$'\n'/ }
    obs=${obs//$SCRATCH\//SCRATCH/}
    printf '| %s | %s | %s | %s | %s |\n' "$CUR_ID" "$CUR_SEV" "$tried" "$obs" "$1" >>"$TABLE"
    printf '       -> %s: %s\n' "$1" "$2" >&2
}
pass() { _row PASS "$1"; }
fail() { _row FAIL "$1"; echo "$CUR_SEV" >>"$SCRATCH/.failures"; }
gpu() { _row GPU "needs the H200: \`$1\`"; }
# verdict CONDITION-STATUS OBSERVED: pass when the status is 0.
verdict() { if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; fi; }

# ---- running the binary ----------------------------------------------------------------------
# ca STATE ARGS...: run the binary with its own state dir, no colour, backtraces on (so a panic
# anywhere would show), the driver hidden unless the caller sets LD_LIBRARY_PATH itself.
ca() {
    local state=$1
    shift
    CUDA_ACADEMY_STATE_DIR=$state NO_COLOR=1 RUST_BACKTRACE=1 timeout -s KILL 120 "$BIN" "$@"
}
# Bytes that could drive a terminal: C0 but tab and newline, DEL, C1 (UTF-8 C2 80-9F).
terminal_safe() { ! LC_ALL=C grep -qaP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$@"; }
no_panic() { ! grep -qaE 'panicked|stack backtrace' "$@"; }

# TOML basic string with every control character escaped.
toml_str() { python3 -c 'import sys,json; print(json.dumps(sys.argv[1]))' "$1"; }
HOSTILE=$'\e]0;pwned-title\a\e]52;c;cHduZWQ=\a\e[2J\e[H\xc2\x9b31m\x7f\b\r'

# lesson ID ORDER [TITLE] [EXTRA-FRONT-MATTER]: a minimal valid lesson with one question
# ($PROMPT and $CHOICE, when set, are its prompt and first choice).
lesson() {
    local title=${3:-"Lesson $1"}
    cat <<LESSON
+++
id = "$1"
title = $(toml_str "$title")
order = $2
summary = "s"
${4:-}
[[quiz]]
id = "q1"
prompt = $(toml_str "${PROMPT:-p}")
choices = [$(toml_str "${CHOICE:-a}"), "b"]
answer = 1
explanation = "e"
+++
# Card one

Body.
LESSON
}

# fake_driver NAME C-SOURCE: a folder with libcuda.so{,.1} built from the source; prints it.
fake_driver() {
    local d="$SCRATCH/.drivers/$1"
    mkdir -p "$d"
    printf '%s\n' "$2" >"$d/fake.c"
    cc -shared -fPIC -o "$d/libcuda.so" "$d/fake.c" && cp "$d/libcuda.so" "$d/libcuda.so.1"
    echo "$d"
}

# ---- the TUI in tmux -------------------------------------------------------------------------
# tmx_start NAME W H COMMAND: a plain bash in a tmux pane of W x H, which then runs COMMAND and
# prints its exit status as RLEXIT=N.
tmx_start() {
    local n=$1 w=$2 h=$3
    shift 3
    tmux kill-session -t "$n" 2>/dev/null
    tmux new-session -d -s "$n" -x "$w" -y "$h" \
        "env -i PATH=$PATH HOME=$HOME TERM=screen-256color PS1='RLPROMPT\$ ' bash --norc --noprofile"
    tmx_wait "$n" RLPROMPT 5 >/dev/null
    tmux send-keys -t "$n" "cd '$CASE_DIR' && clear" Enter
    tmux send-keys -t "$n" "$* ; echo RLEXIT=\$?" Enter
}
tmx_cap() { tmux capture-pane -p -t "$1"; }
# tmx_wait NAME FIXED-TEXT SECONDS: 0 once the pane shows the text.
tmx_wait() {
    local i
    for ((i = 0; i < $3 * 10; i++)); do
        tmx_cap "$1" | grep -qF -- "$2" && return 0
        sleep 0.1
    done
    return 1
}
tmx_keys() { tmux send-keys -t "$@"; sleep 0.4; }
# The pid of the process the pane's shell started (the binary).
tmx_pid() { pgrep -P "$(tmux display -p -t "$1" '#{pane_pid}')" | head -1; }
# tmx_exit NAME SECONDS: the exit status the shell printed, or "none". (The typed command line
# holds `RLEXIT=$?` too, and shows while a slow exit has left the alternate screen.)
tmx_exit() {
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        if tmx_cap "$1" | grep -q 'RLEXIT=[0-9]'; then
            tmx_cap "$1" | grep -o 'RLEXIT=[0-9]*' | grep '[0-9]' | tail -1 | cut -d= -f2
            return
        fi
        sleep 0.1
    done
    echo none
}
# tmx_restored NAME: "restored" when the pane is back on the normal screen, mouse reporting is
# off, the cursor shows, the tty is in cooked mode and the shell prompt answers; else what not.
tmx_restored() {
    local flags
    flags=$(tmux display -p -t "$1" '#{alternate_on}#{mouse_any_flag}#{cursor_flag}')
    tmux send-keys -t "$1" "stty -a | grep -q -- '-icanon\\|-echo \\|-isig' && echo STTY=raw || echo STTY=sane" Enter
    tmx_wait "$1" STTY= 5
    local stty
    stty=$(tmx_cap "$1" | grep -o 'STTY=[a-z]*' | tail -1)
    if [ "$flags" = 001 ] && [ "$stty" = STTY=sane ]; then echo restored
    else echo "not restored (alternate,mouse,cursor=$flags $stty)"; fi
}
tmx_kill() { tmux kill-session -t "$1" 2>/dev/null; }

# json FILE PYTHON-EXPR: evaluate EXPR with `d` the parsed file.
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# profile_with KEY=VALUE...: the shipped H200 profile with those fields replaced (VALUE is TOML:
# quote strings with toml_str).
profile_with() {
    python3 - "$@" <<'PY'
import re, sys
text = open("assets/profiles/h200.toml").read()
for kv in sys.argv[1:]:
    k, v = kv.split("=", 1)
    text, n = re.subn(rf"^{k} = .*$", lambda m: f"{k} = {v}", text, flags=re.M)
    if n != 1:
        sys.exit(f"no field {k}")
print(text, end="")
PY
}
