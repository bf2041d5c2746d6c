#!/bin/bash
# Issue 19: every exercise's starter and solution checked with the CLI on a backend (default: the
# GPU). One line per file: exit code (0 passed, 1 not yet, 2 usage) and the failed checks and
# hazards. A starter should print rc=1, a solution rc=0. BIN is the cuda-academy binary.
B=${BIN:-cuda-academy}
export CUDA_ACADEMY_STATE_DIR=$(mktemp -d)
for d in exercises/*/; do
  id=$(basename "$d")
  for kind in starter solution; do
    f=$d$kind.cu
    [ -f "$f" ] || continue
    $B exercise check "$id" "$f" --backend "${BACKEND:-gpu}" --json > /tmp/ex-out.json 2>/tmp/ex-err.txt; rc=$?
    echo "$(echo $kind | tr a-z A-Z) $id rc=$rc $(python3 -c "
import json
j=json.load(open('/tmp/ex-out.json'))
b=j['backend']
fails=[c['name']+': '+c['detail'] for c in j['checks'] if not c['passed']]+[h['kind'] for h in j['hazards']]
print(b.get('kind',b) if isinstance(b,dict) else b, '|', ' || '.join(fails)[:400])
" 2>&1 | head -2) $(head -c 200 /tmp/ex-err.txt)"
  done
done
