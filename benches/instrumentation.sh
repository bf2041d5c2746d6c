#!/usr/bin/env bash
# Issue 10 §2-4 on the H200 (run on the device machine from the repository root, the release
# binary in .gpu/, results under $OUT/m and $OUT/m.tgz): instrumentation variants (9 runs each, interleaved), breadth-first
# timelines at 4-8 streams, pageable-vs-pinned with CUPTI detached after each recording (the default) and attached once.
set -u
B=${B:-./.gpu/cuda-academy}
D=$OUT/m; mkdir -p $D/inst $D/bf $D/other
export CUDA_ACADEMY_STATE_DIR=/tmp/st
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current,clocks.sm,clocks.mem --format=csv > $D/smi.txt 2>&1
$B --backend gpu info --json > $D/info.json 2>&1
date -u > $D/start.txt
$B --backend gpu run pipeline --json > $D/inst/warm.json 2>&1
for i in 1 2 3 4 5 6 7 8 9; do
  $B --backend gpu run pipeline --json > $D/inst/default-$i.json 2>$D/inst/default-$i.err
  CUDA_ACADEMY_CUPTI=attach-once $B --backend gpu run pipeline --json > $D/inst/attachonce-$i.json 2>$D/inst/attachonce-$i.err
  CUDA_ACADEMY_CUPTI=no-tags $B --backend gpu run pipeline --json > $D/inst/notags-$i.json 2>$D/inst/notags-$i.err
  CUDA_ACADEMY_NO_CUPTI=1 $B --backend gpu run pipeline --json > $D/inst/events-$i.json 2>$D/inst/events-$i.err
done
date -u >> $D/start.txt
for sc in "4 32" "5 40" "6 24" "8 64"; do
  set -- $sc
  $B --backend gpu run pipeline --streams $1 --chunks $2 --order breadth-first --json > $D/bf/s$1-c$2.json 2>$D/bf/s$1-c$2.err
done
$B --backend gpu run pageable-vs-pinned --json > $D/other/pvp-default.json 2>$D/other/pvp-once.err
CUDA_ACADEMY_CUPTI=attach-once $B --backend gpu run pageable-vs-pinned --json > $D/other/pvp-attachonce.json 2>$D/other/pvp-detach.err
$B --backend gpu run pipeline --streams 3 --chunks 16 > $D/other/table-3x16.txt 2>&1
date -u >> $D/start.txt
# Medians of 9 per variant (BENCHMARKS.md reports these).
python3 - "$D" <<'PY' | tee $D/summary.txt
import glob, json, statistics, sys
d = sys.argv[1]
keys = ["instrumentation_overhead_pct", "best_ms", "recorded_ms", "sequential_ms", "efficiency",
        "bound_ms", "equal_chunks_ms", "best_taper"]
for v in ["default", "attachonce", "notags", "events"]:
    rs = []
    for f in sorted(glob.glob(f"{d}/inst/{v}-*.json")):
        try:
            rs.append(json.load(open(f)))
        except ValueError:
            pass
    print(v, "runs:", len(rs), "failed checks:",
          sum(1 for r in rs for c in r["checks"] if not c["passed"]))
    for k in keys:
        xs = [r["metrics"][k]["value"] for r in rs if k in r["metrics"]]
        if xs:
            print(f"  {k:30} median {statistics.median(xs):.4f} min {min(xs):.4f} max {max(xs):.4f} n={len(xs)}")
    print("  shapes:", sorted({(r["params"]["streams"], r["params"]["chunks"],
                                 r["params"]["extra"].get("chunk_shape")) for r in rs}, key=str))
PY
tar czf $OUT/m.tgz -C $OUT m
ls $D/inst | wc -l; cat $D/start.txt
