//! Device work: build the two per-axis tables, pick vector width and unit order, launch the
//! gather. Called only with validated inputs.

use cubecl::prelude::*;
use cubecl::server::Handle;
use interp_kernels::gather::{
    separable_gather, separable_gather_along_width, separable_gather_strips, separable_gather_tiled, AxisTableLaunch, GatherLayoutLaunch,
    Sequence4Launch, STRIP_GROUP, TILE_H, TILE_W,
};
use interp_kernels::tables::{build_adjoint_table, build_forward_table};
use interp_kernels::taps::AxisGeometryLaunch;
use interp_kernels::Filter;

use crate::dtype::DType;
use crate::plan::AxisPlan;
use crate::tensor::Checked4;

/// Calls `$launch!(source type, destination type, accumulator type)` for the dtypes of `$io`.
macro_rules! dispatch_dtypes {
    ($io:expr, $launch:ident) => {{
        use half::{bf16, f16};
        match ($io.src_dtype, $io.dst_dtype) {
            (DType::F32, DType::F32) => $launch!(f32, f32, f32),
            (DType::F16, DType::F16) => $launch!(f16, f16, f32),
            (DType::BF16, DType::BF16) => $launch!(bf16, bf16, f32),
            (DType::F64, DType::F64) => $launch!(f64, f64, f64),
            (DType::F16, DType::F32) => $launch!(f16, f32, f32),
            (DType::F32, DType::F16) => $launch!(f32, f16, f32),
            (DType::BF16, DType::F32) => $launch!(bf16, f32, f32),
            (DType::F32, DType::BF16) => $launch!(f32, bf16, f32),
            (src, dst) => unreachable!("no gather from {src} to {dst}: intermediates are in the accumulator type"),
        }
    }};
}

const UNITS_PER_CUBE: u32 = 256;

/// Which way a table maps: forward reads inputs per output, adjoint reads outputs per input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Forward,
    Adjoint,
}

/// A table in device memory.
pub(crate) struct DeviceTable {
    index: Handle,
    weight: Handle,
    count: Handle,
    rows: usize,
    width: usize,
    /// About how many taps one destination index reads (see `AxisPlan::mean_taps`).
    mean_taps: f64,
}

impl DeviceTable {
    fn arg<R: Runtime>(&self) -> AxisTableLaunch<R> {
        let slots = self.rows * self.width;
        // SAFETY: the handles were allocated with exactly these lengths in `build_table`.
        unsafe {
            AxisTableLaunch::new(
                ArrayArg::from_raw_parts(self.index.clone(), slots),
                ArrayArg::from_raw_parts(self.weight.clone(), slots),
                ArrayArg::from_raw_parts(self.count.clone(), self.rows),
                self.width as u32,
            )
        }
    }
}

fn geometry_arg<R: Runtime>(axis: &AxisPlan) -> AxisGeometryLaunch<R> {
    AxisGeometryLaunch::new(
        axis.in_len as u32,
        axis.out_len as u32,
        axis.scale,
        axis.support,
        axis.filter_scale,
        axis.align_corners as u32,
        axis.taps as u32,
        axis.lo_offset,
        axis.hi_offset,
        axis.shift,
    )
}

/// Builds one axis's table with the filter's `#[cube]` weight.
pub(crate) fn build_table<R: Runtime, F: Filter>(client: &ComputeClient<R>, axis: &AxisPlan, direction: Direction) -> DeviceTable {
    let (rows, width) = match direction {
        Direction::Forward => (axis.out_len, axis.taps),
        Direction::Adjoint => (axis.in_len, axis.adjoint_width),
    };
    let slots = rows * width;
    let table = DeviceTable {
        index: client.empty(slots * 4),
        weight: client.empty(slots * 4),
        count: client.empty(rows * 4),
        rows,
        width,
        mean_taps: axis.mean_taps(direction == Direction::Adjoint),
    };
    let dim = CubeDim::new_1d(UNITS_PER_CUBE);
    let count = cubecl::calculate_cube_count_elemwise(client, rows, dim);
    let rule = F::DESC.rule();
    // SAFETY: every unit guards `pos < rows` and writes only inside its own row.
    unsafe {
        let (index, weight, counts) = (
            ArrayArg::from_raw_parts(table.index.clone(), slots),
            ArrayArg::from_raw_parts(table.weight.clone(), slots),
            ArrayArg::from_raw_parts(table.count.clone(), rows),
        );
        match direction {
            Direction::Forward => {
                build_forward_table::launch_unchecked::<F, R>(client, count, dim, geometry_arg(axis), index, weight, counts, rule)
            }
            Direction::Adjoint => build_adjoint_table::launch_unchecked::<F, R>(
                client,
                count,
                dim,
                geometry_arg(axis),
                width as u32,
                index,
                weight,
                counts,
                rule,
            ),
        }
    }
    table
}

