#!/usr/bin/env bash
# Stop 38's runs on the GPU machine. Parts (PARTS=...):
#   tapmajor:  every channels-last case under the default (v31: the one-output gather in channel
#              order reads tap-major tables where a pixel holds fewer units than a warp) against
#              `tables-row-major` (v30's layout for every channel-order gather);
#   blocksall: every suite case under the default against forced blocks (where blocks do not
#              apply the call falls back to the default: 1.0x), the A/B a relaxed blocks rule
#              needs (docs/PERFORMANCE.md v30, the sweep's ImageNet adjoints);
#   segments:  every suite case under the default (v31: width passes of more than 4 taps in the
#              row segments kernel) against `no-row-segments` (needs the bundle of f9617bf:
#              the kernel and its flag were reverted after the run, docs/PERFORMANCE.md v31);
#   rowfold:   every channels-last case under the default (v31: row passes of RGB read as one
#              channel along width x channels, in vectors) against `row-scalar`;
#   passes:    the channels-last RGB shrinks below 4x (tiles by default) under the default
#              against `passes-when-shrinking` (two passes, their width pass in row segments);
#   validate:  bench/validation-blocks.json (geometries outside the suite: the adjoints of 1.33x-
#              2.67x shrinks) under the default against forced blocks;
#   rgbncu:    Nsight Compute counters of the channels-last RGB antialiased downsamples
#              (1080p -> 224 and 1080p down 2 bicubic-aa in bf16, the first NCHW beside them);
#   tests:     the CUDA tests named in TESTS;
#   suite:     `bench/gpu_run.sh bench` into $OUT/suite.
# Each part's logs are tarred into $OUT/PART.tar as it ends (the device returns few files).
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
PARTS=${PARTS:-segments rowfold passes validate rgbncu tests}
TESTS=${TESTS:-strategies_agree channels_last_rules blocks_by_default row_passes_fold}
for p in $PARTS; do
    case $p in
    tapmajor) part ${TAPMAJOR_SECONDS:-200} tapmajor " nhwc " tables-row-major ;;
    segments) part ${SEGMENTS_SECONDS:-200} segments "" no-row-segments ;;
    rowfold) part 150 rowfold " nhwc " row-scalar ;;
    passes) part 90 passes "frames-1080p-down2 nhwc|sd-input-768-to-512 nhwc|clip-preprocess-224 nhwc|imagenet-eval-256 nhwc|inception-224-to-299 nhwc|timm-256-to-288 nhwc" passes-when-shrinking ;;
    validate) WORKLOADS=bench/validation-blocks.json part 150 validate "" strategy=blocks ;;
    blocksall) part ${BLOCKS_SECONDS:-300} blocksall "${BLOCKS_ONLY:-}" strategy=blocks ;;
    rgbncu)
        mkdir -p "$OUT/rgbncu"
        NCU_CASES='2 4 frames-1080p-to-224 nhwc bf16 bicubic-aa
2 4 frames-1080p-down2 nhwc bf16 bicubic-aa
2 4 frames-1080p-to-224 nchw bf16 bicubic-aa' OUT="$OUT/rgbncu" bash bench/ncu_counters.sh > "$OUT/rgbncu/log" 2>&1 ;;
    tests) tests_part 400 $TESTS ;;
    suite) OUT="$OUT/suite" bash bench/gpu_run.sh bench ;;
    esac
    for d in "$OUT"/*/; do
        [ -d "$d" ] && tar -C "$OUT" -cf "$OUT/$(basename "$d").tar" "$(basename "$d")" && rm -rf "$d"
    done
done
