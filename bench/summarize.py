"""Target verdicts from the bench CSV (backward): GB/s >= 3000, never slower than PyTorch,
bilinear >= 2x, bicubic and antialias >= 10x. Usage: python3 summarize.py bench.csv"""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))


def gbps(r, key):
    return int(r["bytes"]) / (float(r[key]) * 1e-3) / 1e9


n = len(rows)
fast = [r for r in rows if gbps(r, "interp_bwd_ms") >= 3000]
with_torch = [r for r in rows if r["torch_bwd_ms"]]
slower = [r for r in with_torch if float(r["torch_bwd_ms"]) < float(r["interp_bwd_ms"])]
fwd_slower = [r for r in with_torch if r["torch_fwd_ms"] and float(r["torch_fwd_ms"]) < float(r["interp_fwd_ms"])]


def speedup(r):
    return float(r["torch_bwd_ms"]) / float(r["interp_bwd_ms"])


def target(mode):
    return 2.0 if mode == "bilinear" else 10.0 if mode in ("bicubic", "bilinear-aa", "bicubic-aa") else 1.0


missed_ratio = [r for r in with_torch if speedup(r) < target(r["mode"])]
best = max(gbps(r, "interp_bwd_ms") for r in rows)
print(f"- backward cases: {n}; at >= 3 TB/s: {len(fast)}; best {best:.0f} GB/s")
print(f"- backward slower than PyTorch: {len(slower)} of {len(with_torch)} cases with a PyTorch kernel")
for r in slower:
    print(f"  - {r['case']}: interp {float(r['interp_bwd_ms']):.3f} ms, PyTorch {float(r['torch_bwd_ms']):.3f} ms")
print(f"- backward below its speed-up target (bilinear 2x, bicubic/aa 10x, others 1x): {len(missed_ratio)} of {len(with_torch)}")
print(f"- forward slower than PyTorch: {len(fwd_slower)} of {len(with_torch)}")
geo = 1.0
for r in with_torch:
    geo *= speedup(r)
print(f"- geometric-mean backward speed-up over PyTorch: {geo ** (1 / len(with_torch)):.2f}x")
