"""Loads every PTX file that `cargo xtask kernels` wrote (target/kernel-sources/cu) with the CUDA
driver, whose JIT assembles it as at run time, and compares the driver's registers, local
(spill/stack) bytes and static shared bytes with the offline ptxas report (resources.csv).

Usage (on a GPU machine): python3 bench/ptx_resources.py DIR_WITH_PTX_AND_resources.csv"""
import csv
import ctypes
import pathlib
import sys

NUM_REGS, SHARED_SIZE_BYTES, LOCAL_SIZE_BYTES = 4, 1, 3  # CUfunction_attribute values

cuda = ctypes.CDLL("libcuda.so.1")


def ok(code, what):
    if code != 0:
        raise RuntimeError(f"{what} failed with CUresult {code}")


ok(cuda.cuInit(0), "cuInit")
device = ctypes.c_int()
ok(cuda.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
context = ctypes.c_void_p()
ok(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device), "cuDevicePrimaryCtxRetain")
ok(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")
version = ctypes.c_int()
ok(cuda.cuDriverGetVersion(ctypes.byref(version)), "cuDriverGetVersion")

folder = pathlib.Path(sys.argv[1])
offline = {row["kernel"]: row for row in csv.DictReader(open(folder / "resources.csv"))}
same_regs = same_local = spills = 0
rows = []
for name, row in sorted(offline.items()):
    ptx = (folder / f"{name}.ptx").read_bytes() + b"\0"
    entry = next(line.split()[-1].rstrip("(") for line in ptx.decode().splitlines() if ".entry" in line)
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    ok(cuda.cuModuleLoadData(ctypes.byref(module), ptx), f"cuModuleLoadData {name}")
    ok(cuda.cuModuleGetFunction(ctypes.byref(function), module, entry.encode()), f"cuModuleGetFunction {name}")
    value = {}
    for key, attribute in (("regs", NUM_REGS), ("local", LOCAL_SIZE_BYTES), ("shared", SHARED_SIZE_BYTES)):
        out = ctypes.c_int()
        ok(cuda.cuFuncGetAttribute(ctypes.byref(out), attribute, function), "cuFuncGetAttribute")
        value[key] = out.value
    cuda.cuModuleUnload(module)
    same_regs += value["regs"] == int(row["registers"])
    same_local += value["local"] == int(row["stack_bytes"])
    spills += int(row["spill_stores"]) > 0
    rows.append(f"{name},{row['registers']},{value['regs']},{row['stack_bytes']},{value['local']},{row['shared_bytes']},{value['shared']}")

print(f"driver {version.value // 1000}.{version.value % 1000 // 10}: {len(rows)} PTX files loaded; "
      f"registers equal to offline ptxas in {same_regs}, local memory equal to its stack frame in {same_local}; "
      f"kernels ptxas saw spill: {spills}")
print("kernel,ptxas_regs,driver_regs,ptxas_stack_bytes,driver_local_bytes,ptxas_smem,driver_static_smem")
print("\n".join(rows))
