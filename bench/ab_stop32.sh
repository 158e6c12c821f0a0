#!/usr/bin/env bash
# Stop 32's A/B on the GPU machine: the factored planes shape (NCHW gathers of 5-8 taps per axis
# halving both axes: antialiased 2x-4x downsamples, the adjoints of 2x-4x bicubic and bilinear
# upsamples, a volume's plane pass) in pairs of rows (the new default) against a unit per pixel
# (`plane-single`), interleaved. Parts (PARTS=...):
#   pairs:  that A/B (the cases of those workloads the change does not touch measure the noise);
#   tiles:  the NCHW downsamples below 4x that tiles or planes run by default (CLIP's 512 ->
#           224, 768 -> 512, 1080p -> 224, SR's 4x bicubic-aa, ImageNet's 375x500 -> 256)
#           against forced two passes, whose row pass reads width vectors since v23;
#   shrink: gathers that shrink both axes below 4x with more than 16 tap pairs (CLIP's and
#           Stable Diffusion's input resizes, the adjoints of 1.1x-2x upsamples: Inception,
#           timm, ViT position embeddings, lanczos3 2x) in tiles (the default) against two
#           passes (`passes-when-shrinking`), both layouts (not run in stop 32: no device time);
#   tests:  the CUDA tests of planes (pairs against single rows, f16 and bf16 too);
#   suite:  `bench/gpu_run.sh bench` into $OUT/suite.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
PARTS=${PARTS:-pairs tests tiles}
ORIGINALS=$(keys nchw "bicubic-aa lanczos3 bilinear-aa bicubic" original-down2 original-down4 original-up2)
OTHERS="frames-1080p-down2 nchw|frames-4k-down4 nchw|segformer-head-up4 nchw|sr-720p-up2 nchw|sr-features-c64-up2 nchw|single-4096-to-1024 nchw|volume-64-to-128 nchw"
for p in $PARTS; do case $p in
    pairs) part ${PAIRS_SECONDS:-170} pairs "$ORIGINALS|$OTHERS" plane-single ;;
    tiles) part ${TILES_SECONDS:-90} tiles "clip-preprocess-224 nchw|sd-input-768-to-512 nchw|frames-1080p-to-224 nchw|sr-lr-generation-down4 nchw|imagenet-eval-256 nchw|inception-224-to-299 nchw" strategy=two-pass ;;
    shrink) part ${SHRINK_SECONDS:-150} shrink "clip-preprocess-224|sd-input-768-to-512|inception-224-to-299|timm-256-to-288|vit-pos-embed-24-to-32|original-up2 nchw f32 lanczos3|original-up2 nchw bf16 lanczos3|original-up2 nhwc f32 lanczos3|imagenet-eval-256|sr-lr-generation-down4|frames-1080p-to-224" passes-when-shrinking ;;
    numerics) mkdir -p "$OUT/numerics"
        timeout 200 .gpu/bin/numerics --nocapture > "$OUT/numerics/tests.log" 2>&1
        echo "numerics rc=$?" > "$OUT/numerics/versus.log"
        grep -E "test result|FAILED|panicked|strategies:" "$OUT/numerics/tests.log" >> "$OUT/numerics/versus.log" ;;
    tests) mkdir -p "$OUT/tests"
        timeout 60 .gpu/bin/planes --nocapture > "$OUT/tests/tests.log" 2>&1
        echo "tests rc=$?" > "$OUT/tests/versus.log"
        grep -E "test result|FAILED|panicked|plane pairs:" "$OUT/tests/tests.log" >> "$OUT/tests/versus.log" ;;
    suite) mkdir -p "$OUT/suite"
        OUT="$OUT/suite" timeout 330 bash bench/gpu_run.sh bench > "$OUT/suite/versus.log" 2>&1 ;;
esac; done
for d in $PARTS; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log" | tail -60; done > "$OUT/ab_stop32.log"
cat "$OUT/gpu.txt" "$OUT/ab_stop32.log"
