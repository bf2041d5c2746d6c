#!/usr/bin/env bash
# Compile every exercise's starter and solution with nvcc against academy.cuh, run each
# solution, and print one line per file:
#   PASS  <id>/solution.cu  compiled, ran, printed "check_output: pass"
#   OK    <id>/starter.cu   compiled (starters are not run: some race on purpose)
#   FAIL  <file>  <why>
# Exit status: 0 when every line is PASS or OK. Needs nvcc and a GPU; run from anywhere.
#   NVCC=/usr/local/cuda/bin/nvcc NVCC_FLAGS="-arch=sm_90" exercises/nvcc-check.sh
set -u
here="$(cd "$(dirname "$0")" && pwd)"
nvcc="${NVCC:-nvcc}"
flags="${NVCC_FLAGS:-}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
if ! command -v "$nvcc" >/dev/null 2>&1; then
    echo "FAIL  nvcc  not found (set NVCC=/path/to/nvcc)"
    exit 1
fi
status=0
for dir in "$here"/*/; do
    id="$(basename "$dir")"
    for kind in starter solution; do
        src="$dir$kind.cu"
        [ -f "$src" ] || continue
        bin="$out/$id-$kind"
        # shellcheck disable=SC2086 # NVCC_FLAGS is a list of flags
        if ! log="$("$nvcc" -std=c++17 $flags -I "$here" -o "$bin" "$src" 2>&1)"; then
            echo "FAIL  $id/$kind.cu  does not compile: $(echo "$log" | grep -m1 -i error)"
            status=1
            continue
        fi
        if [ "$kind" = starter ]; then
            echo "OK    $id/$kind.cu"
            continue
        fi
        start=$(date +%s.%N)
        if ! run="$(timeout 120 "$bin" 2>&1)"; then
            echo "FAIL  $id/$kind.cu  exited non-zero: $(echo "$run" | tail -n 1)"
            status=1
        elif echo "$run" | grep -q "^check_output: pass$"; then
            secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
            echo "PASS  $id/$kind.cu  ${secs}s  $(echo "$run" | grep '^report' | tr '\n' ' ')"
        else
            echo "FAIL  $id/$kind.cu  no passing check_output: $(echo "$run" | tail -n 1)"
            status=1
        fi
    done
done
exit $status
