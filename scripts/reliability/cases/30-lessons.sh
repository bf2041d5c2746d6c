# C5 linear parsing; the lesson-folder passes P4-P17 and the content failures m6-m8.

# big_lesson FILE N: one lesson with N quiz questions (the review's generator).
big_lesson() {
    python3 - "$1" "$2" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('+++\nid = "big"\ntitle = "t"\norder = 1\nsummary = "s"\n')
    for i in range(int(sys.argv[2])):
        f.write('[[quiz]]\nid="q%d"\nprompt="p"\nexplanation="e"\nchoices=["a","b"]\nanswer=1\n' % i)
    f.write("+++\n# c\n")
PY
}
cpu_secs() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }

c5_linear() {
    case_start C5 critical "\`check\` and \`list\` of one lesson with 20,000 and 150,000 questions (11 MiB); CPU time, 30 s limit as in the review"
    mkdir -p "$CASE_DIR/a" "$CASE_DIR/b"
    big_lesson "$CASE_DIR/a/q.md" 20000
    big_lesson "$CASE_DIR/b/q.md" 150000
    local t20 t150 tl
    t20=$(cpu_secs timeout 30 "$BIN" check "$CASE_DIR/a")
    t150=$(cpu_secs timeout 30 "$BIN" check "$CASE_DIR/b")
    tl=$(cpu_secs env CUDA_ACADEMY_STATE_DIR="$CASE_DIR/s" timeout 30 "$BIN" list --lessons "$CASE_DIR/b")
    # 7.5 times the questions: linear is ~7.5 times the time, quadratic ~56.
    python3 -c "import sys; a,b,l=map(float,sys.argv[1:]); sys.exit(0 if b < 30 and l < 30 and b/a < 15 else 1)" "$t20" "$t150" "$tl"
    verdict $? "debug build, CPU s: check 20k ${t20}, 150k ${t150} (ratio $(python3 -c "print(round($t150/$t20,1))") for 7.5x the questions), list 150k ${tl} (was ~20 min)"
}

p4_non_utf8_args() {
    case_start P4 minor "non-UTF-8 bytes in arguments (\`run\` id, \`--lessons\` path, \`check\` path)"
    local bad=$'\xff\xfe'
    { ca "$CASE_DIR/s" run "x$bad"; echo "rc=$?"
      ca "$CASE_DIR/s" list --lessons "$CASE_DIR/$bad"; echo "rc=$?"
      ca "$CASE_DIR/s" check "$CASE_DIR/$bad"; echo "rc=$?"; } >"$CASE_DIR/out" 2>&1
    no_panic "$CASE_DIR/out" && ! grep -q 'rc=0' "$CASE_DIR/out" && terminal_safe "$CASE_DIR/out"
    verdict $? "clap or path errors, lossy display: $(grep -o 'rc=[0-9]*' "$CASE_DIR/out" | tr '\n' ' ')"
}

# odd_folder DIR: the review's odd *.md entries next to one good lesson.
odd_folder() {
    mkdir -p "$1/dir.md"
    lesson good 1 >"$1/good.md"
    ln -s nowhere "$1/dangling.md"
    ln -s loop.md "$1/loop.md"
    mkfifo "$1/fifo.md"
    ln -s fifo.md "$1/tofifo.md"
}

p5_8_odd_entries() {
    local id what
    for id in P5 P6 P7 P8; do
        case $id in
            P5) what="a symlink loop named loop.md" ;; P6) what="a directory named dir.md" ;;
            P7) what="a FIFO named fifo.md" ;; P8) what="a symlink to a FIFO" ;;
        esac
        wanted "$id" || continue
        case_start "$id" critical "lesson folder with $what: \`check\`, \`list\`; no hang (10 s limit)"
        odd_folder "$CASE_DIR/l"
        timeout 10 "$BIN" check "$CASE_DIR/l" >"$CASE_DIR/out" 2>&1
        local rc=$?
        CUDA_ACADEMY_STATE_DIR="$CASE_DIR/s" timeout 10 "$BIN" list --lessons "$CASE_DIR/l" >>"$CASE_DIR/out" 2>&1
        local rl=$?
        [ $rc -eq 1 ] && [ $rl -ne 124 ] && no_panic "$CASE_DIR/out"
        verdict $? "check exit $rc (reports it), list exit $rl, no hang"
    done
}

