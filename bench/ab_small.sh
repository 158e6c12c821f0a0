#!/usr/bin/env bash
# The v19 A/Bs cut to the cases PyTorch was ahead on (one short device call): the runs kernel
# on the nearest upsamples' adjoints, split pooling on global pooling, the weighted product on
# the video U-Net; per-case lines in $OUT/<name>/versus.log even where a timeout cuts a run.
set -uo pipefail
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
[ -f .gpu/bin.tar.xz ] && [ ! -d .gpu/bin ] && tar -C .gpu -xJf .gpu/bin.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
part() {
    local seconds=$1 name=$2 only=$3 override=$4
    mkdir -p "$OUT/$name"
    timeout "$seconds" .gpu/bin/resample --workloads bench/workloads.json --only "$only" --versus "$override" \
        --out "$OUT/$name" 2> "$OUT/$name/versus.log"
    echo "== $name rc=$?" >> "$OUT/$name/versus.log"
}
# Keys (`name layout dtype mode`) of these workloads in every layout and dtype; a key the
# suite does not hold matches nothing.
keys() {
    local modes=$1 name layout dtype mode list=''; shift
    for name in "$@"; do for layout in nchw nhwc; do for dtype in f32 f16 bf16; do for mode in $modes; do
        list+="${list:+|}$name $layout $dtype $mode"
    done; done; done; done
    echo "$list"
}
part 120 runs "$(keys nearest original-up2 unet-dec-c64-128 vae-dec-c256-256 signal-linear-up2 sequence-up4-c256 video-unet-up-c64)" strategy=runs
part 40 pool 'global-pool' pool-splits=16
part 60 product "$(keys 'bilinear bicubic' volume-64-to-128)|$(keys bilinear video-unet-up-c64)" volume-product=on
for d in runs pool product; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log"; done > "$OUT/ab_small.log"
cat "$OUT/gpu.txt" "$OUT/ab_small.log"

