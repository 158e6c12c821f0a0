#!/usr/bin/env bash
# Times every bench case with one pass, two passes, and the automatic choice, side by side
# (ms, forward and backward): the data behind TWO_PASS_MIN_TAP_PAIRS. Run on the GPU machine.
set -uo pipefail
for m in never always auto; do
    INTERP_TWO_PASS=$m .gpu/bin/resample ${BENCH_QUICK:+--quick} 2>&1 >/dev/null | grep -E "^8x" | awk '{print $1"_"$2"_"$3"_"$4, $6, $12}' | sort > /tmp/strategy-$m.txt
done
echo "case fwd(one,two,auto) bwd(one,two,auto)"
join /tmp/strategy-never.txt /tmp/strategy-always.txt | join - /tmp/strategy-auto.txt | awk '{printf "%-52s %7s %7s %7s | %7s %7s %7s\n", $1, $2, $4, $6, $3, $5, $7}'
