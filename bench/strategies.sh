#!/usr/bin/env bash
# Times the cases whose names contain ONLY with the default rules and with each forced
# strategy, twice each, interleaved, in one machine session, and prints one line per case:
# the faster of the two runs of each (ms, forward then backward). The sweeps behind the rules'
# clauses (docs/PERFORMANCE.md) come from it.
#   bash bench/strategies.sh ONLY [STRATEGY ...]     (default: cells one-pass planes)
# A STRATEGY of the form flag=value runs the default rules with the bench's `--flag value`
# instead (e.g. channel-strip=4). Run on the GPU machine after `cargo xtask gpu-bundle` (carry
# `.gpu`); logs under $OUT. RESAMPLE (the bench binary) and WORKLOADS (the suite file) may be
# set, e.g. for a trial run elsewhere or a subset of the suite.
set -uo pipefail
OUT=${OUT:-gpu-out}
RESAMPLE=${RESAMPLE:-.gpu/bin/resample}
WORKLOADS=${WORKLOADS:-bench/workloads.json}
ONLY=${1:?"usage: bench/strategies.sh ONLY [STRATEGY ...]"}
shift
STRATEGIES=${*:-cells one-pass planes}
mkdir -p "$OUT"
[ -f .gpu/bin.tar.xz ] && [ ! -d .gpu/bin ] && tar -C .gpu -xJf .gpu/bin.tar.xz
for rep in 1 2; do
    for strategy in default $STRATEGIES; do
        name="$strategy-$rep"
        mkdir -p "$OUT/$name"
        args=()
        case "$strategy" in
            default) ;;
            *=*) args=(--"${strategy%%=*}" "${strategy#*=}") ;;
            *) args=(--strategy "$strategy") ;;
        esac
        timeout 250 "$RESAMPLE" --workloads "$WORKLOADS" --only "$ONLY" --out "$OUT/$name" "${args[@]}" \
            > "$OUT/$name/stdout.txt" 2> "$OUT/$name/stderr.txt" || echo "$name: rc=$? (see $OUT/$name/stderr.txt)"
    done
done
python3 - "$OUT" default $STRATEGIES <<'EOF'
import csv, os, sys
out, strategies = sys.argv[1], sys.argv[2:]
def load(name):
    path = f"{out}/{name}/bench.csv"
    return {r["case"]: r for r in csv.DictReader(open(path))} if os.path.exists(path) else {}
runs = {(s, rep): load(f"{s}-{rep}") for s in strategies for rep in (1, 2)}
cases = list(runs[("default", 1)])
def best(strategy, case, kind):
    times = [float(runs[(strategy, rep)][case][f"interp_{kind}_ms"]) for rep in (1, 2) if case in runs[(strategy, rep)]]
    return min(times) if times else float("nan")
header = " ".join(f"{s:>9s}" for s in strategies)
print(f"{'case':55s} fwd: {header} | bwd: {header}")
for case in cases:
    cols = {kind: " ".join(f"{best(s, case, kind):9.4f}" for s in strategies) for kind in ("fwd", "bwd")}
    print(f"{case:55s}      {cols['fwd']} |      {cols['bwd']}")
EOF
