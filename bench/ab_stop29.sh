#!/usr/bin/env bash
# Stop 29's A/B on the GPU machine: the blocks kernel's unit order (each plane's inner blocks
# first, then its frame) and its streamed window sums, against the build before them.
# `.gpu/old/resample` is the bench of the build before (commit f33e716 with the 6x6 shape's
# short-rows variant built), `.gpu/bin/resample` the new one. Each runs every case under its
# default and under `block-full-rows` (edge blocks summed per output from the tables),
# interleaved; the old build's default for 4x4 and 2x2 and its `block-full-rows` for 6x6 are
# what f33e716 runs. Parts (PARTS=...): old, new (the same cases in each build); tests: the
# numerics tests on CUDA; ncu6: counters of lanczos3 up 2x NCHW f32 in both builds.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
for b in old b4; do [ -f .gpu/$b.tar.xz ] && [ ! -d .gpu/$b ] && tar -C .gpu -xJf .gpu/$b.tar.xz; done
PARTS=${PARTS:-old new tests}
# Where blocks run by default: upsampling forward (NCHW; channels-last RGB bicubic) and the
# adjoints of antialiased downsampling, in 2x2, 4x4 and 6x6.
cases="original-up2 nchw f32 bilinear|original-up2 nchw bf16 bilinear|original-up2 nchw f32 bicubic|original-up2 nchw bf16 bicubic"
cases+="|original-up2 nchw f32 lanczos3|original-up2 nchw bf16 lanczos3|sr-720p-up4 nchw bf16 bicubic|sr-720p-up4 nhwc bf16 bicubic"
cases+="|inception-224-to-299 nchw f32 bicubic|inception-224-to-299 nhwc f32 bicubic|segformer-head-up4 nchw bf16 bilinear"
cases+="|frames-1080p-down2 nchw bf16 bicubic-aa|frames-1080p-down2 nhwc f32 bicubic-aa"
cases+="|single-4096-to-1024 nchw f32 lanczos3-aa|single-4096-to-1024 nhwc bf16 lanczos3-aa"
cases+="|unet-dec-c64-128 nchw f32 bilinear|deeplab-logits-up8 nchw f32 bilinear|timm-256-to-288 nhwc bf16 bicubic"
cases+="|sd-input-768-to-512 nchw bf16 lanczos3-aa|frames-4k-down4 nchw f32 bilinear-aa"
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed
NCU=$(which ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
for p in $PARTS; do case $p in
    old) RESAMPLE=.gpu/old/resample part 75 old "$cases" block-full-rows ;;
    new) part 75 new "$cases" block-full-rows ;;
    # The fourth build (`.gpu/b4`: the new one with `Tuning::block_unguarded`): warps inside
    # the box unguarded (the default) against guards everywhere.
    guards) RESAMPLE=.gpu/b4/resample part 75 guards "$cases" block-guarded ;;
    tests) mkdir -p "$OUT/tests"
        timeout 90 .gpu/bin/numerics > "$OUT/tests/numerics.log" 2>&1
        echo "numerics (all) rc=$?" > "$OUT/tests/versus.log"
        grep "test result" "$OUT/tests/numerics.log" >> "$OUT/tests/versus.log" ;;
    ncu6) mkdir -p "$OUT/ncu6"
        for build in old bin; do for flag in '' --block-full-rows; do
            name="$build${flag:+-full}"
            timeout 100 $NCU --clock-control none -k regex:gather --launch-skip 2 --launch-count 1 --metrics $M --csv \
                .gpu/$build/resample --workloads bench/workloads.json --only "original-up2 nchw f32 lanczos3" $flag \
                > "$OUT/ncu6/$name.csv" 2> "$OUT/ncu6/$name.err"
            echo "ncu $name rc=$?" >> "$OUT/ncu6/versus.log"
        done; done ;;
esac; done
for d in $PARTS; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log"; done > "$OUT/ab_stop29.log"
cat "$OUT/gpu.txt" "$OUT/ab_stop29.log"