m8_reported() {
    case_start m8 minor "dangling link, looping link, folder, FIFO and link to FIFO named *.md: \`check\` says what it skipped"
    odd_folder "$CASE_DIR/l"
    timeout 10 "$BIN" check "$CASE_DIR/l" >"$CASE_DIR/out" 2>&1
    local n
    n=$(grep -cE 'dangling|loop|dir\.md|fifo|tofifo' "$CASE_DIR/out")
    [ "$n" -ge 5 ] && ! grep -q '1 lesson OK' "$CASE_DIR/out"
    verdict $? "$n of 5 entries reported: $(head -1 "$CASE_DIR/out" | cut -c1-100)"
}

p9_unreadable() {
    case_start P9 minor "an unreadable lesson file, as user nobody: \`check\`, \`list\`"
    mkdir -p "$CASE_DIR/l"
    lesson good 1 >"$CASE_DIR/l/a.md"; lesson locked 2 >"$CASE_DIR/l/b.md"
    chmod 000 "$CASE_DIR/l/b.md"; chmod 755 "$CASE_DIR" "$CASE_DIR/l" "$SCRATCH"
    runuser -u nobody -- "$BIN" check "$CASE_DIR/l" >"$CASE_DIR/out" 2>&1
    grep -q 'b.md.*[Pp]ermission denied' "$CASE_DIR/out" && no_panic "$CASE_DIR/out"
    verdict $? "$(grep -m1 'b.md' "$CASE_DIR/out" | cut -c1-110)"
}

p10_huge_lesson() {
    case_start P10 major "a 50 MB lesson file"
    mkdir -p "$CASE_DIR/l"
    { lesson big 1; head -c 50000000 /dev/zero | tr '\0' 'x'; } >"$CASE_DIR/l/a.md"
    /usr/bin/time -f 'RSS=%M' timeout 30 "$BIN" check "$CASE_DIR/l" >"$CASE_DIR/out" 2>&1
    grep -qi 'MiB\|too large\|larger' "$CASE_DIR/out" && no_panic "$CASE_DIR/out"
    verdict $? "$(grep -v RSS= "$CASE_DIR/out" | head -1 | cut -c1-100); $(grep -o 'RSS=.*' "$CASE_DIR/out") kB"
}

p11_16mib_tui() {
    case_start P11 major "a 16 MiB lesson (just under the cap) in \`list\` and in the TUI"
    mkdir -p "$CASE_DIR/l"
    { lesson big 1; python3 -c "print(('word ' * 15 + '\n') * 200000)"; } | head -c 16000000 >"$CASE_DIR/l/a.md"
    local t
    t=$(cpu_secs env CUDA_ACADEMY_STATE_DIR="$CASE_DIR/s" timeout 30 "$BIN" list --lessons "$CASE_DIR/l")
    tmx_start rl-p11 100 30 "CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN --backend sim --lessons $CASE_DIR/l"
    tmx_wait rl-p11 'Card one' 30
    local shown=$?
    tmx_keys rl-p11 q
    local code; code=$(tmx_exit rl-p11 60)
    tmx_kill rl-p11
    [ $shown -eq 0 ] && [ "$code" = 0 ]
    verdict $? "list ${t} s CPU (debug build); TUI shows the card and quits with $code"
}

