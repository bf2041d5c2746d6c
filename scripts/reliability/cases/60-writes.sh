# M3, M5, m1-m5 and the write passes P24-P33, P51: every write error is an error, nothing the
# learner had is destroyed, nothing is written through a planted link.

# private_full: a /dev/full node of this case's own (c 1 7), so that a binary which renames over
# its target replaces this one, not the machine's /dev/full (the first run of P26 did that).
private_full() {
    mknod -m 666 "$CASE_DIR/full" c 1 7 && echo "$CASE_DIR/full"
}

# tmpfs_at DIR SIZE [ro]: a small tmpfs (root needed); 1 when it cannot be mounted.
tmpfs_at() {
    mkdir -p "$1"
    mount -t tmpfs -o "size=$2${3:+,ro}" tmpfs "$1" 2>/dev/null
}

m3_full_stdout() {
    case_start M3 major "\`run --json\`, \`run\`, \`info\`, \`info --json\` > /dev/full; and | head -c 10"
    local a out="" bad=""
    for a in "run pinned-alloc --backend sim --size 1M --json" "run pinned-alloc --backend sim --size 1M" "info" "info --json"; do
        # shellcheck disable=SC2086
        ca "$CASE_DIR/s" $a >/dev/full 2>"$CASE_DIR/err"; local rc=$?
        out="$out ${a%% *}:$rc"
        { [ $rc = 1 ] && grep -q 'No space left' "$CASE_DIR/err"; } || bad="$bad [$a: $rc]"
        # shellcheck disable=SC2086
        ca "$CASE_DIR/s" $a 2>"$CASE_DIR/err" | head -c 10 >/dev/null
        { [ "${PIPESTATUS[0]}" = 0 ] && [ ! -s "$CASE_DIR/err" ]; } || bad="$bad [$a | head: ${PIPESTATUS[0]}]"
    done
    [ -z "$bad" ]
    verdict $? "/dev/full: exit 1 with \"No space left on device\" for each; a closed pipe is quiet, exit 0$bad"
}

m5_calibrate_atomic() {
    case_start M5 major "a valid profile on a full 64 KiB tmpfs; \`calibrate --backend sim --name <6000 chars> --out\` onto it; the same for \`--trace\`"
    local m="$CASE_DIR/mnt"
    tmpfs_at "$m" 64k || { fail "cannot mount a tmpfs (root needed)"; return; }
    cp assets/profiles/h200.toml "$m/p.toml"
    ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M --trace "$m/t.json" >/dev/null 2>&1
    head -c 60000 /dev/zero >"$m/fill" 2>/dev/null
    local before tb; before=$(sha1sum <"$m/p.toml") tb=$(sha1sum <"$m/t.json")
    ca "$CASE_DIR/s" calibrate --backend sim --name "$(printf 'n%.0s' {1..6000})" --out "$m/p.toml" >"$CASE_DIR/out" 2>&1
    local rc=$?
    ca "$CASE_DIR/s" run pipeline --backend sim --trace "$m/t.json" >>"$CASE_DIR/out" 2>&1
    local rt=$?
    local left same=no
    left=$(find "$m" -name '.*tmp*' | wc -l)
    [ "$before" = "$(sha1sum <"$m/p.toml")" ] && [ "$tb" = "$(sha1sum <"$m/t.json")" ] && same=yes
    umount -l "$m"
    if [ $rc = 1 ] && [ $rt = 1 ] && [ "$left" = 0 ] && [ $same = yes ]; then
        pass "calibrate exit $rc, --trace exit $rt, both say why; old profile and trace byte-identical: $same; $left temp files left"
    else fail "calibrate exit $rc, --trace exit $rt, temp files $left: $(head -2 "$CASE_DIR/out")"; fi
}

m1_failed_trace() {
    case_start m1 minor "\`run pinned-alloc --trace /missing/dir/t.json\`: results still printed, the cause said once"
    ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M --trace "$CASE_DIR/missing/t.json" >"$CASE_DIR/out" 2>"$CASE_DIR/err"
    local rc=$?
    [ $rc = 1 ] && grep -q 'pinned' "$CASE_DIR/out" && [ "$(grep -o 'No such file or directory' "$CASE_DIR/err" | wc -l)" = 1 ]
    verdict $? "exit $rc; stdout has the results ($(wc -l <"$CASE_DIR/out") lines); stderr: $(head -1 "$CASE_DIR/err" | cut -c1-120)"
}

