#!/usr/bin/env bash
# The v19 A/Bs in one device call (docs/PERFORMANCE.md v19), on the GPU machine after
# `cargo xtask gpu-bundle`: each opt-in candidate beside the default rules, interleaved, on the
# cases it can change; ratios in $OUT/<candidate>/versus.csv and versus.md.
#   bash bench/ab_v19.sh
set -uo pipefail
OUT=${OUT:-gpu-out}
status=0
versus() {
    local name=$1 only=$2 override=$3
    mkdir -p "$OUT/$name"
    echo "== $name: $override on cases matching '$only'"
    OUT="$OUT/$name" ONLY="$only" bash bench/gpu_run.sh versus "$override" || status=1
}
# Weight-one column runs in vectors: the adjoints of integer nearest upsampling.
versus runs nearest strategy=runs
# The depth x height product for weighted filters: every volume of the suite.
versus product 'volume-|ct-256|mri-|video-' volume-product=on
# Channels-last pooling in row splits: global pooling and the area downsamples.
versus pool 'global-pool|area' pool-splits=16
exit $status
