"""Per-workload summary of the bench CSV (docs/BENCHMARKS.md's table): for each workload of
bench/workloads.json, its cases, the geometric-mean and worst speed-up over PyTorch forward and
backward (PyTorch time / interp time; cases without a PyTorch kernel left out), and interp's
mean share of the copy roofline. Usage: python3 summarize.py bench.csv [--compare OLD.csv]
"""
import csv
import math
import sys


def geo(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def load(path):
    rows = list(csv.DictReader(open(path)))
    groups = {}
    for r in rows:
        groups.setdefault(r["case"].split(" ")[0], []).append(r)
    return rows, groups


def ratios(rows, kind):
    return [float(r[f"torch_{kind}_ms"]) / float(r[f"interp_{kind}_ms"]) for r in rows if r[f"torch_{kind}_ms"]]


def main():
    rows, groups = load(sys.argv[1])
    old = load(sys.argv[sys.argv.index("--compare") + 1])[0] if "--compare" in sys.argv else None
    fmt = lambda v: "-" if v is None else f"{v:.2f}x"
    print("| workload | cases | forward (geo-mean) | forward (worst) | backward (geo-mean) | backward (worst) | % of copy fwd / bwd |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, rs in groups.items():
        f, b = ratios(rs, "fwd"), ratios(rs, "bwd")
        share = lambda kind: sum(100 * float(r["copy_ms"]) / float(r[f"interp_{kind}_ms"]) for r in rs) / len(rs)
        print(f"| {name} | {len(rs)} | {fmt(geo(f))} | {fmt(min(f) if f else None)} | {fmt(geo(b))} | {fmt(min(b) if b else None)} "
              f"| {share('fwd'):.0f}% / {share('bwd'):.0f}% |")
    f, b = ratios(rows, "fwd"), ratios(rows, "bwd")
    print(f"\nAll: forward {fmt(geo(f))} over {len(f)} cases ({sum(r < 1 for r in f)} behind PyTorch), "
          f"backward {fmt(geo(b))} over {len(b)} ({sum(r < 1 for r in b)} behind).")
    if old:
        before = {r["case"]: r for r in old}
        for kind in ("fwd", "bwd"):
            changes = [float(before[r["case"]][f"interp_{kind}_ms"]) / float(r[f"interp_{kind}_ms"]) for r in rows if r["case"] in before]
            print(f"interp {kind} vs {sys.argv[sys.argv.index('--compare') + 1]}: geo-mean {geo(changes):.3f}x faster over {len(changes)} cases, "
                  f"best {max(changes):.2f}x, worst {min(changes):.2f}x")


if __name__ == "__main__":
    main()
