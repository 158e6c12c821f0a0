//! Per-axis tables in device memory: the host's exact taps (`taps.rs`), padded to rows of one
//! width, checked against the kernels' 32-bit indexing and the device's largest allocation
//! before anything is uploaded.

use cubecl::prelude::*;
use cubecl::server::Handle;
use interp_kernels::gather::AxisTableLaunch;

use super::block_interior::window_blocks;
use super::repeats::{regular_cells, Cells};
use crate::error::InterpError;
use crate::method::Rule;
use crate::plan::AxisPlan;
use crate::taps::{forward_taps, AxisTaps};

/// Which way a table maps: forward reads inputs per output, adjoint reads outputs per input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Forward,
    Adjoint,
}

impl Direction {
    fn name(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::Adjoint => "adjoint",
        }
    }
}

/// The host table of one axis (named `axis` in errors) from its taps in `direction` and the
/// length they read (`direction_taps`).
pub(crate) fn axis_table<R: Runtime>(
    client: &ComputeClient<R>,
    axis: &str,
    (taps, src_len): &(AxisTaps, usize),
    direction: Direction,
) -> Result<HostTable, InterpError> {
    HostTable::new(client, &format!("{axis} {} table", direction.name()), taps, *src_len)
}

/// The depth and height tables of a rank-5 call read as one axis (`depth * height` rows: their
/// outer product), where both hold weight-one taps only (the nearest samplers): then one gather
/// sums what two passes and an intermediate would, exactly; with `weighted`, for any filter
/// (its weights rounded products). `None` elsewhere, or where the product does not fit the
/// device (the two passes run then).
pub(crate) fn depth_height_table<R: Runtime>(
    client: &ComputeClient<R>,
    (depth_taps, depth_len): &(AxisTaps, usize),
    (height_taps, height_len): &(AxisTaps, usize),
    direction: Direction,
    weighted: bool,
) -> Option<HostTable> {
    let exact = depth_taps.unit_weights() && height_taps.unit_weights();
    if !(weighted || exact) {
        return None;
    }
    let taps = depth_taps.outer_product(height_taps, *height_len);
    let what = format!("depth x height {} table", direction.name());
    HostTable::new(client, &what, &taps, depth_len * height_len).ok()
}

/// An axis's taps in `direction` and the length of the axis they read.
pub(crate) fn direction_taps(rule: &Rule, plan: &AxisPlan, direction: Direction) -> Result<(AxisTaps, usize), InterpError> {
    let taps = forward_taps(rule, plan)?;
    Ok(match direction {
        Direction::Forward => (taps, plan.in_len),
        Direction::Adjoint => (taps.transpose(plan.in_len), plan.out_len),
    })
}

/// A table padded on the host, ready to upload: `rows x width` slots, zero weights in the
/// padding, and each row's count.
pub(crate) struct HostTable {
    index: Vec<u32>,
    weight: Vec<f32>,
    count: Vec<u32>,
    rows: usize,
    width: usize,
    mean_taps: f64,
    unit_taps: bool,
    unit_weights: bool,
    uniform_taps: bool,
    contiguous: bool,
    window_alignment: u32,
    cells: Option<Cells>,
    window_blocks: (u32, u32),
    identity: bool,
}

