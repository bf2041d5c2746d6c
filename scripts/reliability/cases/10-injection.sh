# C1, C2, P1-P3, part of m13: outside text never reaches the terminal raw.

c1_list_check() {
    case_start C1 critical "hostile title, file name with ESC and a TOML key with OSC: \`list --lessons\`, \`list\` narrow, \`check\`"
    local d="$CASE_DIR/esc" s="$CASE_DIR/state"
    mkdir -p "$d"
    lesson esc 1 "T${HOSTILE}X and a long title that the TITLE column has to cut somewhere" >"$d/a.md"
    printf 'junk' >"$d/$(printf 'a\033]0;pwned-file\007.md')"
    printf '+++\nid = "bad"\ntitle = "t"\n%s = 1\n+++\n# x\n' "$(toml_str $'\e]0;pwned-key\a')" >"$d/c.md"
    ca "$s" list --lessons "$d" >"$CASE_DIR/list" 2>&1
    COLUMNS=40 ca "$s" list --lessons "$d" >>"$CASE_DIR/list" 2>&1
    ca "$s" check "$d" >"$CASE_DIR/check" 2>&1
    if terminal_safe "$CASE_DIR/list" "$CASE_DIR/check" && no_panic "$CASE_DIR"/list "$CASE_DIR"/check \
        && grep -q 'unknown field' "$CASE_DIR/check" && grep -q 'pwned-file' "$CASE_DIR/check"; then
        pass "no control byte on stdout/stderr; shown as �; TOML error and file name still named"
    else fail "raw control bytes or missing diagnostics: $(cat -v "$CASE_DIR/check" | head -3)"; fi
}

c2_profile_fields() {
    case_start C2 critical "profile \`name\`/\`device_name\` with OSC: \`--profile esc.toml run pinned-alloc --backend sim\`, \`info\`, \`--json\`"
    local s="$CASE_DIR/state" p="$CASE_DIR/esc.toml"
    profile_with "name=$(toml_str "h${HOSTILE}")" "device_name=$(toml_str "NVIDIA${HOSTILE}")" >"$p"
    ca "$s" --profile "$p" run pinned-alloc --backend sim --size 1M >"$CASE_DIR/out" 2>&1
    ca "$s" --profile "$p" info >>"$CASE_DIR/out" 2>&1
    ca "$s" --profile "$p" run pinned-alloc --backend sim --size 1M --json >>"$CASE_DIR/out" 2>&1
    ca "$s" --profile "$p" info --json >>"$CASE_DIR/out" 2>&1
    if terminal_safe "$CASE_DIR/out" && no_panic "$CASE_DIR/out" && grep -q 'Simulated' "$CASE_DIR/out"; then
        pass "runs; profile fields shown with �; JSON escaped"
    else fail "raw bytes in output: $(grep -a pwned "$CASE_DIR/out" | cat -v | head -2)"; fi
}

p1_tui_hostile() {
    case_start P1 critical "TUI with ESC, OSC 0/52, CSI 2J, C1 in title, summary, body, prompt, choices, explanation; pane recorded with pipe-pane"
    local d="$CASE_DIR/esc" s="$CASE_DIR/state"
    mkdir -p "$d"
    { PROMPT="P${HOSTILE}" CHOICE="A${HOSTILE}" lesson esc 1 "T${HOSTILE}X"
      printf '\n## H%s\n\n- item %s\n\n`code%s`\n\n| a%s | b |\n|---|---|\n| 1 | 2 |\n\n```c\nint x; // %s\n```\n' \
        "$HOSTILE" "$HOSTILE" "$HOSTILE" "$HOSTILE" "$HOSTILE"; } >"$d/a.md"
    tmx_start rl-p1 100 30 "CUDA_ACADEMY_STATE_DIR=$s $BIN --backend sim --lessons $d"
    tmux pipe-pane -t rl-p1 -o "cat >$CASE_DIR/raw"
    tmx_wait rl-p1 'Card one' 10
    tmx_keys rl-p1 Tab; tmx_keys rl-p1 a; tmx_keys rl-p1 Tab; tmx_keys rl-p1 Tab; tmx_keys rl-p1 q
    local code title shown
    code=$(tmx_exit rl-p1 10)
    tmux pipe-pane -t rl-p1
    title=$(tmux display -p -t rl-p1 '#{pane_title}')
    local osc c1
    osc=$(LC_ALL=C grep -caP '\e\](0|52);' "$CASE_DIR/raw")
    c1=$(LC_ALL=C grep -caP '\xc2[\x80-\x9f]' "$CASE_DIR/raw")
    tmx_kill rl-p1
    if [ "$code" = 0 ] && [ "$osc" = 0 ] && [ "$c1" = 0 ] && [[ "$title" != *pwned* ]]; then
        pass "exit 0; raw pane bytes: 0 OSC 0/52, 0 C1; pane title unchanged"
    else fail "exit $code, OSC lines $osc, C1 lines $c1, title '$title'"; fi
}

p2_list_json() {
    case_start P2 critical "\`list --json\` with a hostile title"
    local d="$CASE_DIR/esc"
    mkdir -p "$d"
    lesson esc 1 "T${HOSTILE}" >"$d/a.md"
    ca "$CASE_DIR/s" list --json --lessons "$d" >"$CASE_DIR/out" 2>&1
    terminal_safe "$CASE_DIR/out" && python3 -m json.tool "$CASE_DIR/out" >/dev/null
    verdict $? "control characters escaped, valid JSON"
}

p3_run_json() {
    case_start P3 critical "\`run --json\` with a hostile profile name"
    profile_with "name=$(toml_str "h${HOSTILE}")" >"$CASE_DIR/p.toml"
    ca "$CASE_DIR/s" --profile "$CASE_DIR/p.toml" run async-copy --backend sim --size 1M --json >"$CASE_DIR/out" 2>&1
    terminal_safe "$CASE_DIR/out" && python3 -m json.tool "$CASE_DIR/out" >/dev/null
    verdict $? "control characters escaped, valid JSON"
}

v_error_paths() {
    case_start V1 critical "variant: ESC in paths and in error messages (\`--lessons\` missing dir, \`--profile\` missing file, \`--trace\` bad path, \`check\` of a file)"
    local bad="$CASE_DIR/$(printf 'x\033]0;pwned\007')"
    { ca "$CASE_DIR/s" list --lessons "$bad"
      ca "$CASE_DIR/s" --profile "$bad.toml" info
      ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M --trace "$bad/t.json"
      ca "$CASE_DIR/s" check "$bad"; } >"$CASE_DIR/out" 2>&1
    terminal_safe "$CASE_DIR/out" && no_panic "$CASE_DIR/out" && grep -q '�' "$CASE_DIR/out"
    verdict $? "every message names the path with � in place of the control bytes"
}