p12_13_many_cards() {
    local id n
    for id in P12 P13; do
        wanted "$id" || continue
        [ $id = P12 ] && n=10000 || n=1000000
        case_start "$id" major "$n cards in one lesson: the TUI, l, l, q"
        mkdir -p "$CASE_DIR/l"
        { lesson many 1; python3 -c "import sys; sys.stdout.write('\n---\n' + 'c\n---\n' * $n)"; } >"$CASE_DIR/l/a.md"
        tmx_start rl-$id 100 30 "CUDA_ACADEMY_STATE_DIR=$CASE_DIR/s $BIN --backend sim --lessons $CASE_DIR/l"
        tmx_wait rl-$id 'Card one' 60
        tmx_keys rl-$id l; tmx_keys rl-$id l
        tmx_keys rl-$id q
        local code; code=$(tmx_exit rl-$id 20)
        tmx_kill rl-$id
        local card; card=$(json "$CASE_DIR/s/progress.json" "d['lessons']['many']['card']")
        [ "$code" = 0 ] && [ "$card" = 2 ]
        verdict $? "TUI exit $code, progress saved at card $card"
    done
}

p14_many_files() {
    case_start P14 minor "20,000 lesson files: \`check\`"
    mkdir -p "$CASE_DIR/l"
    python3 - "$CASE_DIR/l" <<'PY'
import sys
for i in range(20000):
    open(f"{sys.argv[1]}/l{i}.md", "w").write(f'+++\nid = "l{i}"\ntitle = "t"\norder = {i}\nsummary = "s"\n+++\n# c\n')
PY
    local t; t=$(cpu_secs timeout 60 "$BIN" check "$CASE_DIR/l")
    timeout 60 "$BIN" check "$CASE_DIR/l" | grep -q '20000 lessons OK'
    verdict $? "${t} s CPU, all OK"
}

# quiz_case FILE N "KEY = VALUE": a lesson whose one question has that field replaced ('id = "q1"'
# adds a second question with the same id).
quiz_case() {
    python3 - "$@" <<'PY'
import sys
path, n, bad = sys.argv[1:]
key, value = bad.split(" = ", 1)
q = {"id": '"q1"', "prompt": '"p"', "choices": '["a", "b"]', "answer": "1", "explanation": '"e"'}
body = "".join(f"{k} = {v}\n" for k, v in q.items())
if bad != 'id = "q1"':
    q[key] = value
    body = "".join(f"{k} = {v}\n" for k, v in q.items())
else:
    body = body + "[[quiz]]\n" + body
open(path, "w").write(f'+++\nid = "l{n}"\ntitle = "t"\norder = {n}\nsummary = "s"\n[[quiz]]\n{body}+++\n# c\n')
PY
}

