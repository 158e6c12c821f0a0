#!/usr/bin/env bash
# Stop 30's A/B on the GPU machine: one-pass gathers of channels-last tensors whose channels
# make no vectors (pixel strips of one channel per unit, e.g. DeepLab's 21 classes) in the
# unrolled variants (single tap, fixed 2x2 taps: the new default) against their loops
# (`strips-looped`), interleaved, over every channels-last case of the suite (the cases that
# never run scalar strips measure the run's noise). Parts (PARTS=...):
#   strips:      that A/B;
#   strips-nchw: the same override where NCHW strips run single taps (nearest downsampling,
#                the 3x bilinear of audio whose taps fall on its zeros; a later build);
#   suite:       `bench/gpu_run.sh bench` into $OUT/suite;
#   numerics:    the CUDA numerics tests of strategies and strips;
#   guards:      the NCHW f32 bicubic resizes whose v21 suite times moved (4x4 blocks), with
#                and without the blocks' unguarded warps;
#   tests:       `bench/gpu_run.sh tests` (CUDA tests, tour, outside references, the Burn
#                step bench).
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
PARTS=${PARTS:-strips tests guards}
for p in $PARTS; do case $p in
    strips) part 210 strips "nhwc" strips-looped ;;
    strips-nchw) part 90 strips-nchw "$(keys nchw nearest original-down2 original-down4)|$(keys 'nchw nhwc' 'nearest bilinear area' audio-48k-to-16k)" strips-looped ;;
    suite) mkdir -p "$OUT/suite"
        OUT="$OUT/suite" timeout 330 bash bench/gpu_run.sh bench > "$OUT/suite/versus.log" 2>&1 ;;
    numerics) mkdir -p "$OUT/numerics"
        timeout 120 .gpu/bin/numerics strategies_agree pixel_strips channels_last > "$OUT/numerics/numerics.log" 2>&1
        echo "numerics (strategies, strips) rc=$?" > "$OUT/numerics/versus.log"
        grep "test result" "$OUT/numerics/numerics.log" >> "$OUT/numerics/versus.log" ;;
    guards) part 60 guards "timm-256-to-288 nchw|inception-224-to-299 nchw|imagenet-eval-256 nchw" block-guarded ;;
    tests) mkdir -p "$OUT/tests"
        OUTSIDE_CASES=${OUTSIDE_CASES:-300} OUT="$OUT/tests" timeout 270 bash bench/gpu_run.sh tests > "$OUT/tests/run.log" 2>&1
        echo "tests rc=$?" > "$OUT/tests/versus.log"
        grep -E "test result|FAILED|panicked" "$OUT/tests/tests.log" >> "$OUT/tests/versus.log"
        tail -5 "$OUT/tests/outside.log" >> "$OUT/tests/versus.log" ;;
esac; done
for d in $PARTS; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log" | tail -40; done > "$OUT/ab_stop30.log"
cat "$OUT/gpu.txt" "$OUT/ab_stop30.log"
