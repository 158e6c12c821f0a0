#!/usr/bin/env bash
# The v19 A/Bs cut to the cases PyTorch was ahead on (one short device call): the runs kernel
# on the nearest upsamples' adjoints, split pooling on global pooling, the weighted product on
# the video U-Net; per-case lines in $OUT/<name>/versus.log even where a timeout cuts a run.
set -uo pipefail
OUT=${OUT:-gpu-out}
[ -f .gpu/bin.tar.xz ] && [ ! -d .gpu/bin ] && tar -C .gpu -xJf .gpu/bin.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
part() {
    local seconds=$1 name=$2 only=$3 override=$4
    mkdir -p "$OUT/$name"
    timeout "$seconds" .gpu/bin/resample --workloads bench/workloads.json --only "$only" --versus "$override" \
        --out "$OUT/$name" 2> "$OUT/$name/versus.log"
    echo "== $name rc=$?" >> "$OUT/$name/versus.log"
}
part 120 runs 'original-up2 nchw f32 nearest|original-up2 nchw f16 nearest|original-up2 nchw bf16 nearest|original-up2 nhwc f32 nearest|original-up2 nhwc f16 nearest|original-up2 nhwc bf16 nearest|unet-dec-c64-128 nchw f32 nearest|unet-dec-c64-128 nchw bf16 nearest|unet-dec-c64-128 nhwc f32 nearest|unet-dec-c64-128 nhwc bf16 nearest|vae-dec-c256-256 nchw f32 nearest|vae-dec-c256-256 nchw f16 nearest|vae-dec-c256-256 nchw bf16 nearest|vae-dec-c256-256 nhwc f32 nearest|vae-dec-c256-256 nhwc f16 nearest|vae-dec-c256-256 nhwc bf16 nearest|signal-linear-up2 nchw f32 nearest|signal-linear-up2 nchw f16 nearest|signal-linear-up2 nchw bf16 nearest|signal-linear-up2 nhwc f32 nearest|signal-linear-up2 nhwc f16 nearest|signal-linear-up2 nhwc bf16 nearest|sequence-up4-c256 nchw f32 nearest|sequence-up4-c256 nchw bf16 nearest|sequence-up4-c256 nhwc f32 nearest|sequence-up4-c256 nhwc bf16 nearest|video-unet-up-c64 nchw f32 nearest|video-unet-up-c64 nchw bf16 nearest|video-unet-up-c64 nhwc f32 nearest|video-unet-up-c64 nhwc bf16 nearest' strategy=runs
part 40 pool 'global-pool' pool-splits=16
part 60 product 'volume-64-to-128 nchw f32 bilinear|volume-64-to-128 nchw f32 bicubic|volume-64-to-128 nchw f16 bilinear|volume-64-to-128 nchw f16 bicubic|volume-64-to-128 nchw bf16 bilinear|volume-64-to-128 nchw bf16 bicubic|volume-64-to-128 nhwc f32 bilinear|volume-64-to-128 nhwc f32 bicubic|volume-64-to-128 nhwc f16 bilinear|volume-64-to-128 nhwc f16 bicubic|volume-64-to-128 nhwc bf16 bilinear|volume-64-to-128 nhwc bf16 bicubic|video-unet-up-c64 nchw f32 bilinear|video-unet-up-c64 nchw bf16 bilinear|video-unet-up-c64 nhwc f32 bilinear|video-unet-up-c64 nhwc bf16 bilinear' volume-product=on
for d in runs pool product; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log"; done > "$OUT/ab_small.log"
cat "$OUT/gpu.txt" "$OUT/ab_small.log"
