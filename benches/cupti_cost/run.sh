#!/usr/bin/env bash
# Build and run cupti_cost.cu on the GPU machine (from the repository root; CUDA toolkit with
# CUPTI). Two processes of 21 interleaved repetitions each; results in ${OUT:-.}/cupti_cost-*.txt.
set -eu
here=$(dirname "$0")
out=${OUT:-.}
cupti_inc=/usr/local/cuda/extras/CUPTI/include
cupti_lib=/usr/local/cuda/extras/CUPTI/lib64
nvcc -O2 -arch=sm_90 -I"$cupti_inc" -L"$cupti_lib" -o "$out/cupti_cost" "$here/cupti_cost.cu" -lcupti -lcuda
export LD_LIBRARY_PATH=$cupti_lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader
for run in 1 2; do
  date -u
  "$out/cupti_cost" 21 | tee "$out/cupti_cost-$run.txt"
done
rm -f "$out/cupti_cost"