/// Source and destination of one gather, already validated.
pub(crate) struct GatherIo<'a> {
    pub src: &'a Handle,
    pub src_view: Checked4,
    pub src_dtype: DType,
    pub dst: &'a Handle,
    pub dst_view: Checked4,
    pub dst_dtype: DType,
}

impl DeviceTable {
    /// The identity along an axis of `len`: each index reads itself with weight 1.
    fn identity<R: Runtime>(client: &ComputeClient<R>, len: usize) -> DeviceTable {
        let index: Vec<u8> = (0..len as u32).flat_map(u32::to_le_bytes).collect();
        let weight: Vec<u8> = std::iter::repeat_n(1.0f32.to_le_bytes(), len).flatten().collect();
        let count: Vec<u8> = std::iter::repeat_n(1u32.to_le_bytes(), len).flatten().collect();
        DeviceTable {
            index: client.create_from_slice(&index),
            weight: client.create_from_slice(&weight),
            count: client.create_from_slice(&count),
            rows: len,
            width: 1,
            mean_taps: 1.0,
        }
    }
}

/// How a gather is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strategy {
    /// One kernel reading every tap pair of every output from device memory.
    OnePass,
    /// One axis at a time through an intermediate in the accumulator type.
    TwoPass,
    /// Tiles through shared memory (scalar layouts only).
    Tiled,
}

/// The strategy for `tap_pairs` per output, from `INTERP_GATHER` (`one-pass` | `two-pass` |
/// `tiled`, a tuning override for experiments) or else measured rules (docs/PERFORMANCE.md):
/// gathers of channel vectors (NHWC) go one pass unless the filter has very many tap pairs;
/// scalar gathers (NCHW) go through shared-memory tiles unless four tap pairs or fewer per
/// output make the one-pass kernels cheaper.
fn strategy(io: &GatherIo, tap_pairs: f64, channel_vectors: bool) -> Strategy {
    let [n, c, h, _] = io.dst_view.shape;
    let tiles_fit = n * c <= MAX_GRID && h.div_ceil(TILE_H as usize) <= MAX_GRID;
    let chosen = match std::env::var("INTERP_GATHER").as_deref() {
        Ok("one-pass") => Strategy::OnePass,
        Ok("two-pass") => Strategy::TwoPass,
        Ok("tiled") if !channel_vectors => Strategy::Tiled,
        _ if channel_vectors => {
            if tap_pairs > 64.0 {
                Strategy::TwoPass
            } else {
                Strategy::OnePass
            }
        }
        _ if tap_pairs > 4.0 => Strategy::Tiled,
        _ => Strategy::OnePass,
    };
    if chosen == Strategy::Tiled && !tiles_fit {
        return if tap_pairs > 16.0 { Strategy::TwoPass } else { Strategy::OnePass };
    }
    chosen
}

/// Largest cube count along the y and z axes of a grid.
const MAX_GRID: usize = 65_535;

