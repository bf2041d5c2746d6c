#!/bin/bash
# Issue 18: every exercise's solution, every shortcut in tests/fixtures/shortcuts and every honest
# alternative in tests/fixtures/honest (issue 27), checked
# with the CLI on the GPU backend (BACKEND=sim for the simulator). One line per file: the exit
# code (0 passed, 1 not yet), and for a shortcut whether a failed check names what its
# `// expect:` line says (NAMED), then the failed checks; an honest alternative must exit 0.
# BIN is the cuda-academy binary.
B=${BIN:-cuda-academy}
export CUDA_ACADEMY_STATE_DIR=$(mktemp -d)
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader
for d in exercises/*/; do
  id=$(basename $d)
  [ -f $d/solution.cu ] || continue
  $B exercise check $id $d/solution.cu --backend ${BACKEND:-gpu} --json > /tmp/out.json 2>/tmp/err.txt; rc=$?
  echo "SOLUTION $id rc=$rc $(python3 -c "import json;j=json.load(open('/tmp/out.json'));print(j['backend'].get('kind',j['backend']) if isinstance(j['backend'],dict) else j['backend'], '|', '; '.join(c['name']+': '+c['detail'] for c in j['checks'] if not c['passed'])[:400])" 2>&1 | head -3)"
  for f in tests/fixtures/shortcuts/$id/*.cu; do
    exp=$(sed -n 's#^// expect: ##p' $f)
    $B exercise check $id $f --backend ${BACKEND:-gpu} --json > /tmp/out.json 2>/tmp/err.txt; rc=$?
    hit=$(python3 -c "
import json,sys
j=json.load(open('/tmp/out.json'))
fails=[c['name']+': '+c['detail'] for c in j['checks'] if not c['passed']]+[h['kind'] for h in j['hazards']]
e=sys.argv[1]
print('NAMED' if any(e in f for f in fails) else 'NOT-NAMED', '|', ' || '.join(fails)[:300])
" "$exp" 2>&1 | head -3)
    echo "  SHORTCUT $id/$(basename $f) rc=$rc $hit"
  done
  # Honest alternatives (tests/fixtures/honest/<id>/): other ways to do the task, which must pass.
  for f in tests/fixtures/honest/$id/*.cu; do
    [ -f $f ] || continue
    $B exercise check $id $f --backend ${BACKEND:-gpu} --json > /tmp/out.json 2>/tmp/err.txt; rc=$?
    echo "  HONEST $id/$(basename $f) rc=$rc $(python3 -c "import json;j=json.load(open('/tmp/out.json'));print('; '.join(c['name']+': '+c['detail'] for c in j['checks'] if not c['passed'])[:300])" 2>&1 | head -3)"
  done
done
