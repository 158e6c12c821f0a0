#!/usr/bin/env bash
# Hardware counters (Nsight Compute) for one launch of the gather kernels of a few cases: time,
# DRAM and issue-slot utilisation, occupancy, registers, load/store sectors per request and the
# main stall reasons (docs/PERFORMANCE.md v16). Runs on the GPU machine after `cargo xtask
# gpu-bundle`; writes $OUT/ncu.tar. Each line below: launches to skip, launches to profile, case;
# NCU_CASES (lines of the same form) replaces them; NCU_KERNELS (a regex, default `gather`) picks
# the kernels counted (`.` for every launch, the L2 flush included); NCU_FLAGS, bench flags added
# to every case's run (e.g. `--no-plane-loops`).
set -uo pipefail
[ -f .gpu/bin.tar.xz ] && [ ! -d .gpu/bin ] && tar -C .gpu -xJf .gpu/bin.tar.xz
R=.gpu/bin/resample
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size,smsp__inst_executed.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
which ncu || ls /opt/nvidia/nsight-compute/*/ncu
NCU=$(which ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
DEFAULT_CASES=$(cat <<'CASES'
2 1 original-up2 nchw f16 bilinear
2 1 original-up2 nchw f32 bilinear
2 1 original-up2 nchw f16 bicubic
2 1 original-up2 nhwc bf16 bicubic
2 1 original-up2 nhwc f32 bicubic
4 2 frames-1080p-to-224 nhwc bf16 bicubic-aa
4 2 frames-1080p-down2 nchw bf16 bicubic-aa
2 1 sr-720p-up4 nhwc bf16 bicubic
2 1 volume-64-to-128 nchw bf16 bicubic
2 1 imagenet-eval-256 nchw bf16 bicubic
2 1 deeplab-logits-up8 nhwc bf16 bilinear
4 2 original-down2 nchw f16 lanczos3
26 1 original-up2 nchw f16 bilinear
26 1 original-up2 nchw f16 bicubic
26 1 imagenet-eval-256 nchw bf16 bilinear
2 1 original-down2 nchw f16 bilinear
26 1 original-down2 nchw f16 bilinear
2 1 vae-dec-c512-128 nchw bf16 nearest
CASES
)
i=0
while read -r skip count case; do
  [ -z "$case" ] && continue
  i=$((i+1))
  timeout 100 $NCU --clock-control none -k regex:${NCU_KERNELS:-gather} --launch-skip $skip --launch-count $count --metrics $M --csv \
    $R --workloads bench/workloads.json --only "$case" ${NCU_FLAGS:-} > $OUT/ncu_$i.csv 2> $OUT/ncu_$i.err
  echo "$i rc=$? $case"
done <<< "${NCU_CASES:-$DEFAULT_CASES}"
cd $OUT && tar -cf ncu.tar ncu_* && rm -f ncu_*
