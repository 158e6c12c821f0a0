//! Device work: build the two per-axis tables, pick vector width and unit order, launch the
//! gather. Called only with validated inputs.

use cubecl::prelude::*;
use cubecl::server::Handle;
use interp_kernels::gather::{separable_gather, AxisTableLaunch, GatherLayoutLaunch, Sequence4Launch};
use interp_kernels::tables::{build_adjoint_table, build_forward_table};
use interp_kernels::taps::AxisGeometryLaunch;
use interp_kernels::Filter;

use crate::dtype::DType;
use crate::plan::AxisPlan;
use crate::tensor::Checked4;

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
    pub dst: &'a Handle,
    pub dst_view: Checked4,
    pub dtype: DType,
}

/// Widest vector along channels that both tensors allow (1 unless channels are contiguous).
fn vector_width<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo) -> usize {
    let views = [&io.src_view, &io.dst_view];
    let channels = io.dst_view.shape[1];
    client
        .io_optimized_vector_sizes(io.dtype.size())
        .find(|&v| {
            let aligned = |t: &&Checked4| t.strides[1] == 1 && [0, 2, 3].iter().all(|&d| t.strides[d].is_multiple_of(v) || t.shape[d] == 1);
            v == 1 || (channels.is_multiple_of(v) && views.iter().all(aligned))
        })
        .unwrap_or(1)
}

/// Strides in vectors. When vectorized, channels are contiguous and the channel index already
/// counts vectors, so its stride is one vector.
fn strides_arg<R: Runtime>(view: &Checked4, vector: usize) -> Sequence4Launch<R> {
    let s = view.strides.map(|s| (s / vector) as u32);
    let channel_stride = if vector > 1 { 1 } else { s[1] };
    Sequence4Launch::new(s[0], channel_stride, s[2], s[3])
}

/// `dst = rows (x) cols` applied to `src`, per (n, c) plane.
pub(crate) fn gather<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable) {
    let vector = vector_width(client, io);
    let [n, c, h, w] = io.dst_view.shape;
    let channels = c / vector;
    // Channels fastest when they are the destination's innermost dimension (NHWC).
    let d = io.dst_view.strides;
    let channels_last = c > 1 && d[1] <= d[3] && d[1] <= d[2];
    let units = n * channels * h * w;
    let layout = GatherLayoutLaunch::new(
        n as u32,
        channels as u32,
        h as u32,
        w as u32,
        strides_arg(&io.src_view, vector),
        strides_arg(&io.dst_view, vector),
    );
    let src_len = span_in_vectors(&io.src_view, vector);
    let dst_len = span_in_vectors(&io.dst_view, vector);
    let dim = CubeDim::new_1d(UNITS_PER_CUBE);
    let count = cubecl::calculate_cube_count_elemwise(client, units, dim);
    // SAFETY: shapes, strides and buffer extents were validated; every unit guards its index.
    unsafe {
        let src = ArrayArg::from_raw_parts(io.src.clone(), src_len);
        let dst = ArrayArg::from_raw_parts(io.dst.clone(), dst_len);
        macro_rules! launch {
            ($f:ty, $a:ty) => {
                separable_gather::launch_unchecked::<$f, $a, R>(
                    client,
                    count,
                    dim,
                    vector,
                    src,
                    dst,
                    rows.arg(),
                    cols.arg(),
                    layout,
                    channels_last,
                )
            };
        }
        match io.dtype {
            DType::F32 => launch!(f32, f32),
            DType::F16 => launch!(half::f16, f32),
            DType::BF16 => launch!(half::bf16, f32),
            DType::F64 => launch!(f64, f64),
        }
    }
}

/// Vectors from the first to one past the last element of a view.
fn span_in_vectors(view: &Checked4, vector: usize) -> usize {
    let last: usize = view.shape.iter().zip(view.strides).map(|(&n, s)| (n - 1) * s).sum();
    (last + 1).div_ceil(vector)
}