impl HostTable {
    /// Pads `taps` (rows reading a source axis of `src_len`); `what` names the table in errors.
    pub fn new<R: Runtime>(client: &ComputeClient<R>, what: &str, taps: &AxisTaps, src_len: usize) -> Result<Self, InterpError> {
        let (rows, width) = (taps.rows(), taps.width().max(1));
        let slots = rows as u64 * width as u64;
        check_device_array(client, what, &format!("{what} slots ({rows} rows x {width} taps)"), slots, 4)?;
        let slots = slots as usize;
        let mut index = vec![0u32; slots];
        let mut weight = vec![0f32; slots];
        let mut count = vec![0u32; rows];
        for (r, row_count) in count.iter_mut().enumerate() {
            let span = taps.offsets[r]..taps.offsets[r + 1];
            let at = r * width;
            index[at..at + span.len()].copy_from_slice(&taps.index[span.clone()]);
            weight[at..at + span.len()].copy_from_slice(&taps.weight[span.clone()]);
            *row_count = span.len() as u32;
        }
        let window_blocks = window_blocks(&index, &count, width);
        Ok(Self {
            index,
            weight,
            count,
            rows,
            width,
            mean_taps: taps.mean(),
            unit_taps: taps.unit_contiguous(),
            unit_weights: taps.unit_weights(),
            uniform_taps: taps.uniform_contiguous(),
            contiguous: taps.contiguous(),
            window_alignment: taps.window_alignment(),
            cells: regular_cells(taps, src_len),
            window_blocks,
            // An axis of unchanged length whose rows read their own index alone, weight one.
            identity: rows == src_len && taps.is_identity(),
        })
    }

    /// Slots per row: the most entries one destination index reads.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Uploads the table in both slot layouts (see `interp_kernels::gather::AxisTable`): one
    /// copy where rows hold one slot (they coincide).
    pub fn upload<R: Runtime>(&self, client: &ComputeClient<R>) -> DeviceTable {
        let bytes = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let floats = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let row_major = Slots {
            index: client.create_from_slice(&bytes(&self.index)),
            weight: client.create_from_slice(&floats(&self.weight)),
        };
        let tap_major = if self.width == 1 {
            row_major.clone()
        } else {
            Slots {
                index: client.create_from_slice(&bytes(&tap_major(&self.index, self.rows, self.width))),
                weight: client.create_from_slice(&floats(&tap_major(&self.weight, self.rows, self.width))),
            }
        };
        DeviceTable {
            row_major,
            tap_major,
            count: client.create_from_slice(&bytes(&self.count)),
            rows: self.rows,
            width: self.width,
            mean_taps: self.mean_taps,
            unit_taps: self.unit_taps,
            unit_weights: self.unit_weights,
            uniform_taps: self.uniform_taps,
            contiguous: self.contiguous,
            window_alignment: self.window_alignment,
            cells: self.cells,
            window_blocks: self.window_blocks,
            identity: self.identity,
        }
    }
}

/// `rows x width` slots, row-major, rearranged tap-major (tap `k` of every row, then `k + 1`).
fn tap_major<T: Copy>(slots: &[T], rows: usize, width: usize) -> Vec<T> {
    (0..width).flat_map(|k| (0..rows).map(move |r| slots[r * width + k])).collect()
}

/// Refuses an array the kernels cannot index in 32 bits (`elements`, named `counted` in the
/// error) or the device cannot allocate in one piece (named `what`).
pub(crate) fn check_device_array<R: Runtime>(
    client: &ComputeClient<R>,
    what: &str,
    counted: &str,
    elements: u64,
    element_bytes: u64,
) -> Result<(), InterpError> {
    let max = u32::MAX as u64;
    if elements > max {
        return Err(InterpError::IndexOverflow {
            what: counted.to_string(),
            value: elements,
            max,
        });
    }
    check_allocation(client, what, elements * element_bytes)
}

/// Refuses one allocation larger than the device's largest (cubecl would panic on it).
pub(crate) fn check_allocation<R: Runtime>(client: &ComputeClient<R>, what: &str, bytes: u64) -> Result<(), InterpError> {
    let max = client.properties().memory.max_page_size;
    if bytes > max {
        return Err(InterpError::AllocationTooLarge {
            what: what.to_string(),
            bytes,
            max,
        });
    }
    Ok(())
}

/// A table's index and weight slots in device memory, in one layout.
#[derive(Clone)]
struct Slots {
    index: Handle,
    weight: Handle,
}

