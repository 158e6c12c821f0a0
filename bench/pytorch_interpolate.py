"""PyTorch's F.interpolate forward and backward for the cases of interp's `resample` bench.

Writes one JSON line per case: key (same as the Rust bench), forward_ms, backward_ms (median of
triton.testing.do_bench), and whether the backward runs under
torch.use_deterministic_algorithms(True). Usage: python3 pytorch_interpolate.py OUT.jsonl [--quick]
"""
import json
import sys

import torch
import torch.nn.functional as F
from triton.testing import do_bench

SHAPES = [((8, 64, 256, 256), (512, 512)), ((8, 64, 512, 512), (256, 256)), ((8, 32, 1024, 1024), (256, 256))]
# interp mode -> (torch mode, antialias); lanczos has no CUDA kernel in PyTorch.
MODES = {
    "nearest": ("nearest", False),
    "bilinear": ("bilinear", False),
    "bicubic": ("bicubic", False),
    "lanczos3": None,
    "bilinear-aa": ("bilinear", True),
    "bicubic-aa": ("bicubic", True),
}
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def interpolate(x, size, mode, antialias):
    kwargs = {} if mode == "nearest" else {"align_corners": False}
    return F.interpolate(x, size=size, mode=mode, antialias=antialias, **kwargs)


def deterministic_ok(x, size, mode, antialias):
    torch.use_deterministic_algorithms(True)
    try:
        y = interpolate(x, size, mode, antialias)
        torch.autograd.grad(y, x, torch.ones_like(y))
        torch.cuda.synchronize()
        return True
    except RuntimeError:
        return False
    finally:
        torch.use_deterministic_algorithms(False)


def main():
    out_path = sys.argv[1]
    quick = "--quick" in sys.argv
    torch.manual_seed(0)
    with open(out_path, "w") as out:
        for (shape, size) in SHAPES[: 1 if quick else 3]:
            for layout in ("nchw", "nhwc"):
                for dname, dtype in DTYPES.items():
                    fmt = torch.channels_last if layout == "nhwc" else torch.contiguous_format
                    x = torch.rand(shape, device="cuda", dtype=dtype).mul_(2).sub_(1)
                    x = x.contiguous(memory_format=fmt).requires_grad_(True)
                    for name, spec in MODES.items():
                        n, c, h, w = shape
                        key = f"{n}x{c}x{h}x{w}->{size[0]}x{size[1]} {layout} {dname} {name}"
                        record = {"key": key}
                        if spec is not None:
                            mode, aa = spec
                            y = interpolate(x, size, mode, aa)
                            g = torch.rand_like(y).mul_(2).sub_(1)
                            record["forward_ms"] = do_bench(lambda: interpolate(x.detach(), size, mode, aa), warmup=25, rep=100, return_mode="median")
                            record["backward_ms"] = do_bench(
                                lambda: torch.autograd.grad(y, x, g, retain_graph=True), warmup=25, rep=100, return_mode="median"
                            )
                            record["deterministic"] = deterministic_ok(x, size, mode, aa)
                            del y, g
                        print(json.dumps(record), flush=True)
                        out.write(json.dumps(record) + "\n")
                    del x
                    torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
