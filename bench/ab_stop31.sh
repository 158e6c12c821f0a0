#!/usr/bin/env bash
# Stop 31's A/B on the GPU machine: gathers of rows alone (their column table the identity: a
# volume's depth pass, the row pass of two passes) along a contiguous width, read in width
# vectors (the new default) against the scalar kernels (`row-scalar`), interleaved. Parts
# (PARTS=...):
#   rows:     that A/B over the volumes, the NCHW downsamples that take two passes and the
#             one-axis resizes, both layouts (the cases the change does not touch measure the
#             run's noise);
#   twopass:  the NCHW gathers of 8x8 taps shrinking 2x (antialiased 2x downsampling, the
#             adjoints of bicubic 2x upsampling; the factored planes shape by default) and the
#             NCHW volumes under the default against forced two passes, whose row pass is now
#             in width vectors;
#   tests:    the CUDA tests of ranks (signals and volumes: f16 and bf16 too);
#   suite:    `bench/gpu_run.sh bench` into $OUT/suite.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
PARTS=${PARTS:-rows twopass tests}
for p in $PARTS; do case $p in
    rows) part 130 rows "volume-|ct-256|mri-|video-|original-down4 nchw|frames-4k|frames-1080p-down8|single-4096|one-axis" row-scalar ;;
    twopass) part 70 twopass "original-down2 nchw|original-up2 nchw f32 bicubic|original-up2 nchw bf16 bicubic|sr-720p-up2 nchw|frames-1080p-down2 nchw|imagenet-eval-256 nchw|volume-64-to-128 nchw" strategy=two-pass ;;
    tests) mkdir -p "$OUT/tests"
        timeout 60 .gpu/bin/ranks > "$OUT/tests/tests.log" 2>&1
        echo "tests rc=$?" > "$OUT/tests/versus.log"
        grep -E "test result|FAILED|panicked|row vectors:|strategies:" "$OUT/tests/tests.log" >> "$OUT/tests/versus.log" ;;
    suite) mkdir -p "$OUT/suite"
        OUT="$OUT/suite" timeout 330 bash bench/gpu_run.sh bench > "$OUT/suite/versus.log" 2>&1 ;;
esac; done
for d in $PARTS; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log" | tail -60; done > "$OUT/ab_stop31.log"
cat "$OUT/gpu.txt" "$OUT/ab_stop31.log"
