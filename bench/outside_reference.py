#!/usr/bin/env python3
"""interp against outside references, on random geometries it was never tuned on.

Writes random cases (every mode PyTorch or Pillow has, sizes 1..300 with extreme ratios, size-1
axes, signals (N, C, L) and volumes (N, C, D, H, W) for PyTorch's linear/trilinear/nearest/area, odd channel counts, explicit sizes and scale factors, align_corners, antialias, NCHW and
NHWC, f32 and some f16/bf16), runs interp on them (`run_cases`, an example of interp-runtime),
and compares with:
  - PyTorch CPU in float64, forward and autograd backward (the exact rule interp follows;
    nearest through PyTorch's f32 index map, `nearest_reference`; where PyTorch CPU departs
    from the exact coordinates, `cpu_floorf_snap`, an exact float64 bilinear/bicubic written
    here, `exact_clamp_reference`),
  - Pillow's float ('F') resize for its antialiased filters (BILINEAR, BICUBIC, LANCZOS, BOX,
    HAMMING: double coefficients, as interp's renormalize rule),
  - PyTorch CUDA in the case's dtype, when a GPU is present (reported, never judged: its f32
    coordinates drift on long axes, and its nearest backward is not the forward's transpose).
Error = max |interp - ref| / max(1, max |ref|, the output's magnitude: see `error`). Exit
status 1 if any case is beyond the dtype's tolerance against a float64 reference, or interp
refused a call the reference accepts.

  python3 bench/outside_reference.py --run-cases target/release/examples/run_cases --cases 400
  (`--longest 6`: axes six times longer; `--strategy NAME`, `--volume-product on`, `--plane-loops on`, `--window-vectors on`:
  interp's tuning)
"""
import argparse, json, os, random, subprocess, sys, tempfile
import numpy as np

TOLERANCE = {"f32": 2e-6, "f16": 4e-3, "bf16": 3e-2}
TORCH_MODES = ["nearest", "nearest-exact", "area", "bilinear", "bicubic"]
PILLOW_FILTERS = {"bilinear": "BILINEAR", "bicubic": "BICUBIC", "lanczos3": "LANCZOS", "box": "BOX", "hamming": "HAMMING"}


def quantize(values, dtype):
    v = values.astype(np.float32)
    if dtype == "f16":
        return v.astype(np.float16).astype(np.float32)
    if dtype == "bf16":
        bits = v.view(np.uint32).astype(np.uint64)
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16  # round to nearest even
        return bits.astype(np.uint32).view(np.float32)
    return v


