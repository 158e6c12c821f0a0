#!/usr/bin/env bash
# One device call: the v19 A/Bs (bench/ab_v19.sh, or the short bench/ab_small.sh as AB=, at most
# AB_S seconds), then the CUDA tests (gpu_run.sh tests, OUTSIDE_CASES outside cases, default 300)
# until TOTAL_S; logs and an archive under $OUT.
#   OUT=... AB_S=400 TOTAL_S=585 bash bench/ab_then_tests.sh
#   OUT=... AB=bench/ab_small.sh AB_S=240 bash bench/ab_then_tests.sh
set -uo pipefail
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
start=$(date +%s)
timeout "${AB_S:-400}" bash "${AB:-bench/ab_v19.sh}" > "$OUT/ab.log" 2>&1; echo "ab rc=$? after $(( $(date +%s) - start ))s" >> "$OUT/ab.log"
left=$((${TOTAL_S:-585} - ($(date +%s) - start)))
if [ "$left" -gt 60 ]; then
    echo "tests get ${left}s" >> "$OUT/ab.log"
    mkdir -p "$OUT/tests"
    OUT="$OUT/tests" OUTSIDE_CASES=${OUTSIDE_CASES:-300} timeout "$left" bash bench/gpu_run.sh tests > "$OUT/tests/run.log" 2>&1
    echo "tests rc=$?" >> "$OUT/ab.log"
fi
tar -C "$OUT" -czf "$OUT/ab_all.tgz" runs product pool tests ab.log 2>/dev/null
