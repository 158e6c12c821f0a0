#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, after `cargo xtask gpu-bundle` put the CUDA
# binaries in .gpu/bin (or packed them in .gpu/bin.tar.xz). Everything is logged under $OUT
# (or ./gpu-out when OUT is unset).
#   bash bench/gpu_run.sh [tests|bench|all]
#     tests: the CUDA test binaries, the tour, outside references, the Burn training step
#     bench: PyTorch and interp over the workload suite (bench/workloads.json), the plot
#   ONLY=TEXT bash bench/gpu_run.sh versus NAME=VALUE   (TEXT: A|B for the cases of either)
#     versus: the cases whose names contain TEXT under the default rules and under one
#     override (the bench's --versus), interleaved; ratios in $OUT/versus.csv and .md
set -uo pipefail
OUT=${OUT:-gpu-out}
PHASE=${1:-all}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
[ -f .gpu/bin.tar.xz ] && [ ! -d .gpu/bin ] && tar -C .gpu -xJf .gpu/bin.tar.xz
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__)' | tee -a "$OUT/gpu.txt"
status=0
if [ "$PHASE" = versus ]; then
    timeout 560 .gpu/bin/resample --workloads bench/workloads.json --only "${ONLY:-}" --versus "${2:?NAME=VALUE}" \
        --out "$OUT" 2> "$OUT/versus.log"
    status=$?
    grep -v XDG_RUNTIME "$OUT/versus.log" | tail -3
    exit $status
fi
if [ "$PHASE" != bench ]; then
    for t in .gpu/bin/interp_runtime .gpu/bin/numerics .gpu/bin/errors .gpu/bin/properties .gpu/bin/ranks .gpu/bin/planes .gpu/bin/user_mode_* .gpu/bin/tour; do
        [ -x "$t" ] || continue
        echo "== $t" >> "$OUT/tests.log"
        "$t" --nocapture 2>&1 | grep -v XDG_RUNTIME | tee -a "$OUT/tests.log" | grep -E "cases|worst|fan-in:|test result|FAILED|panicked|note:" || true
        [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    done
    # Outside references: PyTorch CPU float64 (and CUDA beside it), Pillow, on random cases.
    python3 bench/outside_reference.py --run-cases .gpu/bin/run_cases --cases ${OUTSIDE_CASES:-600} \
        --json "$OUT/outside.json" --markdown "$OUT/outside.md" > "$OUT/outside.log" 2>&1 || status=1
    grep -v XDG_RUNTIME "$OUT/outside.log" | tail -40
    if [ -x .gpu/bin/step_bench ]; then
        timeout 300 .gpu/bin/step_bench > "$OUT/step_bench.md" 2> "$OUT/step_bench.err" || status=1
        cat "$OUT/step_bench.md"
    fi
fi
if [ "$PHASE" != tests ]; then
    timeout 330 python3 bench/pytorch_interpolate.py "$OUT/torch.jsonl" ${BENCH_QUICK:+--quick} > "$OUT/torch.log" 2>&1 \
        || echo "pytorch script failed: $(tail -3 "$OUT/torch.log")"
    timeout 330 .gpu/bin/resample --workloads bench/workloads.json --pytorch "$OUT/torch.jsonl" --out "$OUT" ${BENCH_QUICK:+--quick} \
        2> "$OUT/resample.log" | sed -n '/## Verdict/,/## All cases/p'
    python3 bench/plot.py "$OUT/bench.csv" "$OUT/benchmarks.png" || echo "plot failed"
fi
exit $status
