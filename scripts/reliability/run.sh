#!/usr/bin/env bash
# Re-run the reliability review's 78 cases (shared/reviews/2026-11-30-reliability.md, issue 9),
# the 37 of shared/reviews/2026-12-01b-reliability.md (issue 29: cases/83-*.sh, the review's own
# scripts, and the variants in cases/84-*.sh),
# plus the issue's variants, and the 88 cases of shared/reviews/2026-12-01-reliability.md
# (issue 21; cases/80-*.sh and cases/81-*.sh), against a built binary, without a GPU, and print
# the table.
#
#   scripts/reliability/run.sh [BINARY]        (default: target/debug/cuda-academy)
#   ONLY='C1 M2' scripts/reliability/run.sh    (just those cases)
#
# Needs bash, tmux, python3, a C compiler (fake libcuda), strace, and root for the tmpfs cases
# (a full and a read-only file system); a case whose tool is missing says so and fails.
# Writes the table to $RESULTS/table.md (default target/reliability/); progress goes to stderr.
# Case ids: C/M/m as in the review's failures, P1-P54 its passes in order, V the issue's
# variants; the second review's ids as it gives them, except NC1, NP1-NP7, NM1, NM2 (its C1,
# P1-P7, M1, M2, whose ids the first review already uses). Each case: the reproduction, what was observed, PASS/FAIL and the severity it would
# have if it failed; GPU rows give the command for the device machine instead.
set -u
cd "$(dirname "$0")/../.."
BIN=$(realpath "${1:-target/debug/cuda-academy}")
RESULTS=${RESULTS:-$PWD/target/reliability}
SCRATCH=$(mktemp -d /tmp/cuda-academy-reliab.XXXXXX)
TABLE="$SCRATCH/table.md"
export BIN SCRATCH TABLE
mkdir -p "$RESULTS"
: >"$SCRATCH/.failures"
HERE=scripts/reliability
. "$HERE/lib.sh"

cleanup() {
    for m in "$SCRATCH"/*/mnt; do mountpoint -q "$m" 2>/dev/null && umount -l "$m"; done
    tmux ls -F '#{session_name}' 2>/dev/null | grep '^rl-' | while read -r s; do tmux kill-session -t "$s"; done
}
trap cleanup EXIT

wanted() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }
# run_case ID FUNCTION: run one case function if it is wanted.
run_case() { if wanted "$1"; then shift; "$@"; fi; }

for f in "$HERE"/cases/*.sh; do . "$f"; done

echo "| Case | Severity if failed | What was tried | Observed | Result |" >"$TABLE"
echo "|---|---|---|---|---|" >>"$TABLE"
all_cases

commit=$(git rev-parse --short HEAD 2>/dev/null)
dirty=$(git status --porcelain 2>/dev/null | grep -qv '^??' && echo ' (with uncommitted changes)')
{
    echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on commit ${commit}${dirty}, binary $BIN"
    echo
    cat "$TABLE"
    echo
    for s in critical major minor; do
        printf '%s failures: %s\n' "$s" "$(grep -cx "$s" "$SCRATCH/.failures")"
    done
    printf 'passed: %s, GPU (not run here): %s\n' "$(grep -c '| PASS |$' "$TABLE")" "$(grep -c '| GPU |$' "$TABLE")"
} | tee "$RESULTS/table.md"
cleanup
[ -n "${KEEP:-}" ] || rm -rf "$SCRATCH"
grep -q '^critical failures: 0$' "$RESULTS/table.md" && grep -q '^major failures: 0$' "$RESULTS/table.md"
