#!/usr/bin/env bash
# Times every bench case with each gather strategy and the automatic choice, side by side
# (ms; forward, then backward): the data behind `strategy()` in interp-runtime/src/launch.rs.
# `tiled` applies to scalar layouts only (NHWC with channel vectors runs one pass there).
# Run on the GPU machine after `cargo xtask gpu-bundle`.
set -uo pipefail
names="one-pass two-pass tiled auto"
for m in $names; do
    strategy=$([ "$m" = auto ] || echo "--strategy $m")
    .gpu/bin/resample ${BENCH_QUICK:+--quick} $strategy 2>&1 >/dev/null | grep -E "^8x" \
        | awk '{print $1"_"$2"_"$3"_"$4, $6, $12}' | sort > /tmp/strategy-$m.txt
done
echo "case  fwd: one two tiled auto | bwd: one two tiled auto"
join /tmp/strategy-one-pass.txt /tmp/strategy-two-pass.txt | join - /tmp/strategy-tiled.txt | join - /tmp/strategy-auto.txt \
    | awk '{printf "%-50s %6s %6s %6s %6s | %6s %6s %6s %6s\n", $1, $2, $4, $6, $8, $3, $5, $7, $9}'