/// A table in device memory, its slots in both layouts.
pub(crate) struct DeviceTable {
    row_major: Slots,
    tap_major: Slots,
    count: Handle,
    rows: usize,
    /// Slots per row.
    pub(super) width: usize,
    /// Mean taps one destination index reads.
    pub(super) mean_taps: f64,
    /// Every row reads consecutive indices with weight one (`AxisTaps::unit_contiguous`).
    pub(super) unit_taps: bool,
    /// Every entry has weight one (`AxisTaps::unit_weights`): nearest tables of any rows.
    pub(super) unit_weights: bool,
    /// Every row reads consecutive indices with one weight (`AxisTaps::uniform_contiguous`).
    pub(super) uniform_taps: bool,
    /// Every row reads consecutive indices, any weights (`AxisTaps::contiguous`).
    pub(super) contiguous: bool,
    /// What divides every row's first index and count (`AxisTaps::window_alignment`).
    pub(super) window_alignment: u32,
    /// How the table repeats, if it does (`repeats::regular_cells`).
    pub(super) cells: Option<Cells>,
    /// The blocks the blocks kernel reads from its window (`block_interior::window_blocks`).
    pub(super) window_blocks: (u32, u32),
    /// Each row reads its own index alone, with weight one, over an axis of unchanged length
    /// (the identities of routes and two passes, and an axis a call leaves as it is).
    pub(super) identity: bool,
}

impl DeviceTable {
    /// The table in the slot layout the launched kernel was compiled for (`tap_major`, else
    /// row-major; see `interp_kernels::gather::AxisTable`).
    pub(super) fn arg<R: Runtime>(&self, tap_major: bool) -> AxisTableLaunch<R> {
        let slots = if tap_major { &self.tap_major } else { &self.row_major };
        let len = self.rows * self.width;
        // SAFETY: the handles were created with exactly these lengths in `HostTable::upload`
        // (or `identity`); both layouts address slots below `rows * width`.
        unsafe {
            AxisTableLaunch::new(
                ArrayArg::from_raw_parts(slots.index.clone(), len),
                ArrayArg::from_raw_parts(slots.weight.clone(), len),
                ArrayArg::from_raw_parts(self.count.clone(), self.rows),
                self.width as u32,
                self.rows as u32,
            )
        }
    }

    /// Every row reads a run of consecutive indices, each with weight one.
    pub(crate) fn unit_runs(&self) -> bool {
        self.unit_taps
    }

    /// Every entry has weight one, but some row reads several runs (a volume's depth x height
    /// product of a depth upsample's adjoint, one run per depth tap).
    pub(crate) fn split_runs(&self) -> bool {
        self.unit_weights && !self.unit_taps
    }

    /// Every row reads one source index with weight one (nearest forward, identities).
    pub(super) fn single_tap(&self) -> bool {
        self.unit_taps && self.width == 1 && self.mean_taps == 1.0
    }

    /// The identity along an axis of `len`: each index reads itself with weight 1.
    pub(crate) fn identity<R: Runtime>(client: &ComputeClient<R>, len: usize) -> DeviceTable {
        let index: Vec<u8> = (0..len as u32).flat_map(u32::to_le_bytes).collect();
        let weight: Vec<u8> = std::iter::repeat_n(1.0f32.to_le_bytes(), len).flatten().collect();
        let count: Vec<u8> = std::iter::repeat_n(1u32.to_le_bytes(), len).flatten().collect();
        let slots = Slots {
            index: client.create_from_slice(&index),
            weight: client.create_from_slice(&weight),
        };
        DeviceTable {
            row_major: slots.clone(),
            tap_major: slots,
            count: client.create_from_slice(&count),
            rows: len,
            width: 1,
            mean_taps: 1.0,
            unit_taps: true,
            unit_weights: true,
            uniform_taps: true,
            contiguous: true,
            window_alignment: 1,
            cells: None,
            // Every pair of identity rows steps by one index: all blocks.
            window_blocks: (0, (len / 2) as u32),
            identity: true,
        }
    }
}
