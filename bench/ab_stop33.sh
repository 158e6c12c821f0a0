#!/usr/bin/env bash
# Stop 33's A/B on the GPU machine. Parts (PARTS=...):
#   shrink:  gathers of more than 16 tap pairs that shrink both axes below 4x (CLIP's and
#            Stable Diffusion's input resizes, the adjoints of 1.1x-2x upsamples: Inception,
#            timm, ViT position embeddings, 2x bicubic and lanczos3; the planes and pairs
#            cases beside them measure the noise) in tiles (the default) against two passes
#            (`passes-when-shrinking`), both layouts;
#   blocks3: the 3x3 blocks shape (the default for odd-width upsampling tables: lanczos3's 2x
#            downsample's backward) against the planes kernel that ran them before
#            (`strategy=planes`; only the backward of those cases is the comparison), and
#            forced blocks on ImageNet's 375x500 -> 256 bicubic backward (3-tap rows, 2.04 of
#            them filled along the width: below the fill rule);
#   cells6:  lanczos3's 2x upsample in the cells kernel (the new default, NCHW) against the
#            6x6 blocks that ran it before (`strategy=blocks`; the forward is the comparison);
#   tests:   the CUDA tests of the blocks kernel (the 3x3 shape), the cells kernel (lanczos3)
#            and of the defaults' picks;
#   suite:   `bench/gpu_run.sh bench` into $OUT/suite.
# SHRINK_ONLY replaces the shrink part's cases; *_SECONDS its parts' time limits.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
PARTS=${PARTS:-blocks3 cells6 tests shrink}
ORIGINALS=""
for n in original-up2 original-down2; do for l in nchw nhwc; do for t in f32 bf16; do for m in bicubic lanczos3 bilinear-aa; do
    ORIGINALS+="|$n $l $t $m"
done; done; done; done
SHRINK="${SHRINK_ONLY:-}"
[ -z "$SHRINK" ] && SHRINK="clip-preprocess-224|sd-input-768-to-512|inception-224-to-299|timm-256-to-288|vit-pos-embed-24-to-32|imagenet-eval-256|sr-720p-up2|sr-features-c64-up2|frames-1080p-down2$ORIGINALS"
for p in $PARTS; do case $p in
    shrink) part ${SHRINK_SECONDS:-330} shrink "$SHRINK" passes-when-shrinking ;;
    blocks3) part ${BLOCKS3_SECONDS:-60} blocks3 "original-down2 nchw f32 lanczos3|original-down2 nchw f16 lanczos3|original-down2 nchw bf16 lanczos3" strategy=planes
        part ${BLOCKS3_SECONDS:-60} imagenet "imagenet-eval-256 nchw f32 bicubic|imagenet-eval-256 nchw bf16 bicubic|imagenet-eval-256 nhwc bf16 bicubic" strategy=blocks ;;
    cells6) part ${CELLS6_SECONDS:-45} cells6 "original-up2 nchw f32 lanczos3|original-up2 nchw f16 lanczos3|original-up2 nchw bf16 lanczos3" strategy=blocks ;;
    tests) mkdir -p "$OUT/tests"
        timeout 120 .gpu/bin/numerics odd_width_blocks blocks_share_windows cells_ blocks_by_default --nocapture > "$OUT/tests/tests.log" 2>&1
        echo "tests rc=$?" > "$OUT/tests/versus.log"
        grep -E "test result|FAILED|panicked|cases," "$OUT/tests/tests.log" >> "$OUT/tests/versus.log" ;;
    suite) mkdir -p "$OUT/suite"
        OUT="$OUT/suite" timeout 330 bash bench/gpu_run.sh bench > "$OUT/suite/versus.log" 2>&1 ;;
esac; done
for d in $PARTS $([[ " $PARTS " == *" blocks3 "* ]] && echo imagenet); do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log" | tail -130; done > "$OUT/ab_stop33.log"
cat "$OUT/gpu.txt" "$OUT/ab_stop33.log"
