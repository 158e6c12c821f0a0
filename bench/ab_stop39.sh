#!/usr/bin/env bash
# Stop 39's runs on the GPU machine. Parts (PARTS=...):
#   loops:    the suite's NCHW cases (NCHW_CASES) under the default (v32: NCHW
#             gathers of more than 16 mean tap pairs in plane loops, a unit per pixel and group
#             of up to 4 channels) against `no-plane-loops` (v31's one output a unit);
#   loopsall: the same cases under the default against `plane-loops` (forced wherever the
#             kernel applies, before the planes kernel in passes too: rows of up to 16 taps);
#   indexed:  every suite case under the default (v33: weighted scalar one-output gathers and
#             plane loops over rows of consecutive indices read each output's first column
#             index alone) against `indexed-rows` (every tap's index loaded);
#   loopsncu: Nsight Compute counters of 1080p -> 224 forward (bicubic-aa bf16 NCHW and NHWC,
#             bilinear-aa f32 NCHW: width passes of 35 and 18 taps a row) under the default,
#             `--no-plane-loops` and `--indexed-rows`;
#   tests:    the CUDA tests named in TESTS;
#   suite:    `bench/gpu_run.sh bench` into $OUT/suite.
# Each part's logs are tarred into $OUT/PART.tar as it ends (`pack_parts`).
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
# v32's rule chooses plane loops in NCHW-ordered passes alone, so `loops` and `loopsall` time the
# NCHW cases (channels-last ones would time two identical routes); LOOPS_ONLY replaces it.
# Not narrower: one-pass gathers count row x column tap pairs, 17-64 in many NCHW cases
# (lanczos3 2x, bicubic adjoints of upsampling, area 8x: `table_stats`), whichever kernel
# their other rules pick.
NCHW_CASES=' nchw '
PARTS=${PARTS:-loops indexed loopsall loopsncu tests}
TESTS=${TESTS:-plane_loops_share strategies_agree}
for p in $PARTS; do
    case $p in
    loops) part ${LOOPS_SECONDS:-200} loops "${LOOPS_ONLY:-$NCHW_CASES}" no-plane-loops ;;
    indexed) part ${LOOPS_SECONDS:-200} indexed "${LOOPS_ONLY:-}" indexed-rows ;;
    loopsall) part ${LOOPS_SECONDS:-200} loopsall "${LOOPS_ONLY:-$NCHW_CASES}" plane-loops ;;
    loopsncu) ncu_part loopsncu '2 4 frames-1080p-to-224 nchw bf16 bicubic-aa
2 4 frames-1080p-to-224 nchw f32 bilinear-aa
2 4 frames-1080p-to-224 nhwc bf16 bicubic-aa' --no-plane-loops --indexed-rows ;;
    tests) tests_part 400 $TESTS ;;
    suite) OUT="$OUT/suite" bash bench/gpu_run.sh bench ;;
    esac
    pack_parts
done
