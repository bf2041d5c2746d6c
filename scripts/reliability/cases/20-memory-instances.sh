# C3 and the memory-limit variant; C4 two instances on one state folder.

c3_sim_oom() {
    case_start C3 critical "simulator sizes that were OOM-killed: \`run pipeline --size 10G\` (and 9G), \`pageable-vs-pinned --size 4G\`, \`async-copy --size 5G\`, \`pipeline --size 8G\`, each under a 6 GB address-space limit; peak RSS"
    local a out rc worst=0 bad=""
    for a in "pipeline --size 10G" "pipeline --size 9G" "pageable-vs-pinned --size 4G" "async-copy --size 5G" "pipeline --size 8G"; do
        # shellcheck disable=SC2086
        out=$( (ulimit -v 6000000; CUDA_ACADEMY_STATE_DIR="$CASE_DIR/s" /usr/bin/time -f 'RSS=%M' "$BIN" run $a --backend sim) 2>&1 >/dev/null)
        rc=$?
        local rss=${out##*RSS=}
        [ "$rss" -gt "$worst" ] 2>/dev/null && worst=$rss
        if [ "$rc" -ne 0 ] && ! grep -q 'try a smaller --size\|fits' <<<"$out"; then bad="$bad [$a: exit $rc]"; fi
    done
    [ -z "$bad" ]
    verdict $? "all ran to the end (the simulator holds no buffer bytes); peak RSS $((worst / 1024)) MiB${bad}"
}

v_memory_limit() {
    case_start V2 critical "variant: address-space limits (\`ulimit -v\` 30 MB-1 GB) on \`run\` and \`list\`; \`--size 64G\` beyond MemAvailable"
    local v bad=""
    for v in 30000 100000 1000000; do
        (ulimit -v $v; ca "$CASE_DIR/s" run pageable-vs-pinned --backend sim --size 1G) >"$CASE_DIR/out.$v" 2>&1
        local rc=$?
        if [ $rc -gt 1 ] || ! no_panic "$CASE_DIR/out.$v"; then bad="$bad [-v $v: exit $rc]"; fi
    done
    # Since issue 10 the simulator holds no buffer bytes, so a size beyond this host's memory runs
    # there, with a note that a live run would be refused (the refusal itself is V3, on a GPU).
    ca "$CASE_DIR/s" run pipeline --backend sim --size 64G >"$CASE_DIR/big" 2>&1
    local big=$?
    { [ $big = 0 ] && grep -q 'simulated only: .*a live run there would be refused' "$CASE_DIR/big" && no_panic "$CASE_DIR/big"; } ||
        bad="$bad [64G: exit $big: $(tail -1 "$CASE_DIR/big")]"
    [ -z "$bad" ]
    verdict $? "runs or a message, never a signal or panic; 64G on the simulator runs with the note \"$(grep -o 'simulated only[^,]*' "$CASE_DIR/big" | head -1 | cut -c1-80)…\"${bad}"
}

v_memory_gpu() {
    case_start V3 critical "variant: the footprint check on the real GPU (host buffers are real there)"
    gpu "run pageable-vs-pinned --backend gpu --size 200G; (ulimit -v 4000000; cuda-academy run pipeline --backend gpu --size 2G); echo \$? — both must refuse with a message naming a size that fits, exit 1"
}

c4_two_instances() {
    case_start C4 critical "two TUIs on one state folder: A answers lesson 1 q1, B answers in lesson 2, both quit"
    local s="$CASE_DIR/state" p
    tmx_start rl-c4a 100 30 "CUDA_ACADEMY_STATE_DIR=$s $BIN --backend sim"
    tmx_start rl-c4b 100 30 "CUDA_ACADEMY_STATE_DIR=$s $BIN --backend sim"
    tmx_wait rl-c4a 'Lesson 1/4' 15; tmx_wait rl-c4b 'Lesson 1/4' 15
    tmx_keys rl-c4a Tab; tmx_keys rl-c4a a
    sleep 0.5
    tmx_keys rl-c4b 2; tmx_keys rl-c4b Tab; tmx_keys rl-c4b a
    sleep 0.5
    p=$(json "$s/progress.json" "sorted(q for l in d['lessons'].values() for q in l.get('answers', {}))")
    tmx_keys rl-c4a q; tmx_keys rl-c4b q
    local ea eb
    ea=$(tmx_exit rl-c4a 10) eb=$(tmx_exit rl-c4b 10)
    local after
    after=$(json "$s/progress.json" "sorted(q for l in d['lessons'].values() for q in l.get('answers', {}))")
    tmx_kill rl-c4a; tmx_kill rl-c4b
    [[ "$p" == *why-no-direct-dma* && "$p" == *what-pinning-buys* && "$after" == "$p" && $ea$eb == 00 ]]
    verdict $? "answers in the file while both run: $p; after both quit (exit $ea, $eb): $after"
}
