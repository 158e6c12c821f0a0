#!/usr/bin/env bash
# Stop 36's runs on the GPU machine. Parts (PARTS=...):
#   tests:   the CUDA tests named in TESTS (default: the blocks kernel's, scalar and in channel
#            vectors: v27's final rule had not run on a GPU);
#   small:   every case of the suite under 64 MB (docs/bench.csv's bytes) whose layout the planes
#            kernel serves (NCHW, and channels-last pixels of at most 16 bytes) under the default
#            against SMALL_OVERRIDE (default `planes=4`: four channels per planes or blocks unit
#            where the default gives fewer), SMALL_ONLY replaces the cases;
#   least:   every case of the suite whose smaller side (input or output) holds under 16M
#            elements in a layout the planes kernel serves (where the channels per planes or
#            blocks unit can fall below four) under the default against `least-planes=1`
#            (v27's channels per unit: v28's floor of four undone);
#   volume:  the volumes' linear cases under the default against `volume-product=on` (one
#            gather of the depth x height product in every layout and dtype);
#   chblocks: CHB_ONLY (default: lanczos3 2x up in half precision, the 6x6 blocks in 4 lanes as
#            built) under the default against `channel-gather` (v26's routes);
#   odd:     channels-last segmentation logits whose classes make no vectors (21, 19, 171: pixels
#            wider than 16 bytes) under the default (v29: blocks in channel order where they
#            grow) against `channel-gather` (v28's routes), ODD_ONLY replaces the cases;
#   suite:   `bench/gpu_run.sh bench` into $OUT/suite.
# *_SECONDS: a part's time limit.
set -uo pipefail
source "$(dirname "$0")/ab_common.sh"
PARTS=${PARTS:-tests small volume chblocks}
# The suite's case keys (docs/bench.csv) in layouts the planes kernel serves (NCHW, and
# channels-last pixels of at most 16 bytes) where $1 holds: `small` (under 64 MB, plus the
# two 1-D nearest cases behind PyTorch) or `floor` (the smaller side under 16M elements).
planes_cases() {
    python3 - "$1" <<'PY'
import csv, json, math, sys
shapes = {w["name"]: w for w in json.load(open("bench/workloads.json"))["workloads"]}
keys = []
for r in csv.DictReader(open("docs/bench.csv")):
    w = shapes[r["case"].split()[0]]
    element = {"f32": 4, "f16": 2, "bf16": 2}[r["dtype"]]
    if r["layout"] != "nchw" and w["input"][1] * element > 16:
        continue
    if sys.argv[1] == "small":
        take = int(r["bytes"]) < 64 << 20
    else:
        take = min(math.prod(w["input"]), math.prod(w["input"][:2]) * math.prod(w["size"])) < 16 << 20
    if take:
        keys.append(r["case"])
if sys.argv[1] == "small":
    keys += ["sequence-up4-c256 nchw f32 nearest", "signal-linear-up2 nhwc f32 nearest"]
print("|".join(keys))
PY
}
VOLUMES="volume-64-to-128 nchw f32 bilinear|volume-64-to-128 nchw f16 bilinear|volume-64-to-128 nchw bf16 bilinear"
VOLUMES+="|volume-64-to-128 nhwc f32 bilinear|video-unet-up-c64 nchw|video-unet-up-c64 nhwc f32 bilinear"
VOLUMES+="|ct-256-to-128-aa nchw f32 bilinear|ct-256-to-128-aa nchw bf16 bilinear|video-clip-to-112"
DONE=""
for p in $PARTS; do case $p in
    tests) tests_part ${TESTS_SECONDS:-200} ${TESTS:-channel_blocks blocks_share_windows odd_width_blocks blocks_by_default cells_give}; DONE+=" tests" ;;
    small) part ${SMALL_SECONDS:-240} small "${SMALL_ONLY:-$(planes_cases small)}" "${SMALL_OVERRIDE:-planes=4}"; DONE+=" small" ;;
    least) part ${LEAST_SECONDS:-300} least "${LEAST_ONLY:-$(planes_cases floor)}" least-planes=1; DONE+=" least" ;;
    odd) part ${ODD_SECONDS:-120} odd "${ODD_ONLY:-deeplab-logits-up8 nhwc|cityscapes-logits-up4 nhwc|coco-stuff-logits-up4 nhwc}" channel-gather; DONE+=" odd" ;;
    volume) part ${VOLUME_SECONDS:-120} volume "${VOLUME_ONLY:-$VOLUMES}" volume-product=on; DONE+=" volume" ;;
    chblocks) part ${CHB_SECONDS:-60} chblocks "${CHB_ONLY:-original-up2 nhwc f16 lanczos3|original-up2 nhwc bf16 lanczos3}" channel-gather; DONE+=" chblocks" ;;
    suite) mkdir -p "$OUT/suite"
        OUT="$OUT/suite" timeout ${SUITE_SECONDS:-560} bash bench/gpu_run.sh bench > "$OUT/suite/versus.log" 2>&1; DONE+=" suite" ;;
esac; done
for d in $DONE; do echo "## $d"; grep -v XDG_RUNTIME "$OUT/$d/versus.log" | tail -200; done > "$OUT/ab_stop36.log"
cat "$OUT/gpu.txt" "$OUT/ab_stop36.log"