def axis_pair(rng, longest=300):
    kind = rng.random()
    small = max(2, longest // 8)
    if kind < 0.15:
        return 1, rng.randint(1, longest)        # from a size-1 axis
    if kind < 0.3:
        return rng.randint(1, longest), 1        # to a size-1 axis
    if kind < 0.45:
        n = rng.randint(1, small)
        return n, n * rng.choice([2, 3, 4, 8])   # integer upsampling
    if kind < 0.6:
        n = rng.randint(1, small)
        return n * rng.choice([2, 3, 4, 8]), n   # integer downsampling
    return rng.randint(1, longest), rng.randint(1, longest)


def random_case(rng, index, reference, channels=(1, 2, 3, 5, 7), longest=1.0):
    if reference == "pillow":
        mode = rng.choice(sorted(PILLOW_FILTERS))
        aa, align = True, False
    # PyTorch also resizes signals (N, C, L: linear) and volumes (N, C, D, H, W: trilinear),
    # without bicubic or antialias there.
    r = rng.random() if reference == "torch" else 1.0
    rank = 3 if r < 0.15 else 5 if r < 0.3 else 4
    if reference == "pillow":
        pass
    elif rank != 4:
        mode = rng.choice(["nearest", "nearest-exact", "area", "bilinear"])
        aa, align = False, mode == "bilinear" and rng.random() < 0.3
    else:
        mode = rng.choice(TORCH_MODES)
        aa = mode in ("bilinear", "bicubic") and rng.random() < 0.5
        align = mode in ("bilinear", "bicubic") and rng.random() < 0.3
    pairs = [axis_pair(rng, int({3: 3000, 4: 300, 5: 24}[rank] * longest)) for _ in range(rank - 2)]
    sizes_in, sizes_out = [p[0] for p in pairs], [p[1] for p in pairs]
    case = {"id": f"c{index}", "reference": reference, "mode": mode, "aa": int(aa), "align": int(align),
            "shape": [rng.randint(1, 2), rng.choice(channels)] + sizes_in,
            "dtype": rng.choice(["f32"] * 6 + ["f16", "bf16"]), "layout": rng.choice(["nchw", "nhwc"])}
    if reference == "torch" and rng.random() < 0.35:
        # A scale factor: out = floor(in * f), the kernels use 1/f (recompute_scale_factor=False).
        factors = []
        for n in sizes_in:
            f = rng.choice([0.5, 2.0, 3.0, 0.25, 1.5, 0.7, 1.37, 2.61, 0.31, round(rng.uniform(0.2, 4.0), 3)])
            while int(np.floor(n * f)) < 1:
                f *= 2
            factors.append(f)
        case["scale"] = factors
    else:
        case["size"] = sizes_out
    return case


def torch_forward(torch, F, x, case):
    # interp's `bilinear` is PyTorch's linear filter on every rank.
    mode = {3: "linear", 5: "trilinear"}.get(x.dim(), "bilinear") if case["mode"] == "bilinear" else case["mode"]
    kwargs = {"mode": mode}
    if case["mode"] in ("bilinear", "bicubic"):
        kwargs["align_corners"] = bool(case["align"])
        kwargs["antialias"] = bool(case["aa"])
    if "scale" in case:
        kwargs["scale_factor"] = tuple(case["scale"])
        kwargs["recompute_scale_factor"] = False
    else:
        kwargs["size"] = tuple(case["size"])
    return F.interpolate(x, **kwargs)


def cpu_aa_bug(case, x_shape, y_shape):
    """PyTorch CPU's antialias path returns wrong values (zeros, constants) when the output
    width is 1 and the height is resampled, e.g. (5, 1) -> (10, 1) bilinear gives all zeros;
    Pillow, and the same call transposed, agree with each other there."""
    return bool(case["aa"]) and len(y_shape) == 4 and y_shape[3] == 1 and y_shape[2] != x_shape[2]


def cpu_nearest_shortcut(case, x_shape, y_shape):
    """PyTorch CPU's `nearest_idx` copies (out == in) or halves (out == 2 in) the index before
    it looks at a scale factor, and its linear modes copy an axis whose output length equals
    its input length (`compute_source_index_and_lambda`); PyTorch CUDA applies the scale
    (`floor(o * (float)(1 / f))`, `area_pixel_compute_scale`), and so does interp. They differ
    when a scale factor gives such an output length (a factor in [1, 1 + 1/in), or 2 for nearest).
    Such cases are judged against PyTorch CUDA in float64: in float32 its linear coordinates
    carry an f32 rounding of `(o + 0.5) / f` (2.5e-5 at o = 300), beyond the f32 tolerance,
    while its float64 kernels compute them in double, as interp's host tables do."""
    if "scale" not in case or case["aa"]:
        return False
    sizes = list(zip(x_shape[2:], y_shape[2:], case["scale"]))
    if case["mode"] == "nearest":
        return any(o in (i, 2 * i) and f != o / i for i, o, f in sizes)
    return case["mode"] == "bilinear" and any(o == i and f != 1 for i, o, f in sizes)


def cpu_floorf_snap(case, x_shape, y_shape):
    """PyTorch CPU's linear and cubic kernels (`guard_index_and_lambda`) take `floorf` of the
    double source coordinate: a coordinate within half a float ulp below an integer `k` reads
    tap `k` with weight 1 instead of `k - 1` and `k` (4472 -> 13741 align_corners, output 11429:
    3718.99993 read as 3719; float64 tensors too). Only on long axes: below about 4096 the
    coordinates' distances to an integer exceed the half ulp. interp keeps the exact
    coordinate; such cases are judged against `exact_clamp_reference`."""
    if case["mode"] not in ("bilinear", "bicubic") or case["aa"]:
        return False
    scales = case.get("scale", [None] * (len(x_shape) - 2))
    for n_in, n_out, f in zip(x_shape[2:], y_shape[2:], scales):
        src = clamp_source(np.arange(n_out, dtype=np.float64), n_in, n_out, case["align"], f)
        if np.any(np.floor(src.astype(np.float32)) != np.floor(src)):
            return True
    return False


def clamp_source(o, n_in, n_out, align, f):
    """PyTorch's source coordinate of output `o` (a number or an array) in float64:
    `o (in - 1) / (out - 1)` with align_corners (0 for one output), else `(o + 0.5) s - 0.5`
    with `s = in / out`, or `1 / f` for a user scale factor."""
    if align:
        return o * (n_in - 1) / (n_out - 1) if n_out > 1 else o * 0.0
    return (o + 0.5) * (n_in / n_out if f is None else 1.0 / f) - 0.5


def clamp_axis_matrix(mode, n_in, n_out, align, f):
    """The (n_out, n_in) weights of PyTorch's bilinear or bicubic (A = -0.75) along one axis,
    taps clamped to the edge, from the source coordinate in float64 (no `floorf`): the exact
    geometry up to double rounding, written here independently of interp."""
    w = np.zeros((n_out, n_in))
    for o in range(n_out):
        src = clamp_source(float(o), n_in, n_out, align, f)
        if mode == "bilinear":
            src = max(src, 0.0)
            i0 = int(np.floor(src))
            lam = src - i0
            for i, wt in ((i0, 1.0 - lam), (i0 + 1, lam)):
                w[o, min(i, n_in - 1)] += wt
        else:
            i0 = int(np.floor(src))
            t = src - i0
            a = -0.75
            near = lambda x: ((a + 2) * x - (a + 3)) * x * x + 1
            far = lambda x: ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
            for k, wt in enumerate((far(t + 1), near(t), near(1 - t), far(2 - t))):
                w[o, min(max(i0 - 1 + k, 0), n_in - 1)] += wt
    return w


def exact_clamp_reference(x, g, case):
    """Forward and backward of a bilinear or bicubic case (no antialias) through
    `clamp_axis_matrix` on each spatial axis, in float64."""
    scales = case.get("scale", [None] * (x.ndim - 2))
    mats = [clamp_axis_matrix(case["mode"], n_in, n_out, case["align"], f)
            for n_in, n_out, f in zip(x.shape[2:], g.shape[2:], scales)]
    y, dx = x.astype(np.float64), g.astype(np.float64)
    for axis, m in enumerate(mats, start=2):
        y = np.moveaxis(np.tensordot(y, m, axes=([axis], [1])), -1, axis)
    for axis, m in enumerate(mats, start=2):
        dx = np.moveaxis(np.tensordot(dx, m, axes=([axis], [0])), -1, axis)
    return y, dx


def axis_index_map(torch, F, n_in, n_out, scale, mode):
    """The source index of each of `n_out` outputs along one axis of `n_in` (`scale`: the
    user's factor, or None for an explicit size), as PyTorch CPU's channels-last nearest kernels
    pick it: `nearest_idx` / `nearest_exact_idx` of UpSample.h, the formulas PyTorch CUDA uses
    (`floorf(o * s)`, `floorf((o + 0.5) * s)` with `s` in float). Its channels-first kernels
    (the TensorIterator path) compute nearest-exact as `floorf(max(s (o + 0.5) - 0.5, 0) +
    0.5)` instead, which differs where `(o + 0.5) s` lies within a rounding of an integer (2 ->
    219: output 109 reads input 1 there, 0 on CUDA and channels-last); interp follows CUDA
    (docs/ACCURACY.md). Four channels and three columns make the tensor unambiguously
    channels-last, so PyTorch takes that kernel."""
    index = torch.arange(n_in, dtype=torch.float32).reshape(1, 1, n_in, 1).repeat(1, 4, 1, 3)
    index = index.contiguous(memory_format=torch.channels_last)
    if scale is None:
        kwargs = {"size": (n_out, 3)}
    else:
        kwargs = {"scale_factor": (scale, 1.0), "recompute_scale_factor": False}
    picked = F.interpolate(index, mode=mode, **kwargs)[0, 0, :, 0]
    assert picked.numel() == n_out, (n_in, n_out, scale)
    return picked.numpy().astype(np.int64)


def nearest_reference(torch, F, x, g, case):
    """PyTorch's f32 nearest index map (per axis, `axis_index_map`; nearest is separable), then
    the forward as a gather and the backward as its transpose in f64."""
    spatial_in = x.shape[2:]
    spatial_out = g.shape[2:]
    scales = case.get("scale", [None] * len(spatial_in))
    maps = [axis_index_map(torch, F, n_in, n_out, s, case["mode"]) for n_in, n_out, s in zip(spatial_in, spatial_out, scales)]
    # Flat source index of every output element: batch and channel kept, each axis mapped.
    grids = np.ix_(np.arange(x.shape[0]), np.arange(x.shape[1]), *maps)
    picked = np.ravel_multi_index(grids, x.shape)
    y = x.astype(np.float64).reshape(-1)[picked]
    dx = np.zeros(x.size)
    np.add.at(dx, picked.reshape(-1), g.astype(np.float64).reshape(-1))
    return y, dx.reshape(x.shape)


def transposed(case):
    swapped = dict(case)
    for key in ("size", "scale"):
        if key in case:
            swapped[key] = case[key][::-1]
    return swapped


def torch_reference(torch, F, x, g, case, device, dtype):
    t = torch.tensor(x, dtype=dtype, device=device, requires_grad=True)
    if device == "cpu" and cpu_aa_bug(case, x.shape, g.shape):
        # The same resize with H and W swapped avoids PyTorch CPU's bug (see cpu_aa_bug).
        y = torch_forward(torch, F, t.transpose(2, 3), transposed(case)).transpose(2, 3)
    else:
        y = torch_forward(torch, F, t, case)
    y.backward(torch.tensor(g, dtype=dtype, device=device))
    return y.detach().double().cpu().numpy(), t.grad.double().cpu().numpy()


def pillow_forward(Image, x, case):
    oh, ow = case["size"]
    n, c = x.shape[:2]
    out = np.empty((n, c, oh, ow), dtype=np.float64)
    resample = getattr(Image.Resampling, PILLOW_FILTERS[case["mode"]])
    for a in range(n):
        for b in range(c):
            image = Image.fromarray(np.ascontiguousarray(x[a, b], dtype=np.float32))
            assert image.mode == "F", image.mode
            out[a, b] = np.asarray(image.resize((ow, oh), resample=resample), dtype=np.float64)
    return out


def error(actual, expected, magnitude=None):
    """max |actual - expected| / max(1, max |expected|), or with `magnitude` (the same call on
    |x| or |g|: each output's sum of its terms' sizes) per output over max(1, max |expected|,
    that output's magnitude): a sum whose terms cancel is held to the precision of its terms,
    which is what an f32 sum can keep (a 1x1 -> 271x66 bicubic backward summing 17886 values
    of up to 1 to -4.93: interp 2.2e-5 off, 4.5e-6 of the result and 2.5e-9 of its terms'
    8958; PyTorch CPU f32 7.6e-5 of the result)."""
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    if magnitude is not None:
        scale = np.maximum(scale, np.abs(magnitude))
    return float((np.abs(actual - expected) / scale).max(initial=0.0))


def label(case):
    resize = f"size={case['size']}" if "size" in case else f"scale={case['scale']}"
    return (f"{case['mode']}{'-aa' if case['aa'] else ''}{' align' if case['align'] else ''} "
            f"{case['shape']} {resize} {case['dtype']} {case['layout']}")


def markdown_table(results):
    """Worst errors per (reference, mode, dtype): interp's, and PyTorch CUDA's on the same cases."""
    groups = {}
    for r in results:
        if "forward" in r:
            groups.setdefault((r["reference"], r["mode"], r["dtype"]), []).append(r)
    worst = lambda rows, key: max((r[key] for r in rows if key in r), default=None)
    cuda_worst = lambda rows, key: max((r["torch_cuda_vs_f64"][key] for r in rows if "torch_cuda_vs_f64" in r), default=None)
    fmt = lambda v: "-" if v is None else f"{v:.2g}"
    lines = ["| reference | mode | dtype | cases | interp forward | interp backward | PyTorch CUDA forward | PyTorch CUDA backward |",
             "|---|---|---|---|---|---|---|---|"]
    for (ref, mode, dtype), rows in sorted(groups.items()):
        name = "PyTorch CPU f64" if ref == "torch" else "Pillow (F, double)"
        lines.append(f"| {name} | {mode} | {dtype} | {len(rows)} | {fmt(worst(rows, 'forward'))} | {fmt(worst(rows, 'backward'))} "
                     f"| {fmt(cuda_worst(rows, 'forward'))} | {fmt(cuda_worst(rows, 'backward'))} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run-cases", required=True, help="the run_cases executable (interp-runtime example)")
    parser.add_argument("--cases", type=int, default=300, help="cases per reference")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the per-case results here")
    parser.add_argument("--markdown", help="write the per-mode table (docs/ACCURACY.md's) here")
    parser.add_argument("--strategy", help="force this gather strategy in interp (run_cases --strategy)")
    parser.add_argument("--channel-strip", help="channel strips of N pixels in interp (run_cases --channel-strip)")
    parser.add_argument("--longest", type=float, default=1.0,
                        help="scale the longest random axis (1-D 3000, 2-D 300, 3-D 24) by this")
    parser.add_argument("--volume-product", choices=["on", "off"], help="depth x height product tables in interp (run_cases --volume-product)")
    parser.add_argument("--pool-splits", help="channels-last pooling in up to N row splits in interp (run_cases --pool-splits)")
    parser.add_argument("--plane-loops", choices=["on", "off"], help="plane loops in interp wherever they apply (run_cases --plane-loops)")
    parser.add_argument("--window-vectors", choices=["on", "off"], help="plane loops' windows in source vectors wherever they fit (run_cases --window-vectors)")
    parser.add_argument("--channels", default="1,2,3,5,7",
                        help="channel counts the cases draw from (e.g. 4,8,12 for channel vectors)")
    args = parser.parse_args()

    references = []
    try:
        import torch
        import torch.nn.functional as F
        references.append("torch")
    except ImportError:
        torch = F = None
        print("PyTorch not installed: PyTorch comparisons skipped")
    try:
        from PIL import Image
        references.append("pillow")
    except ImportError:
        Image = None
        print("Pillow not installed: Pillow comparisons skipped")
    if not references:
        sys.exit("no outside reference available")

    rng = random.Random(args.seed)
    channels = [int(c) for c in args.channels.split(",")]
    cases = [random_case(rng, len(references) * i + k, ref, channels, args.longest)
             for i in range(args.cases) for k, ref in enumerate(references)]
    work = tempfile.mkdtemp(prefix="interp-outside-")
    data, torch_refused = {}, []
    with open(os.path.join(work, "cases.txt"), "w") as manifest:
        for case in cases:
            n, c = case["shape"][:2]
            x = quantize(np.random.default_rng(rng.randrange(1 << 30)).uniform(-1, 1, tuple(case["shape"])), case["dtype"])
            if case["reference"] == "pillow":
                out_spatial = tuple(case["size"])
            else:
                try:
                    y = torch_forward(torch, F, torch.tensor(x, dtype=torch.float64), case)
                except (RuntimeError, ValueError, NotImplementedError) as e:
                    torch_refused.append(f"{label(case)}: {str(e).splitlines()[0]}")
                    continue
                out_spatial = tuple(y.shape[2:])
            g = quantize(np.random.default_rng(rng.randrange(1 << 30)).uniform(-1, 1, (n, c) + out_spatial), case["dtype"])
            x.astype("<f4").tofile(os.path.join(work, f"{case['id']}.x"))
            g.astype("<f4").tofile(os.path.join(work, f"{case['id']}.g"))
            data[case["id"]] = (x, g, (n, c) + out_spatial)
            resize = f"size={','.join(map(str, case['size']))}" if "size" in case else f"scale={','.join(map(repr, case['scale']))}"
            shape = ",".join(map(str, case["shape"]))
            manifest.write(f"id={case['id']} mode={case['mode']} aa={case['aa']} align={case['align']} shape={shape} "
                           f"{resize} dtype={case['dtype']} layout={case['layout']}\n")
    flags = (["--strategy", args.strategy] if args.strategy else []) + (["--channel-strip", args.channel_strip] if args.channel_strip else []) \
        + (["--volume-product", args.volume_product] if args.volume_product else []) \
        + (["--pool-splits", args.pool_splits] if args.pool_splits else []) \
        + (["--plane-loops", args.plane_loops] if args.plane_loops else []) \
        + (["--window-vectors", args.window_vectors] if args.window_vectors else [])
    subprocess.run([args.run_cases, work] + flags, check=True)

    cuda = torch is not None and torch.cuda.is_available()
    results, failures, skipped_dtype, cpu_bug_cases, shortcut_cases = [], [], set(), [], []
    worst = {}
    for reason in torch_refused:
        print("PyTorch refuses (case not compared):", reason)
    for case in cases:
        if case["id"] not in data:
            continue
        x, g, out_shape = data[case["id"]]
        base = os.path.join(work, case["id"])
        row = {"case": label(case), "reference": case["reference"], "dtype": case["dtype"],
               "mode": case["mode"] + ("-aa" if case["aa"] else "") + {3: " (N,C,L)", 5: " (N,C,D,H,W)"}.get(len(case["shape"]), "")}
        if os.path.exists(base + ".err"):
            row["refused"] = open(base + ".err").read()
            results.append(row)
            if "is not supported by this device" in row["refused"]:
                skipped_dtype.add(case["dtype"])  # e.g. bf16 on wgpu: a typed refusal, not a failure
                continue
            failures.append(f"{label(case)}: interp refused a call {case['reference']} accepts: {row['refused']}")
            continue
        y = np.fromfile(base + ".y", dtype="<f4").astype(np.float64)
        if y.size != int(np.prod(out_shape)):
            failures.append(f"{label(case)}: interp wrote {y.size} outputs, {case['reference']} gives shape {out_shape}")
            continue
        y = y.reshape(out_shape)
        dx = np.fromfile(base + ".dx", dtype="<f4").astype(np.float64).reshape(x.shape)
        tol = TOLERANCE[case["dtype"]]
        if case["reference"] == "torch":
            # PyTorch picks nearest indices with a scale in the tensor's compute type: float for
            # f32/f16/bf16 tensors (interp's rule for every dtype), double for f64 tensors. Those
            # modes are judged against PyTorch's f32 index map (`nearest_reference`: CUDA's
            # formula, from PyTorch CPU's channels-last kernel); the backward is the exact
            # transpose of that map, summed in f64.
            nearest = case["mode"].startswith("nearest")
            shortcut = cpu_nearest_shortcut(case, x.shape, g.shape)
            exact_geometry = cpu_floorf_snap(case, x.shape, g.shape) or (shortcut and not nearest and not cuda)
            if exact_geometry:
                # PyTorch CUDA's linear coordinates in float64 are the exact ones too.
                shortcut_cases.append(label(case) + " (judged against exact_clamp_reference)")
                reference = lambda a, b: exact_clamp_reference(a, b, case)
            elif shortcut:
                if not cuda:
                    shortcut_cases.append(label(case) + " (not judged: no GPU)")
                    continue
                shortcut_cases.append(label(case) + " (judged against PyTorch CUDA in float64)")
                reference = lambda a, b: torch_reference(torch, F, a, b, case, "cuda", torch.float64)
            elif nearest:
                reference = lambda a, b: nearest_reference(torch, F, a, b, case)
            else:
                reference = lambda a, b: torch_reference(torch, F, a, b, case, "cpu", torch.float64)
            ry, rdx = reference(x.astype(np.float64), g.astype(np.float64))
            # Each output's magnitude: the same call on the terms' sizes (see `error`).
            my, mdx = reference(np.abs(x).astype(np.float64), np.abs(g).astype(np.float64))
            if cpu_aa_bug(case, x.shape, g.shape):
                cpu_bug_cases.append(label(case))
            judged = {"forward": error(y, ry, my), "backward": error(dx, rdx, mdx)}
            if cuda:
                tdt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[case["dtype"]]
                try:
                    cy, cdx = torch_reference(torch, F, x, g, case, "cuda", tdt)
                    row["torch_cuda_vs_f64"] = {"forward": error(cy, ry), "backward": error(cdx, rdx)}
                except RuntimeError as e:  # a dtype or mode PyTorch CUDA lacks
                    row["torch_cuda_error"] = str(e).splitlines()[0]
        else:
            judged = {"forward": error(y, pillow_forward(Image, x, case))}
        row.update(judged)
        for kind, e in judged.items():
            key = (case["reference"], case["dtype"], kind)
            worst[key] = max(worst.get(key, (0.0, ""))[0], e), label(case) if e >= worst.get(key, (0.0, ""))[0] else worst[key][1]
            if not e <= tol:
                failures.append(f"{label(case)}: {kind} error {e:.3g} against {case['reference']} (tolerance {tol:g})")
        results.append(row)

    print(f"\n{len(cases)} cases ({', '.join(references)}), seed {args.seed}")
    print(f"{'reference':<8} {'dtype':<5} {'kind':<9} {'worst error':>11}  case")
    for (ref, dtype, kind), (e, where) in sorted(worst.items()):
        print(f"{ref:<8} {dtype:<5} {kind:<9} {e:>11.3g}  {where}")
    if cpu_bug_cases:
        print(f"{len(cpu_bug_cases)} antialias cases with output width 1 judged against PyTorch CPU transposed "
              f"(its direct result there is wrong; see cpu_aa_bug)")
    for case in shortcut_cases:
        print("PyTorch CPU's equal-length shortcut (interp follows CUDA, see cpu_nearest_shortcut) or floorf snap "
              "(interp keeps the exact coordinate, see cpu_floorf_snap):", case)
    for dtype in sorted(skipped_dtype):
        print(f"{dtype}: not supported by this device, its cases skipped")
    if cuda:
        cu = [r["torch_cuda_vs_f64"] for r in results if "torch_cuda_vs_f64" in r]
        print(f"PyTorch CUDA vs float64, same cases: worst forward {max(c['forward'] for c in cu):.3g}, "
              f"backward {max(c['backward'] for c in cu):.3g} (reported, not judged)")
    table = markdown_table(results)
    print("\n" + table)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(table + "\n")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)
    for failure in failures:
        print("FAIL", failure)
    print(f"outside references: {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