p26_30_trace_targets() {
    local id target what
    for id in P26 P27 P28 P29 P30; do
        wanted $id || continue
        case $id in
            P26) what="/dev/full (a private c 1 7 node)" ;; P27) what="a directory" ;; P28) what="a missing folder" ;;
            P29) what="a read-only file system" ;; P30) what="a full file system" ;;
        esac
        case_start $id "$([ $id = P26 ] && echo critical || echo major)" "\`run --trace\` to $what"
        case $id in
            P26) target=$(private_full) ;; P27) target=$CASE_DIR ;; P28) target=$CASE_DIR/no/t.json ;;
            P29) tmpfs_at "$CASE_DIR/mnt" 1m ro; target=$CASE_DIR/mnt/t.json ;;
            P30) tmpfs_at "$CASE_DIR/mnt" 16k; head -c 16384 /dev/zero >"$CASE_DIR/mnt/fill" 2>/dev/null; target=$CASE_DIR/mnt/t.json ;;
        esac
        ca "$CASE_DIR/s" run pipeline --backend sim --trace "$target" >"$CASE_DIR/out" 2>"$CASE_DIR/err"
        local rc=$?
        [ $id = P26 ] && [ ! -c "$target" ] && echo "the device was replaced by a file" >>"$CASE_DIR/err" && rc=99
        mountpoint -q "$CASE_DIR/mnt" 2>/dev/null && umount -l "$CASE_DIR/mnt"
        [ $rc = 1 ] && [ -s "$CASE_DIR/err" ] && [ -s "$CASE_DIR/out" ] && no_panic "$CASE_DIR/err"
        verdict $? "exit $rc, results printed, $(head -1 "$CASE_DIR/err" | cut -c1-110)"
    done
}

p31_trace_overwrite() {
    case_start P31 minor "\`--trace\` onto an existing file, and onto a symlink the user names"
    echo old >"$CASE_DIR/t.json"; echo old >"$CASE_DIR/target.json"; ln -s target.json "$CASE_DIR/link.json"
    ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M --trace "$CASE_DIR/t.json" >/dev/null 2>&1
    ca "$CASE_DIR/s" run pinned-alloc --backend sim --size 1M --trace "$CASE_DIR/link.json" >/dev/null 2>&1
    python3 -m json.tool "$CASE_DIR/t.json" >/dev/null && python3 -m json.tool "$CASE_DIR/target.json" >/dev/null && [ -L "$CASE_DIR/link.json" ]
    verdict $? "both overwritten with the trace, the link kept and written through"
}

p51_calibrate_bad_out() {
    case_start P51 critical "\`calibrate --backend sim --out /dev/full\` (a private c 1 7 node), and \`--out\` a directory"
    local full; full=$(private_full)
    ca "$CASE_DIR/s" calibrate --backend sim --out "$full" >/dev/null 2>"$CASE_DIR/e1"; local r1=$?
    [ -c "$full" ] || r1="99 (the device was replaced by a file)"
    ca "$CASE_DIR/s" calibrate --backend sim --out "$CASE_DIR" >/dev/null 2>"$CASE_DIR/e2"; local r2=$?
    [ $r1 = 1 ] && [ $r2 = 1 ] && [ -s "$CASE_DIR/e1" ] && [ -s "$CASE_DIR/e2" ]
    verdict $? "exit $r1, $r2: $(tail -1 "$CASE_DIR/e1" | cut -c1-80); $(tail -1 "$CASE_DIR/e2" | cut -c1-80)"
}

# tui_here NAME STATE [ENV]: the TUI on the simulator with state dir STATE, cwd $CASE_DIR.
tui_here() {
    tmx_start "$1" 100 30 "${3:-} CUDA_ACADEMY_STATE_DIR=$2 $BIN --backend sim"
    tmx_wait "$1" 'Lesson 1/4' 15
}

