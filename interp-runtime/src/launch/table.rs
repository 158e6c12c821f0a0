//! Per-axis tables in device memory, built by the filter's table kernels.

use cubecl::prelude::*;
use cubecl::server::Handle;
use interp_kernels::gather::AxisTableLaunch;
use interp_kernels::tables::{build_adjoint_table, build_forward_table};
use interp_kernels::taps::AxisGeometryLaunch;
use interp_kernels::Filter;

use super::UNITS_PER_CUBE;
use crate::plan::AxisPlan;

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
    pub(super) mean_taps: f64,
}

impl DeviceTable {
    pub(super) fn arg<R: Runtime>(&self) -> AxisTableLaunch<R> {
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

impl DeviceTable {
    /// The identity along an axis of `len`: each index reads itself with weight 1.
    pub(super) fn identity<R: Runtime>(client: &ComputeClient<R>, len: usize) -> DeviceTable {
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
