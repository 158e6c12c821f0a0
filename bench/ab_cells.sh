#!/usr/bin/env bash
# The measurement the cells rule (v17, `cells_pay`) came from: the NCHW cases of the suite
# with the default rules and with `--strategy cells` (which runs the cells kernel wherever its
# shapes apply and the default rules elsewhere), interleaved, twice, in one machine session;
# then each case's ratio beyond the run-to-run noise. Rerun it after a change to the kernel
# or the rule: cases where the default already runs cells show no difference.
# Run on the GPU machine after `cargo xtask gpu-bundle` (carry `.gpu`); logs under $OUT.
# RESAMPLE (the bench binary) and ONLY (which cases) may be set for a trial run elsewhere.
set -uo pipefail
OUT=${OUT:-gpu-out}
RESAMPLE=${RESAMPLE:-.gpu/bin/resample}
ONLY=${ONLY:-nchw}
mkdir -p "$OUT"
[ -f .gpu/bin.tar.xz ] && [ ! -d .gpu/bin ] && tar -C .gpu -xJf .gpu/bin.tar.xz
run() {
    local name=$1
    shift
    mkdir -p "$OUT/$name"
    timeout 250 "$RESAMPLE" --workloads bench/workloads.json --only "$ONLY" --out "$OUT/$name" "$@" \
        > "$OUT/$name/stdout.txt" 2> "$OUT/$name/stderr.txt"
    echo "$name rc=$?"
}
run default1
run cells1 --strategy cells
run default2
run cells2 --strategy cells
python3 - "$OUT" <<'EOF'
import csv, math, sys
out = sys.argv[1]
load = lambda name: {r["case"]: r for r in csv.DictReader(open(f"{out}/{name}/bench.csv"))}
runs = {name: load(name) for name in ("default1", "cells1", "default2", "cells2")}
for kind in ("fwd", "bwd"):
    t = lambda name, case: float(runs[name][case][f"interp_{kind}_ms"])
    rows = []
    for case in runs["default1"]:
        default = min(t("default1", case), t("default2", case))
        cells = min(t("cells1", case), t("cells2", case))
        noise = abs(t("default1", case) - t("default2", case)) / default
        rows.append((default / cells, noise, case, default, cells))
    changed = [r for r in rows if abs(r[0] - 1) > max(0.03, 2 * r[1])]
    geo = math.exp(sum(math.log(r[0]) for r in rows) / len(rows))
    print(f"== {kind}: {len(rows)} cases, geo-mean {geo:.3f}x faster with cells; {len(changed)} beyond noise")
    for ratio, noise, case, default, cells in sorted(changed):
        print(f"{ratio:6.2f}x  {case:55s} default {default:.4f} ms  cells {cells:.4f} ms  (noise {noise:.1%})")
EOF
