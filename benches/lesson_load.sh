#!/usr/bin/env bash
# Time and peak resident memory of `cuda-academy check` on one big lesson (issue 9: a 16 MiB
# lesson loads in under a second in a release build). The lesson is the hardening tests'
# `huge_lesson` shape (tests/it/hardening/lessons.rs): front matter of N `[[quiz]]` tables,
# N chosen so the file is just under SIZE_MIB, the last question invalid so `check` reads to the end
# and reports one error (exit 1 is expected).
# Usage: benches/lesson_load.sh [BINARY] [SIZE_MIB]   e.g. benches/lesson_load.sh target/release/cuda-academy 16
set -euo pipefail
bin=${1:-target/release/cuda-academy}
mib=${2:-16}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/huge.md" "$mib" <<'PY'
import sys
path, mib = sys.argv[1], int(sys.argv[2])
one = '\n[[quiz]]\nid = "q{i}"\nprompt = "p"\nexplanation = "e"\nchoices = ["a", "b"]\nanswer = {a}\n'
parts, i = ['+++\nid = "huge"\ntitle = "Huge"\n'], 0
size = len(parts[0]) + len('+++\n# Card\n')
limit = mib * 1024 * 1024  # the loader refuses files over 16 MiB: stay just under
while size + len(one.format(i=i, a=1)) <= limit:
    part = one.format(i=i, a=1)
    parts.append(part); size += len(part); i += 1
parts[-1] = one.format(i=i - 1, a=5)
parts.append('+++\n# Card\n')
open(path, 'w').write(''.join(parts))
print(f'{i} questions, {sum(map(len, parts)) / 2**20:.1f} MiB', file=sys.stderr)
PY
set +e
/usr/bin/time -v "$bin" check "$dir" >"$dir/out" 2>"$dir/time"
code=$?
set -e
grep -q 'answer' "$dir/out" "$dir/time" || { echo "check did not report the bad last answer (exit $code):"; cat "$dir/out" "$dir/time"; exit 1; }
awk -F': ' '/Elapsed \(wall clock\)|Maximum resident set size|User time|System time/ {print $1 ": " $2}' "$dir/time"
echo "exit: $code (1 expected: the last question's answer is out of range)"
