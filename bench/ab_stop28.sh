#!/usr/bin/env bash
# Stop 28's A/Bs (one short device call), each case's default against one override, interleaved:
#   blocks: the blocks kernel (2x2 pixels per unit) on channels-last RGB, where the default runs
#           planes or one pass: bicubic/bilinear upsampling forward, antialiased downsampling's
#           adjoints (the same data in NCHW takes blocks, 1.3-4.7x faster);
#   planes: the planes kernel (its factored 8x8 shape) on the same RGB antialiased downsampling,
#           forward (never timed channels-last; two passes or tiles run by default);
#   passes: two passes for tap-heavy upsampling (lanczos3 and bicubic up 2x, both layouts),
#           where tiles or one pass run by default.
#   passes2, planes2 (PARTS=...): the same overrides on channel-vector gathers of 16-144 tap pairs
#           and on 24-tap antialiased passes; planes3: lanczos3 up 2x NCHW in planes; blocks6: the
#           6x6 blocks shape on lanczos3.
# Per-case lines in $OUT/<name>/versus.log even where a timeout cuts a part.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
up="$(keys nhwc 'bilinear bicubic' sr-720p-up2 sr-720p-up4 inception-224-to-299 timm-256-to-288 sr-features-c64-up2)"
aa="$(keys nhwc 'bilinear-aa bicubic-aa' frames-1080p-to-224 frames-1080p-down2 frames-1080p-down8 frames-4k-down4 \
    clip-preprocess-224 sd-input-768-to-512 sr-lr-generation-down4 single-4096-to-1024)"
PARTS=${PARTS:-blocks planes passes}
for p in $PARTS; do case $p in
    blocks) part 150 blocks "$up|$aa" strategy=blocks ;;
    planes) part 90 planes "$aa" strategy=planes ;;
    passes) part 90 passes "$(keys 'nchw nhwc' 'lanczos3 bicubic' original-up2 sr-features-c64-up2)" strategy=two-pass ;;
    # The second call: channel-vector gathers of 16-144 tap pairs, and one-axis planes of 24 taps.
    passes2) part 120 passes2 "$(keys nhwc 'bicubic bicubic-aa bilinear-aa lanczos3' original-down2 original-down4 \
        vit-pos-embed-24-to-32 one-axis-height-down3)" strategy=two-pass ;;
    planes2) part 60 planes2 "$(keys nhwc lanczos3-aa single-4096-to-1024 sd-input-768-to-512)" strategy=planes ;;
    # The third: lanczos3 up 2x in NCHW (tiles, 2.4 ms) in the factored 8x8 planes shape.
    planes3) part 40 planes3 "$(keys nchw lanczos3 original-up2)" strategy=planes ;;
    # The fourth: the 6x6 blocks shape (lanczos3 upsampling, lanczos3-aa adjoints).
    blocks6) part 90 blocks6 "$(keys 'nchw nhwc' 'lanczos3 lanczos3-aa' original-up2 sd-input-768-to-512 single-4096-to-1024)" \
        strategy=blocks ;;
esac; done
for d in $PARTS; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log"; done > "$OUT/ab_stop28.log"
cat "$OUT/gpu.txt" "$OUT/ab_stop28.log"