m2_export_links() {
    case_start m2 minor "TUI \`e\` with 120 dangling symlinks planted on the next 120 s of trace names"
    local now i name
    now=$(date -u +%s)
    mkdir -p "$CASE_DIR/victims"
    for ((i = 0; i < 120; i++)); do
        name="cuda-academy-pageable-vs-pinned-$(date -u -d "@$((now + i))" +%Y%m%d-%H%M%S).json"
        ln -s "victims/v$i" "$CASE_DIR/$name"
    done
    tui_here rl-m2 "$CASE_DIR/s"
    tmx_keys rl-m2 r
    tmx_wait rl-m2 'Simulated ·' 30; sleep 3
    tmx_keys rl-m2 e; sleep 1
    local said; said=$(tmx_cap rl-m2 | grep -o 'cuda-academy-pageable[^ ]*' | head -1)
    tmx_keys rl-m2 q; tmx_exit rl-m2 10 >/dev/null; tmx_kill rl-m2
    local victims real
    victims=$(find "$CASE_DIR/victims" -type f | wc -l)
    real=$(find "$CASE_DIR" -maxdepth 1 -type f -name 'cuda-academy-*.json' | wc -l)
    [ "$victims" = 0 ] && [ "$real" = 1 ]
    verdict $? "files written through a planted link: $victims; new trace files: $real ($said)"
}

m3_kill_mid_save() {
    case_start m3 minor "SIGKILL inside the progress save (strace injects KILL at fsync), then the next start"
    command -v strace >/dev/null || { fail "strace missing"; return; }
    local s="$CASE_DIR/s"
    tui_here rl-m3 "$s"; tmx_keys rl-m3 l; tmx_keys rl-m3 q; tmx_exit rl-m3 10 >/dev/null; tmx_kill rl-m3
    tmx_start rl-m3 100 30 "CUDA_ACADEMY_STATE_DIR=$s strace -f -qq -o /dev/null -e trace=fsync,fdatasync -e inject=fsync,fdatasync:signal=KILL $BIN --backend sim"
    tmx_wait rl-m3 'Lesson 1/4' 20
    tmx_keys rl-m3 l; tmx_keys rl-m3 l; tmx_keys rl-m3 q
    local code; code=$(tmx_exit rl-m3 10); tmx_restored rl-m3 >/dev/null; tmx_kill rl-m3
    local card tmps; card=$(json "$s/progress.json" "d['lessons']['pageable-memory']['card']") tmps=$(find "$s" -name '.*tmp*' | wc -l)
    ls -la "$s" >"$CASE_DIR/ls"
    find "$s" \( -name '.*tmp*' \) -exec touch -d '-2 min' {} +
    tui_here rl-m3 "$s"; tmx_keys rl-m3 q; tmx_exit rl-m3 10 >/dev/null; tmx_kill rl-m3
    local after; after=$(find "$s" -name '.*tmp*' | wc -l)
    [ "$code" = 137 ] && [ "$card" = 1 ] && [ "$tmps" -ge 1 ] && [ "$after" = 0 ]
    verdict $? "killed (exit $code); progress.json intact (card $card); temp files left: $tmps, after the next start: $after"
}

m4_symlinked_progress() {
    case_start m4 minor "progress.json is a symlink to a valid file elsewhere (dotfiles): move a card, quit"
    local s="$CASE_DIR/s"
    tui_here rl-m4 "$CASE_DIR/seed"; tmx_keys rl-m4 q; tmx_exit rl-m4 10 >/dev/null; tmx_kill rl-m4
    mkdir -p "$s" "$CASE_DIR/dotfiles"; mv "$CASE_DIR/seed/progress.json" "$CASE_DIR/dotfiles/p.json"
    ln -s ../dotfiles/p.json "$s/progress.json"
    tui_here rl-m4 "$s"; tmx_keys rl-m4 l; tmx_keys rl-m4 q; tmx_exit rl-m4 10 >/dev/null; tmx_kill rl-m4
    local card; card=$(json "$CASE_DIR/dotfiles/p.json" "d['lessons']['pageable-memory']['card']")
    [ -L "$s/progress.json" ] && [ "$card" = 1 ]
    verdict $? "still a link: $([ -L "$s/progress.json" ] && echo yes || echo no); the target holds card $card"
}

m5_state_under_file() {
    case_start m5 minor "CUDA_ACADEMY_STATE_DIR=afile/sub where afile is a regular file: TUI, l, q"
    echo x >"$CASE_DIR/afile"
    tui_here rl-m5 "$CASE_DIR/afile/sub"; tmx_keys rl-m5 l; tmx_keys rl-m5 q
    local code; code=$(tmx_exit rl-m5 10)
    local said; said=$(tmx_cap rl-m5 | grep -i 'afile' | grep -v RLPROMPT | head -1)
    tmx_kill rl-m5
    [ "$code" = 1 ] && [ -n "$said" ] && ! grep -q 'move or delete it' <<<"$said"
    verdict $? "exit $code: $said"
}

