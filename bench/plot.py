"""Plots backward GB/s per case for interp, PyTorch and the copy roofline from the bench CSV.

Usage: python3 plot.py bench.csv out.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    shapes = sorted({r["case"].split(" ")[0] for r in rows}, key=lambda s: [r["case"].split(" ")[0] for r in rows].index(s))
    fig, axes = plt.subplots(len(shapes), 1, figsize=(18, 5.5 * len(shapes)), squeeze=False)
    for ax, shape in zip(axes[:, 0], shapes):
        sel = [r for r in rows if r["case"].startswith(shape + " ")]
        labels = [" ".join(r["case"].split(" ")[1:]) for r in sel]
        gb = lambda r, ms: int(r["bytes"]) / (float(ms) * 1e-3) / 1e9 if ms else 0.0
        interp = [gb(r, r["interp_bwd_ms"]) for r in sel]
        torch = [gb(r, r["torch_bwd_ms"]) for r in sel]
        copy = [gb(r, r["copy_ms"]) for r in sel]
        x = range(len(sel))
        ax.bar([i - 0.2 for i in x], interp, 0.4, label="interp backward")
        ax.bar([i + 0.2 for i in x], torch, 0.4, label="PyTorch backward")
        ax.plot(list(x), copy, "k_", markersize=14, label="device copy (roofline)")
        ax.set_xticks(list(x))
        ax.set_xticklabels(labels, rotation=70, ha="right", fontsize=8)
        ax.set_ylabel("GB/s (grad_out read + grad_in written)")
        ax.set_title(f"backward {shape}")
        ax.legend(loc="upper right")
        ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=80)


if __name__ == "__main__":
    main()