# quiz_rows ID WHAT ENTRIES...: each entry in its own lesson; every file gets a file:line.
quiz_rows() {
    local id=$1 what=$2 i=0 bad
    shift 2
    wanted "$id" || return 0
    case_start "$id" minor "$what"
    mkdir -p "$CASE_DIR/l"
    for bad in "$@"; do
        i=$((i + 1))
        quiz_case "$CASE_DIR/l/f$i.md" "$i" "$bad"
    done
    timeout 10 "$BIN" check "$CASE_DIR/l" >"$CASE_DIR/out" 2>&1
    local files; files=$(grep -oE 'f[0-9]+\.md:[0-9]+' "$CASE_DIR/out" | cut -d: -f1 | sort -u | wc -l)
    [ "$files" -eq $# ] && no_panic "$CASE_DIR/out"
    verdict $? "$files of $# files get a file:line diagnostic"
}

p15_16_quiz_diagnostics() {
    quiz_rows P15 "quiz with 0 or 1 choice, answer 9, -1, 2^64" \
        'choices = []' 'choices = ["a"]' 'answer = 9' 'answer = -1' 'answer = 18446744073709551616'
    quiz_rows P16 "question ids: duplicate, \`../x\`, 65 characters, uppercase" \
        'id = "q1"' 'id = "../x"' "id = \"$(printf 'a%.0s' {1..65})\"" 'id = "UP"'
}

p17_non_md() {
    case_start P17 minor "non-.md files in the lesson folder (README.txt, x.md~, binary)"
    mkdir -p "$CASE_DIR/l"
    lesson good 1 >"$CASE_DIR/l/a.md"
    echo junk >"$CASE_DIR/l/README.txt"; echo junk >"$CASE_DIR/l/x.md~"; head -c 1000 /dev/urandom >"$CASE_DIR/l/blob"
    timeout 10 "$BIN" check "$CASE_DIR/l" >"$CASE_DIR/out" 2>&1
    grep -q '1 lesson OK' "$CASE_DIR/out"
    verdict $? "$(head -1 "$CASE_DIR/out")"
}

m6_metrics() {
    case_start m6 minor "\`check\`: a predict question whose metric is misspelled (\`sppedup\`), and one in a lesson with no experiments; \`{{metric:sppedup}}\` in a card"
    mkdir -p "$CASE_DIR/l"
    local pq='[[quiz]]\nid = "pq"\nkind = "predict"\nprompt = "p"\nmetric = "%s"\ntolerance_pct = 10.0\nexplanation = "e"\n'
    { printf '+++\nid = "a"\ntitle = "t"\norder = 1\nsummary = "s"\nexperiments = ["pipeline"]\n'; printf "$pq" sppedup; printf '+++\n# c\n\n{{metric:sppedup}}\n'; } >"$CASE_DIR/l/a.md"
    { printf '+++\nid = "b"\ntitle = "t"\norder = 2\nsummary = "s"\n'; printf "$pq" speedup; printf '+++\n# c\n'; } >"$CASE_DIR/l/b.md"
    timeout 10 "$BIN" check "$CASE_DIR/l" >"$CASE_DIR/out" 2>&1
    local rc=$? n; n=$(grep -c 'a.md\|b.md' "$CASE_DIR/out")
    [ $rc -eq 1 ] && grep -q 'b.md' "$CASE_DIR/out" && [ "$(grep -c 'a.md' "$CASE_DIR/out")" -ge 2 ]
    verdict $? "exit $rc, $n diagnostics: $(head -1 "$CASE_DIR/out" | cut -c1-110)"
}

m7_choices() {
    case_start m7 minor "27 choices (answer 27), \`choices = []\`, the same lesson id in two files"
    mkdir -p "$CASE_DIR/l"
    python3 - "$CASE_DIR/l" <<'PY'
import sys
d = sys.argv[1]
many = ", ".join(f'"c{i}"' for i in range(27))
open(f"{d}/a.md", "w").write(f'+++\nid = "a"\ntitle = "t"\norder = 1\nsummary = "s"\n[[quiz]]\nid = "q"\nprompt = "p"\nchoices = [{many}]\nanswer = 27\nexplanation = "e"\n+++\n# c\n')
open(f"{d}/b.md", "w").write('+++\nid = "b"\ntitle = "t"\norder = 2\nsummary = "s"\n[[quiz]]\nid = "q"\nprompt = "p"\nchoices = []\nanswer = 1\nexplanation = "e"\n+++\n# c\n')
for n in ("dup1", "dup2"):
    open(f"{d}/{n}.md", "w").write('+++\nid = "dup"\ntitle = "t"\norder = 3\nsummary = "s"\n+++\n# c\n')
PY
    timeout 10 "$BIN" check "$CASE_DIR/l" >"$CASE_DIR/out" 2>&1
    grep -q 'a.md.*8' "$CASE_DIR/out" && grep -q 'b.md' "$CASE_DIR/out" && ! grep -q '0 to 0' "$CASE_DIR/out" \
        && grep -q 'dup1.md.*dup2.md\|dup2.md.*dup1.md' "$CASE_DIR/out"
    verdict $? "$(tr '\n' ' ' <"$CASE_DIR/out" | cut -c1-220)"
}