# state_fs_case ID WHAT MOUNT-OPTIONS: progress.json on a tmpfs made read-only or full.
state_fs_case() {
    local id=$1 what=$2
    wanted $id || return 0
    case_start $id major "state dir on $what: TUI, l, q"
    local m="$CASE_DIR/mnt"
    tmpfs_at "$m" 64k || { fail "cannot mount a tmpfs"; return; }
    tui_here rl-$id "$m"; tmx_keys rl-$id q; tmx_exit rl-$id 10 >/dev/null; tmx_kill rl-$id
    local sum; sum=$(sha1sum <"$m/progress.json")
    if [ $id = P24 ]; then mount -o remount,ro "$m"; else head -c 70000 /dev/zero >"$m/fill" 2>/dev/null; fi
    tui_here rl-$id "$m"; tmx_keys rl-$id l; tmx_keys rl-$id q
    local code; code=$(tmx_exit rl-$id 10)
    local said; said=$(tmx_cap rl-$id | grep -i 'progress' | grep -v RLPROMPT | head -1 | cut -c1-110)
    tmx_kill rl-$id
    local same=no; [ "$sum" = "$(sha1sum <"$m/progress.json")" ] && same=yes
    local tmps; tmps=$(find "$m" -name '.*tmp*' | wc -l)
    umount -l "$m"
    [ $same = yes ] && [ "$tmps" = 0 ] && [ -n "$said" ] && [ "$code" != 0 ]
    verdict $? "exit $code, \"$said\"; old file intact: $same; temp files: $tmps"
}

p24_25_state_fs() {
    state_fs_case P24 "a read-only file system"
    state_fs_case P25 "a full 64 KiB file system"
}

p32_33_export_cwd() {
    local id
    for id in P32 P33; do
        wanted $id || continue
        case_start $id minor "TUI \`e\` after a run, the current folder $([ $id = P32 ] && echo read-only || echo deleted)"
        local m="$CASE_DIR/cwd"
        mkdir -p "$m"
        [ $id = P32 ] && { tmpfs_at "$m" 64k ro || { fail "cannot mount"; continue; }; }
        tmx_start rl-$id 100 30 "cd $m && CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN --backend sim"
        tmx_wait rl-$id 'Lesson 1/4' 15
        [ $id = P33 ] && rmdir "$m"
        tmx_keys rl-$id r; tmx_wait rl-$id 'Simulated ·' 30; sleep 3
        tmx_keys rl-$id e; sleep 1
        local said; said=$(tmx_cap rl-$id | grep -iE 'read-only|No such file|cannot|writable' | head -1 | sed 's/^ *//' | cut -c1-100)
        tmx_keys rl-$id q
        local code; code=$(tmx_exit rl-$id 10)
        tmx_kill rl-$id
        mountpoint -q "$m" && umount -l "$m"
        [ "$code" = 0 ] && [ -n "$said" ]
        verdict $? "in-panel error \"$said\"; quit exit $code"
    done
}

v_exercise_output() {
    case_start V8 major "variant: the \`exercise\` commands (list, show, check, check --json) > /dev/full and | head -c 10"
    local id a bad=""
    # The solution, so that check passes (exit 0; a starter that does not pass exits 1). From
    # the repository: `exercise show --solution` is gated until an attempt (issue 18).
    cp exercises/time-a-copy/solution.cu "$CASE_DIR/ex.cu"
    for a in "exercise list" "exercise show time-a-copy" "exercise check time-a-copy $CASE_DIR/ex.cu --backend sim" "exercise check time-a-copy $CASE_DIR/ex.cu --backend sim --json"; do
        # shellcheck disable=SC2086
        ca "$CASE_DIR/s" $a >/dev/full 2>"$CASE_DIR/err"; local rc=$?
        { [ $rc = 1 ] && grep -q 'No space left' "$CASE_DIR/err"; } || bad="$bad [${a:9:14} /dev/full: $rc]"
        # shellcheck disable=SC2086
        ca "$CASE_DIR/s" $a 2>"$CASE_DIR/err" | head -c 10 >/dev/null
        { [ "${PIPESTATUS[0]}" = 0 ] && no_panic "$CASE_DIR/err"; } || bad="$bad [${a:9:14} | head: ${PIPESTATUS[0]}]"
    done
    [ -z "$bad" ]
    verdict $? "/dev/full: exit 1 with the reason; a closed pipe: exit 0, no panic$bad"
}
