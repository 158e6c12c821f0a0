# Sourced by the A/B scripts (bench/ab_small.sh, bench/ab_stop28.sh) on the GPU machine: unpacks
# the bundle, records the card, and defines
#   part SECONDS NAME ONLY OVERRIDE  the cases matching ONLY under the default and OVERRIDE,
#                                    interleaved; per-case lines in $OUT/NAME/versus.log even
#                                    where the timeout cuts the part; the bench binary is
#                                    $RESAMPLE (default .gpu/bin/resample), the suite
#                                    $WORKLOADS (default bench/workloads.json);
#   tests_part SECONDS FILTERS...    the CUDA numerics tests matching FILTERS, a summary in
#                                    $OUT/tests/versus.log;
#   ncu_part NAME CASES FLAGS...     Nsight Compute counters of CASES (bench/ncu_counters.sh's
#                                    lines) under the default and under each of FLAGS, into
#                                    $OUT/NAME/ncu<flags>.tar (ncudefault.tar for the default);
#   pack_parts                       tars each directory under $OUT into $OUT/NAME.tar (the
#                                    device returns few files), called as each part ends;
#   keys LAYOUTS MODES NAME...       the case keys (`name layout dtype mode`) of these workloads
#                                    in LAYOUTS and MODES, every dtype, joined by `|` (a key the
#                                    suite does not hold matches nothing).
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
[ -f .gpu/bin.tar.xz ] && [ ! -d .gpu/bin ] && tar -C .gpu -xJf .gpu/bin.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
part() {
    local seconds=$1 name=$2 only=$3 override=$4
    mkdir -p "$OUT/$name"
    timeout "$seconds" "${RESAMPLE:-.gpu/bin/resample}" --workloads "${WORKLOADS:-bench/workloads.json}" --only "$only" --versus "$override" \
        --out "$OUT/$name" 2> "$OUT/$name/versus.log"
    echo "== $name rc=$?" >> "$OUT/$name/versus.log"
}
tests_part() {
    local seconds=$1; shift
    mkdir -p "$OUT/tests"
    timeout "$seconds" .gpu/bin/numerics "$@" --nocapture > "$OUT/tests/tests.log" 2>&1
    echo "tests rc=$?" > "$OUT/tests/versus.log"
    grep -E "test result|FAILED|panicked|cases," "$OUT/tests/tests.log" >> "$OUT/tests/versus.log"
}
ncu_part() {
    local name=$1 cases=$2 flags; shift 2
    mkdir -p "$OUT/$name"
    for flags in "" "$@"; do
        NCU_FLAGS=$flags NCU_CASES=$cases OUT="$OUT/$name" bash bench/ncu_counters.sh > "$OUT/$name/log${flags}" 2>&1
        mv "$OUT/$name/ncu.tar" "$OUT/$name/ncu${flags:-default}.tar"
    done
}
pack_parts() {
    local d
    for d in "$OUT"/*/; do
        [ -d "$d" ] && tar -C "$OUT" -cf "$OUT/$(basename "$d").tar" "$(basename "$d")" && rm -rf "$d"
    done
}
keys() {
    local layouts=$1 modes=$2 name layout dtype mode list=''; shift 2
    for name in "$@"; do for layout in $layouts; do for dtype in f32 f16 bf16; do for mode in $modes; do
        list+="${list:+|}$name $layout $dtype $mode"
    done; done; done; done
    echo "$list"
}