/// `dst = rows (x) cols` applied to `src`: in one pass, in shared-memory tiles, or one axis at
/// a time (the cost of one pass grows with taps_y * taps_x, of the others with
/// taps_y + taps_x, plus an intermediate's traffic for two passes).
pub(crate) fn gather<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable) {
    let tap_pairs = rows.mean_taps * cols.mean_taps;
    let channel_vectors = matches!(vectorization(client, io, tap_pairs), Vectorization::Channels(v) if v > 1);
    match strategy(io, tap_pairs, channel_vectors) {
        Strategy::OnePass => return gather_pass(client, io, rows, cols),
        Strategy::Tiled => return gather_tiled(client, io, rows, cols),
        Strategy::TwoPass => {}
    }
    let [n, c, dst_h, dst_w] = io.dst_view.shape;
    let [_, _, src_h, src_w] = io.src_view.shape;
    // Resample first along the axis that leaves the smaller intermediate.
    let width_first = src_h * dst_w <= dst_h * src_w;
    let shape = if width_first { [n, c, src_h, dst_w] } else { [n, c, dst_h, src_w] };
    let [_, _, h, w] = shape;
    let d = io.dst_view.strides;
    let channels_last = c > 1 && d[1] <= d[3] && d[1] <= d[2];
    let strides = if channels_last {
        [h * w * c, 1, w * c, c]
    } else {
        [c * h * w, h * w, w, 1]
    };
    let acc = io.dst_dtype.accumulator();
    let tmp = client.empty(shape.iter().product::<usize>() * acc.size());
    let tmp_view = Checked4 { shape, strides };
    let first = GatherIo {
        dst: &tmp,
        dst_view: tmp_view,
        dst_dtype: acc,
        ..*io
    };
    let second = GatherIo {
        src: &tmp,
        src_view: tmp_view,
        src_dtype: acc,
        ..*io
    };
    if width_first {
        gather_pass(client, &first, &DeviceTable::identity(client, src_h), cols);
        gather_pass(client, &second, rows, &DeviceTable::identity(client, dst_w));
    } else {
        gather_pass(client, &first, rows, &DeviceTable::identity(client, src_w));
        gather_pass(client, &second, &DeviceTable::identity(client, dst_h), cols);
    }
}

/// How the gather is vectorized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Vectorization {
    /// `n` channels per unit (channels contiguous in both tensors: NHWC).
    Channels(usize),
    /// `n` consecutive outputs along the width per unit (destination width-contiguous: NCHW).
    Width(usize),
    /// `n` outputs per unit along the width, interleaved so loads stay coalesced when the
    /// source is wider than the destination (NCHW, backward of an upsample).
    Strips(u32),
}

/// Most tap pairs per output for which interleaved strips beat one output per unit, from
/// `INTERP_STRIP_MAX_PAIRS` (a tuning override for experiments) or 4 (measured:
/// docs/bench-v7-strips.txt).
fn strip_max_pairs() -> f64 {
    std::env::var("INTERP_STRIP_MAX_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4.0)
}

/// Upper bound on vector widths, from `INTERP_MAX_VECTOR` (a tuning override for
/// experiments; unset means no bound).
fn max_vector() -> usize {
    std::env::var("INTERP_MAX_VECTOR")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX)
}

/// Widest vector the layouts allow: along channels when both tensors have them contiguous,
/// else, for cheap filters (about one tap pair per output), along the destination's width
/// when it is contiguous, else scalar. Several outputs per unit serialize their tap loops,
/// which only pays when there are few taps (measured on an H200: docs/PERFORMANCE.md).
fn vectorization<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, tap_pairs: f64) -> Vectorization {
    let [_, channels, _, width] = io.dst_view.shape;
    let divides = |t: &Checked4, v: usize, dims: &[usize]| dims.iter().all(|&d| t.strides[d].is_multiple_of(v) || t.shape[d] == 1);
    let cap = max_vector();
    let element = io.src_dtype.size().max(io.dst_dtype.size());
    let mut sizes = client.io_optimized_vector_sizes(element).filter(move |&v| v <= cap);
    let along_channels = sizes.clone().find(|&v| {
        v > 1
            && channels.is_multiple_of(v)
            && [&io.src_view, &io.dst_view]
                .iter()
                .all(|t| t.strides[1] == 1 && divides(t, v, &[0, 2, 3]))
    });
    if let Some(v) = along_channels {
        return Vectorization::Channels(v);
    }
    let dst = &io.dst_view;
    if dst.strides[3] != 1 || width == 1 {
        return Vectorization::Channels(1);
    }
    // Vector stores pay off while neighbouring units read neighbouring source columns; a
    // wider source would make each load instruction strided: interleaved strips instead.
    let wider_source = io.src_view.shape[3] > width;
    if !wider_source && tap_pairs <= 1.0 {
        if let Some(v) = sizes.find(|&v| v > 1 && width.is_multiple_of(v) && divides(dst, v, &[0, 1, 2])) {
            return Vectorization::Width(v);
        }
    }
    if tap_pairs > if wider_source { strip_max_pairs() } else { 1.0 } {
        return Vectorization::Channels(1);
    }
    let strip = (width / STRIP_GROUP as usize).clamp(1, 4).min(cap);
    Vectorization::Strips(strip as u32)
}

fn strides_arg<R: Runtime>(strides: [usize; 4]) -> Sequence4Launch<R> {
    let s = strides.map(|s| s as u32);
    Sequence4Launch::new(s[0], s[1], s[2], s[3])
}

