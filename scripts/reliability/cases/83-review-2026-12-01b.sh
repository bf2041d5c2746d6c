# The 37 failing cases of the 2026-12-01 evening review (shared/reviews/2026-12-01b-reliability.md,
# issue 29), each the review's own script, kept in scripts/reliability/review-2026-12-01b/ (exit 0:
# the behaviour is right; exit 1: the failure occurs; exit 2: a tool it needs is missing, which
# fails the row too). Ids and severities as in the review. The variants of each cause are in the
# files that define `variants_*` functions (cases/84-*.sh and after); run.sh calls them all.

review_b_cases() {
    local f id sev
    for f in "$HERE"/review-2026-12-01b/*.sh; do
        id=$(basename "$f" .sh)
        id=${id%%-*}
        sev=$(sed -n "s/^# $id (\([a-z]*\)[;)].*/\1/p" "$f" | head -1)
        run_case "$id" review_b_case "$id" "${sev:-critical}" "$f"
    done
}

# review_b_case ID SEVERITY SCRIPT: run the review's script against $BIN with a 10-minute bound.
review_b_case() {
    local id=$1 sev=$2 script rc what
    script=$(realpath "$3")
    what=$(sed -n "s/^# $id ([^)]*): //p" "$script" | head -1 | cut -c1-110)
    case_start "$id" "$sev" "review 2026-12-01b: ${what:-$(basename "$script")}"
    (cd "$CASE_DIR" && BIN="$BIN" timeout -s KILL 600 bash "$script" >"$CASE_DIR/out" 2>&1)
    rc=$?
    verdict $rc "exit $rc: $(grep -m1 -E '^(PASS|FAIL)' "$CASE_DIR/out" | cut -c1-300)"
}

# Every variants_* function the case files define, in name order (each file adds its own).
variant_cases() {
    local fn
    for fn in $(declare -F | awk '{print $3}' | grep '^variants_' | sort); do "$fn"; done
}
