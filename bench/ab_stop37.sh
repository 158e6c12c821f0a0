#!/usr/bin/env bash
# Stop 37's runs on the GPU machine. Parts (PARTS=...):
#   poolncu:  Nsight Compute counters of global pooling (32x256x64^2 -> 1x1, area) for interp's
#             gather and for PyTorch's kernel, NCHW and channels-last, f32 and bf16;
#   minteam:  global pooling under the default against `min-team=256` (one team per cube);
#   (`shuffle` and `share` need the bundle of c9a424a: v30's flags, reverted after the run,
#   docs/PERFORMANCE.md v30)
#   shuffle:  the pooling cases (global, 8x, 16x, adaptive) under the default (v30: the teams'
#             trees shuffle within warps) against `shared-sums` (v29's shared-memory trees);
#   share:    the pooling cases under the default against `team-share=32` (32 vector loads a
#             unit: f32 global pooling in teams of 32 reading 16 bytes, not 256 reading 8);
#   pool:     the pooling cases under the default against POOL_OVERRIDE;
#   onedim:   the 1-D nearest cases behind PyTorch in backward (and their neighbours) under the
#             default against channel strips of 2 and 4, forced cells and forced planes;
#   sweep:    the suite's cases under 30% of the copy in either direction (SWEEP_ONLY, default
#             from docs/bench.csv: those above 64 MB) under the default against each of
#             SWEEP_OVERRIDES (forced strategies and rule flags), SWEEP_SECONDS each;
#   blocksall: every suite case under the default against forced blocks (where blocks do not
#             apply the call falls back to the default: 1.0x), the A/B a relaxed blocks rule
#             needs (docs/PERFORMANCE.md v30, the sweep's ImageNet adjoints);
#   tests:    the CUDA tests named in TESTS;
#   suite:    `bench/gpu_run.sh bench` into $OUT/suite.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
PARTS=${PARTS:-tests shuffle share}
TESTS=${TESTS:-teams_ pool_ strategies_agree}
POOLS="size1-global-pool|area-down8|area-down16|adaptive-pool-28-to-7"
for p in $PARTS; do case $p in
poolncu)
    NCU_CASES='2 1 size1-global-pool nchw f32 area
2 1 size1-global-pool nchw bf16 area
2 1 size1-global-pool nhwc f32 area
2 1 size1-global-pool nhwc bf16 area' bash bench/ncu_counters.sh > "$OUT/poolncu.log" 2>&1
    NCU=$(which ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
    M=$(grep -o '^M=.*' bench/ncu_counters.sh | cut -c3-)
    for cfg in "nchw float32" "nchw bfloat16" "nhwc float32" "nhwc bfloat16"; do
        set -- $cfg
        timeout 100 $NCU --clock-control none --launch-skip 3 --launch-count 2 --metrics "$M" --csv python3 -c "
import torch, torch.nn.functional as F
x = torch.rand(32, 256, 64, 64, device='cuda', dtype=torch.$2)
if '$1' == 'nhwc': x = x.contiguous(memory_format=torch.channels_last)
for _ in range(6): y = F.interpolate(x, size=(1, 1), mode='area')
torch.cuda.synchronize()
" > "$OUT/torch_ncu_$1_$2.csv" 2> "$OUT/torch_ncu_$1_$2.err"
    done ;;
minteam) part 120 minteam "size1-global-pool" min-team=256 ;;
shuffle) part 240 shuffle "$POOLS" shared-sums ;;
share) part 240 share "$POOLS" team-share=32 ;;
onedim)
    ONEDIM="signal-linear-up2 nhwc f32 nearest|signal-linear-up2 nhwc bf16 nearest|sequence-up4-c256 nhwc f32 nearest|sequence-up4-c256 nchw f32 nearest"
    part 90 onedim-strip2 "$ONEDIM" channel-strip=2
    part 90 onedim-strip4 "$ONEDIM" channel-strip=4
    part 90 onedim-cells "$ONEDIM" strategy=cells
    part 90 onedim-planes "$ONEDIM" strategy=planes ;;
pool) part 200 pool "$POOLS" "${POOL_OVERRIDE:?}" ;;
sweep)
    SWEEP_ONLY=${SWEEP_ONLY:-$(python3 - <<'PY'
import csv
keys = []
for r in csv.DictReader(open("docs/bench.csv")):
    copy = float(r["copy_ms"])
    low = min(copy / float(r["interp_fwd_ms"]), copy / float(r["interp_bwd_ms"])) < 0.3
    if int(r["bytes"]) >= 64e6 and low:
        keys.append(r["case"])
print("|".join(keys))
PY
)}
    for o in ${SWEEP_OVERRIDES:-strategy=two-pass strategy=tiled strategy=blocks strategy=one-pass strategy=planes strategy=cells passes-when-shrinking tiles-when-shrinking channel-blocks volume-product=on}; do
        part ${SWEEP_SECONDS:-55} "sweep-${o//=/-}" "$SWEEP_ONLY" "$o"
    done ;;
blocksall) part ${BLOCKS_SECONDS:-400} blocksall "" strategy=blocks ;;
tests) tests_part 400 $TESTS ;;
suite) OUT="$OUT/suite" bash bench/gpu_run.sh bench ;;
esac; done
