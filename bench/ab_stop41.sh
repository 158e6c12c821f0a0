#!/usr/bin/env bash
# Stop 41's runs on the GPU machine (v34: plane loops from 8 mean tap pairs, before the planes
# kernel). Parts (PARTS=...):
#   minpairs: the suite's NCHW cases under the default (v34) against
#             `plane-loop-min-pairs=16` (v32's bound);
#   loops:    the same cases under the default against `no-plane-loops` (v31's kernels:
#             v32 and v34 together);
#   ncu33:    Nsight Compute counters of 1080p -> 224 channels-last f32 bilinear-aa forward
#             (where v33 lost, 0.88x) under the default and `--indexed-rows`;
#   tests:    the CUDA tests named in TESTS;
#   suite:    `bench/gpu_run.sh bench` into $OUT/suite.
# Each part's logs are tarred into $OUT/PART.tar as it ends (`pack_parts`).
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
# Plane loops take NCHW-ordered passes alone: channels-last cases would time one route twice.
NCHW_CASES=' nchw '
PARTS=${PARTS:-minpairs loops tests suite}
TESTS=${TESTS:-plane_loops strategies_agree}
for p in $PARTS; do
    case $p in
    minpairs) part ${PART_SECONDS:-150} minpairs "${ONLY:-$NCHW_CASES}" plane-loop-min-pairs=16 ;;
    loops) part ${PART_SECONDS:-150} loops "${ONLY:-$NCHW_CASES}" no-plane-loops ;;
    ncu33) ncu_part ncu33 '2 4 frames-1080p-to-224 nhwc f32 bilinear-aa' --indexed-rows ;;
    tests) tests_part 300 $TESTS ;;
    suite) OUT="$OUT/suite" bash bench/gpu_run.sh bench ;;
    esac
    pack_parts
done
