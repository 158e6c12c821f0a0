"""Plots interp's speed-up over PyTorch per case of the workload suite (forward and backward,
log scale), and its share of the copy roofline, from the bench CSV.

Usage: python3 plot.py bench.csv out.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    fig, (speed, roof) = plt.subplots(2, 1, figsize=(20, 11))
    x = range(len(rows))
    for kind, marker in (("fwd", "o"), ("bwd", "^")):
        pts = [(i, float(r[f"torch_{kind}_ms"]) / float(r[f"interp_{kind}_ms"])) for i, r in enumerate(rows) if r[f"torch_{kind}_ms"]]
        speed.scatter([p[0] for p in pts], [p[1] for p in pts], marker=marker, s=14, label=f"{'forward' if kind == 'fwd' else 'backward'}: PyTorch time / interp time")
        share = [100 * float(r["copy_ms"]) / float(r[f"interp_{kind}_ms"]) for r in rows]
        roof.scatter(list(x), share, marker=marker, s=14, label=f"interp {'forward' if kind == 'fwd' else 'backward'}")
    speed.axhline(1.0, color="k", lw=1)
    speed.set_yscale("log")
    speed.set_ylabel("speed-up over PyTorch (log)")
    speed.set_title("interp vs PyTorch 2.11 on the workload suite (cases without a PyTorch kernel omitted)")
    roof.set_ylabel("% of a copy of the same bytes")
    roof.set_ylim(0, 110)
    names = [r["case"].split(" ")[0] for r in rows]
    ticks = [i for i in x if i == 0 or names[i] != names[i - 1]]
    for ax in (speed, roof):
        ax.set_xticks(ticks)
        ax.set_xticklabels([names[i] for i in ticks], rotation=80, ha="right", fontsize=7)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=80)


if __name__ == "__main__":
    main()
