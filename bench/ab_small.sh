#!/usr/bin/env bash
# The v19 A/Bs cut to the cases PyTorch was ahead on (one short device call): the runs kernel
# on the nearest upsamples' adjoints, split pooling on global pooling, the weighted product on
# the video U-Net; per-case lines in $OUT/<name>/versus.log even where a timeout cuts a run.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
part 120 runs "$(keys 'nchw nhwc' nearest original-up2 unet-dec-c64-128 vae-dec-c256-256 signal-linear-up2 sequence-up4-c256 video-unet-up-c64)" strategy=runs
part 40 pool 'global-pool' pool-splits=16
part 60 product "$(keys 'nchw nhwc' 'bilinear bicubic' volume-64-to-128)|$(keys 'nchw nhwc' bilinear video-unet-up-c64)" volume-product=on
for d in runs pool product; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log"; done > "$OUT/ab_small.log"
cat "$OUT/gpu.txt" "$OUT/ab_small.log"

