#!/usr/bin/env bash
# Stop 35's runs on the GPU machine. Parts (PARTS=...):
#   tests:    the CUDA tests of the blocks kernel, scalar and in channel vectors (TESTS: filters);
#   chblocks: blocks in channel vectors (the bundle's default where the rule takes them)
#             against `channel-gather` (v26's routes: one pass, channel strips, two passes) on
#             the suite's channels-last workloads whose channels make vectors and whose forward
#             or backward grows (CHB_ONLY replaces the cases);
#   extra:    EXTRA_ONLY's cases under the default against EXTRA_OVERRIDE (e.g. `planes=4` on
#             the FPN's nearest backward, v16's lead for its 0.87x);
#   suite:    `bench/gpu_run.sh bench` into $OUT/suite.
# *_SECONDS: a part's time limit.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
PARTS=${PARTS:-tests chblocks}
GROWING="original-up2 nhwc|original-down2 nhwc|original-down4 nhwc|unet-dec-c512-16 nhwc|unet-dec-c256-32 nhwc"
GROWING+="|unet-dec-c128-64 nhwc|unet-dec-c64-128 nhwc|segformer-head-up4 nhwc|sr-features-c64-up2 nhwc"
GROWING+="|small-7-b256-c512 nhwc|small-14-b128-c64 nhwc|small-28-b64-c256-down2 nhwc|vit-pos-embed-24-to-32 nhwc"
GROWING+="|volume-64-to-128 nhwc|video-unet-up-c64 nhwc"
DONE=""
for p in $PARTS; do case $p in
    tests) tests_part ${TESTS_SECONDS:-200} ${TESTS:-channel_blocks blocks_share_windows odd_width_blocks blocks_by_default cells_give}; DONE+=" tests" ;;
    chblocks) part ${CHB_SECONDS:-300} chblocks "${CHB_ONLY:-$GROWING}" channel-gather; DONE+=" chblocks" ;;
    extra) part ${EXTRA_SECONDS:-60} extra "${EXTRA_ONLY:-fpn-p5-to-p4|sequence-up4-c256 nchw}" "${EXTRA_OVERRIDE:-planes=4}"; DONE+=" extra" ;;
    suite) mkdir -p "$OUT/suite"
        OUT="$OUT/suite" timeout ${SUITE_SECONDS:-560} bash bench/gpu_run.sh bench > "$OUT/suite/versus.log" 2>&1; DONE+=" suite" ;;
esac; done
for d in $DONE; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log" | tail -200; done > "$OUT/ab_stop35.log"
cat "$OUT/gpu.txt" "$OUT/ab_stop35.log"
