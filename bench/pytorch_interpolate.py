"""PyTorch's F.interpolate forward and backward for the workload suite of interp's `resample`
bench (bench/workloads.json, the same cases and keys: `name layout dtype mode`).

Writes one JSON line per case: key, forward_ms, backward_ms (median of triton.testing.do_bench,
which flushes L2 before every run), and whether the backward runs under
torch.use_deterministic_algorithms(True). A case PyTorch has no kernel for (lanczos, 3-D
bicubic, antialias outside 4-D) gets a line without times.
Usage: python3 pytorch_interpolate.py OUT.jsonl [--workloads FILE] [--only TEXT] [--quick]
"""
import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F
from triton.testing import do_bench

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
LINEAR = {3: "linear", 4: "bilinear", 5: "trilinear"}


def cases(suite):
    defaults = suite["defaults"]
    for w in suite["workloads"]:
        for layout in w.get("layouts", defaults["layouts"]):
            for dtype in w.get("dtypes", defaults["dtypes"]):
                for label in w["modes"]:
                    yield w, layout, dtype, label


def torch_call(rank, label, align):
    """(mode, kwargs) for PyTorch, or None where it has no such resize."""
    aa = label.endswith("-aa")
    mode = label[:-3] if aa else label
    if aa and rank != 4:
        return None
    if mode == "bilinear":
        return LINEAR[rank], {"align_corners": align, "antialias": aa}
    if mode == "bicubic" and rank == 4:
        return "bicubic", {"align_corners": align, "antialias": aa}
    if mode in ("nearest", "nearest-exact", "area") and not aa:
        return mode, {}
    return None


def channels_last(x):
    rank = x.dim()
    if rank == 4:
        return x.contiguous(memory_format=torch.channels_last)
    if rank == 5:
        return x.contiguous(memory_format=torch.channels_last_3d)
    return x.transpose(1, 2).contiguous().transpose(1, 2)  # (N, L, C) in memory


def deterministic_ok(run, x):
    torch.use_deterministic_algorithms(True)
    try:
        y = run(x)
        torch.autograd.grad(y, x, torch.ones_like(y))
        torch.cuda.synchronize()
        return True
    except RuntimeError:
        return False
    finally:
        torch.use_deterministic_algorithms(False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--workloads", default=os.path.join(os.path.dirname(__file__), "workloads.json"))
    parser.add_argument("--only", default="")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--after", help="resume: skip the cases up to and including this key, append")
    args = parser.parse_args()
    suite = json.load(open(args.workloads))
    torch.manual_seed(0)
    done = 0
    skipping = args.after is not None
    with open(args.out, "a" if skipping else "w") as out:
        for w, layout, dname, label in cases(suite):
            key = f"{w['name']} {layout} {dname} {label}"
            if skipping:
                skipping = key != args.after
                continue
            if args.only not in key or (args.quick and done >= 12):
                continue
            done += 1
            record = {"key": key}
            rank = len(w["input"])
            call = torch_call(rank, label, bool(w.get("align_corners", False)))
            try:
                measure(record, call, w, layout, dname)
            except Exception as e:  # noqa: BLE001 - a PyTorch failure is a result too
                record["error"] = str(e).splitlines()[0]
                print(json.dumps(record), flush=True)
                out.write(json.dumps(record) + "\n")
                out.close()
                # A CUDA error leaves the context unusable: go on in a fresh process.
                argv = [sys.executable, __file__, args.out, "--workloads", args.workloads, "--only", args.only, "--after", key]
                os.execv(sys.executable, argv + (["--quick"] if args.quick else []))
            print(json.dumps(record), flush=True)
            out.write(json.dumps(record) + "\n")


def measure(record, call, w, layout, dname):
    """PyTorch's times for one case into `record` (nothing when PyTorch has no such resize)."""
    if call is not None:
        mode, kwargs = call
        size = tuple(w["size"])
        run = lambda t: F.interpolate(t, size=size, mode=mode, **kwargs)
        x = torch.rand(w["input"], device="cuda", dtype=DTYPES[dname]).mul_(2).sub_(1)
        if layout == "nhwc":
            x = channels_last(x)
        x.requires_grad_(True)
        y = run(x)
        g = torch.rand_like(y).mul_(2).sub_(1)
        record["forward_ms"] = do_bench(lambda: run(x.detach()), warmup=25, rep=100, return_mode="median")
        record["backward_ms"] = do_bench(
            lambda: torch.autograd.grad(y, x, g, retain_graph=True), warmup=25, rep=100, return_mode="median"
        )
        record["deterministic"] = deterministic_ok(run, x)
        del x, y, g
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
