#!/usr/bin/env bash
# Stop 42's runs on the GPU machine (v35: plane loops read their windows in aligned source
# vectors). Parts (PARTS=...):
#   windows:    the suite's NCHW cases under the default (v35: windows of a vector's taps or
#               more in vectors) against `value-loads` (v34: a value load per tap);
#   windowsall: the same cases under the default against `window-vectors` (every plane loops
#               pass whose rows are whole vectors, shorter windows too);
#   ncuwin:     Nsight Compute counters of 1080p -> 224 NCHW forward (bicubic-aa bf16, bilinear-aa
#               f32: width passes of 35 and 18 taps a row) under the default and `--value-loads`;
#   tests:      the CUDA tests named in TESTS;
#   suite:      `bench/gpu_run.sh bench` into $OUT/suite.
# Each part's logs are tarred into $OUT/PART.tar as it ends (`pack_parts`).
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
# Plane loops (and so their windows) take NCHW-ordered passes alone.
NCHW_CASES=' nchw '
PARTS=${PARTS:-windows windowsall ncuwin tests suite}
TESTS=${TESTS:-plane_windows plane_loops strategies_agree}
for p in $PARTS; do
    case $p in
    windows) part ${PART_SECONDS:-150} windows "${ONLY:-$NCHW_CASES}" value-loads ;;
    windowsall) part ${PART_SECONDS:-150} windowsall "${ONLY:-$NCHW_CASES}" window-vectors ;;
    ncuwin) ncu_part ncuwin '2 4 frames-1080p-to-224 nchw bf16 bicubic-aa
2 4 frames-1080p-to-224 nchw f32 bilinear-aa' --value-loads ;;
    tests) tests_part 300 $TESTS ;;
    suite) OUT="$OUT/suite" bash bench/gpu_run.sh bench ;;
    esac
    pack_parts
done
