#!/usr/bin/env bash
# Stop 34's runs on the GPU machine. Parts (PARTS=...):
#   tests:   the CUDA tests of the v25 rules and shapes (3x3 blocks, lanczos3 cells, shrinking
#            passes, the defaults' picks);
#   sweep:   every strategy forced (`strategy=NAME`) against the default on the suite's cases
#            furthest below their roofline share (cheap modes under 40% of the copy, tap-heavy
#            ones under 20%, one per route family): does any rule leave a faster kernel unused?
#   planes4: four channels per planes/blocks/cells unit (`planes=4`) against the default on
#            the suite's small gathers (under 4M outputs on one side, where the default serves
#            one channel per unit: `PLANES_TARGET_UNITS`); v16's sweep found the FPN's nearest
#            backward 10-20% faster at four;
#   loads:   the cells kernel's window rows in aligned vectors against scalar loads on the
#            NCHW workloads of integer ratios (cells' ground): LOADS_OVERRIDE is the other side
#            (`cell-scalar-loads` where the bundle loads vectors by default, as a3b3d17's did;
#            `cell-vector-loads` for the cases where the rule of 948226b keeps scalars);
#   cells4:  forced cells against the default where the rule declines them for the L1 cost of
#            scalar window loads (half-precision 2-D strides of 4; f32 one-phase shapes:
#            2x downsampling, the adjoints of 2x upsampling);
#   suite:   `bench/gpu_run.sh bench` into $OUT/suite.
# *_SECONDS: a part's time limit (SWEEP_SECONDS per strategy); TESTS: the tests part's filters;
# LOADS_ONLY replaces the loads part's cases.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
PARTS=${PARTS:-tests sweep planes4}
LOW="imagenet-eval-256 nchw bf16 bilinear|imagenet-eval-256 nhwc bf16 bilinear|deeplab-logits-up8 nhwc bf16 bilinear"
LOW+="|deeplab-logits-up8 nchw bf16 bilinear|unet-dec-c128-64 nchw bf16 bilinear|original-up2 nchw bf16 bilinear"
LOW+="|segformer-head-up4 nchw bf16 bilinear|sr-720p-up2 nhwc bf16 bicubic|timm-256-to-288 nchw f32 bicubic"
LOW+="|sr-720p-up4 nchw bf16 bicubic|frames-1080p-down2 nhwc bf16 bicubic-aa|clip-preprocess-224 nchw bf16 bicubic-aa"
LOW+="|single-4096-to-1024 nchw bf16 lanczos3-aa|original-up2 nhwc bf16 lanczos3|mri-area-256-to-96 nchw bf16 area"
SMALL="unet-dec-c512-16|fpn-p5-to-p4|deeplab-logits-up8|vae-dec-c512-64|sdxl-unet-up-c1280|small-14-b128-c64"
SMALL+="|small-28-b64-c256-down2|vit-pos-embed-24-to-32|size1-row-up2|video-unet-up-c64|video-clip-to-112"
SMALL+="|adaptive-pool-28-to-7|area-down8|area-down16|sr-lr-generation-down4|frames-1080p-down8|size1-global-pool"
CELLS="original-up2 nchw|original-down2 nchw|original-down4 nchw|frames-1080p-down2 nchw|frames-4k-down4 nchw"
CELLS+="|sr-720p-up2 nchw|sr-720p-up4 nchw|sr-features-c64-up2 nchw|unet-dec-c64-128 nchw|unet-dec-c128-64 nchw"
CELLS+="|segformer-head-up4 nchw|vae-dec-c256-256 nchw|fpn-p3-to-p2 nchw|signal-linear-up2 nchw|sequence-up4-c256 nchw"
CELLS+="|one-axis-width-up2 nchw|single-4096-c16-to-1024 nchw|volume-64-to-128 nchw"
WIDER="original-down4 nchw|frames-4k-down4 nchw|original-down2 nchw f32|original-up2 nchw f32|sr-720p-up2 nchw f32"
STRATEGIES="one-pass two-pass tiled planes teams blocks cells runs"
DONE=""
for p in $PARTS; do case $p in
    tests) mkdir -p "$OUT/tests"
        timeout 200 .gpu/bin/numerics ${TESTS:-odd_width_blocks blocks_share_windows cells_ blocks_by_default passes_when_shrinking} --nocapture > "$OUT/tests/tests.log" 2>&1
        echo "tests rc=$?" > "$OUT/tests/versus.log"
        grep -E "test result|FAILED|panicked|cases," "$OUT/tests/tests.log" >> "$OUT/tests/versus.log"; DONE+=" tests" ;;
    sweep) for s in $STRATEGIES; do part ${SWEEP_SECONDS:-40} "sweep-$s" "$LOW" "strategy=$s"; DONE+=" sweep-$s"; done ;;
    loads) part ${LOADS_SECONDS:-300} loads "${LOADS_ONLY:-$CELLS}" ${LOADS_OVERRIDE:-cell-vector-loads}; DONE+=" loads" ;;
    cells4) part ${CELLS4_SECONDS:-120} cells4 "$WIDER" strategy=cells; DONE+=" cells4" ;;
    planes4) part ${PLANES4_SECONDS:-120} planes4 "$SMALL" planes=4; DONE+=" planes4" ;;
    suite) mkdir -p "$OUT/suite"
        OUT="$OUT/suite" timeout 560 bash bench/gpu_run.sh bench > "$OUT/suite/versus.log" 2>&1; DONE+=" suite" ;;
esac; done
for d in $DONE; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log" | tail -200; done > "$OUT/ab_stop34.log"
cat "$OUT/gpu.txt" "$OUT/ab_stop34.log"
