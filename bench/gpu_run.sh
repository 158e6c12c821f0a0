#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, after `cargo xtask gpu-bundle` put the CUDA
# binaries in .gpu/bin. Correctness first (tests, demo), then PyTorch and interp timings.
# Everything is logged under $OUT (or ./gpu-out when OUT is unset).
set -uo pipefail
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__)' | tee -a "$OUT/gpu.txt"
status=0
for t in .gpu/bin/numerics .gpu/bin/errors .gpu/bin/properties .gpu/bin/user_mode_* .gpu/bin/tour; do
    [ -x "$t" ] || continue
    echo "== $t" >> "$OUT/tests.log"
    "$t" --nocapture 2>&1 | grep -v XDG_RUNTIME | tee -a "$OUT/tests.log" | grep -E "cases|worst|fan-in:|test result|FAILED|panicked|note:" || true
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
# Outside references: PyTorch CPU float64 (and CUDA beside it), Pillow, on random cases.
python3 bench/outside_reference.py --run-cases .gpu/bin/run_cases --cases ${OUTSIDE_CASES:-600} \
    --json "$OUT/outside.json" --markdown "$OUT/outside.md" > "$OUT/outside.log" 2>&1 || status=1
grep -v XDG_RUNTIME "$OUT/outside.log" | tail -60
[ "${1:-}" = "--tests-only" ] && exit $status
python3 bench/pytorch_interpolate.py "$OUT/torch.jsonl" ${BENCH_QUICK:+--quick} > /tmp/torch.log 2>&1 || echo "pytorch script failed: $(tail -3 /tmp/torch.log)"
.gpu/bin/resample --pytorch "$OUT/torch.jsonl" --out "$OUT" ${BENCH_QUICK:+--quick} 2> "$OUT/resample.log" | tail -120
python3 bench/plot.py "$OUT/bench.csv" "$OUT/benchmarks.png" || echo "plot failed"
exit $status