/// One launch of a gather kernel: `dst = rows (x) cols` applied to `src`, per (n, c) plane.
fn gather_pass<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable) {
    let [n, c, h, w] = io.dst_view.shape;
    let vectorization = vectorization(client, io, rows.mean_taps * cols.mean_taps);
    // Units, and strides in the units each tensor is indexed in.
    let (units_c, units_w, vector, src_vector) = match vectorization {
        Vectorization::Channels(v) => (c / v, w, v, v),
        Vectorization::Width(v) => (c, w / v, v, 1),
        Vectorization::Strips(_) => (c, w, 1, 1),
    };
    let in_vectors = |strides: [usize; 4], v: usize| strides.map(|s| s / v);
    let mut src_strides = in_vectors(io.src_view.strides, src_vector);
    let mut dst_strides = in_vectors(io.dst_view.strides, vector);
    if let Vectorization::Channels(v) = vectorization {
        // Channels are contiguous and the channel index counts vectors.
        if v > 1 {
            src_strides[1] = 1;
            dst_strides[1] = 1;
        }
    }
    let layout = GatherLayoutLaunch::new(
        n as u32,
        units_c as u32,
        h as u32,
        units_w as u32,
        strides_arg(src_strides),
        strides_arg(dst_strides),
    );
    let units = match vectorization {
        Vectorization::Strips(strip) => n * c * h * w.div_ceil(STRIP_GROUP as usize * strip as usize) * STRIP_GROUP as usize,
        _ => n * units_c * h * units_w,
    };
    let dim = CubeDim::new_1d(UNITS_PER_CUBE);
    let count = cubecl::calculate_cube_count_elemwise(client, units, dim);
    // Channels fastest when they are the destination's innermost dimension (NHWC).
    let d = io.dst_view.strides;
    let channels_last = c > 1 && d[1] <= d[3] && d[1] <= d[2];
    // SAFETY: shapes, strides and buffer extents were validated; every unit guards its index,
    // and the lengths below are in elements, rounded up to whole vectors.
    unsafe {
        let src = ArrayArg::from_raw_parts(io.src.clone(), extent(&io.src_view, src_vector));
        let dst = ArrayArg::from_raw_parts(io.dst.clone(), extent(&io.dst_view, vector));
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                match vectorization {
                    Vectorization::Channels(v) => separable_gather::launch_unchecked::<$fs, $fd, $a, R>(
                        client, count, dim, v, src, dst, rows.arg(), cols.arg(), layout, channels_last,
                    ),
                    Vectorization::Width(v) => separable_gather_along_width::launch_unchecked::<$fs, $fd, $a, R>(
                        client, count, dim, v, 1, src, dst, rows.arg(), cols.arg(), layout,
                    ),
                    Vectorization::Strips(strip) => separable_gather_strips::launch_unchecked::<$fs, $fd, $a, R>(
                        client, count, dim, 1, src, dst, rows.arg(), cols.arg(), layout, strip,
                    ),
                }
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

/// The tiled kernel: cubes of `TILE_W x TILE_H` units over (column tile, row tile, plane).
fn gather_tiled<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable) {
    let [n, c, h, w] = io.dst_view.shape;
    let layout = GatherLayoutLaunch::new(
        n as u32,
        c as u32,
        h as u32,
        w as u32,
        strides_arg(io.src_view.strides),
        strides_arg(io.dst_view.strides),
    );
    let dim = CubeDim::new_2d(TILE_W, TILE_H);
    let count = CubeCount::Static(
        w.div_ceil(TILE_W as usize) as u32,
        h.div_ceil(TILE_H as usize) as u32,
        (n * c) as u32,
    );
    // SAFETY: as in `gather_pass`; every unit guards its row and column.
    unsafe {
        let src = ArrayArg::from_raw_parts(io.src.clone(), extent(&io.src_view, 1));
        let dst = ArrayArg::from_raw_parts(io.dst.clone(), extent(&io.dst_view, 1));
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                separable_gather_tiled::launch_unchecked::<$fs, $fd, $a, R>(client, count, dim, src, dst, rows.arg(), cols.arg(), layout)
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

/// Elements from the first to one past the last element of a view, rounded up to a whole
/// number of vectors.
fn extent(view: &Checked4, vector: usize) -> usize {
    let last: usize = view.shape.iter().zip(view.strides).map(|(&n, s)| (n - 1) * s).sum();
    (last + 1).next_multiple_of(vector)
}
