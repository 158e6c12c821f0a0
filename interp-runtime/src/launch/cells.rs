//! The cells kernel's launch: where an axis's table repeats (`repeats`), the cells kernel reads
//! one source window per run of cells and sums every phase from it, its weights loaded once
//! (`interp_kernels::gather::separable_gather_cells`); whether that pays (`cells_pay`).

use cubecl::prelude::*;
use interp_kernels::gather::{cell_shape, cell_vector, cell_window_vector, CellShape};

use super::choice::{max_vector, strides_divide, Vectorization};
use super::io::GatherIo;
use super::repeats::Cells;
use super::table::DeviceTable;
use super::unit_channels::channels_per_unit;
use crate::dtype::DType;
use crate::options::Strategy;

/// A launch of the cells kernel: its shape, the column table's run, channels per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CellsLaunch {
    pub shape: CellShape,
    pub cells: Cells,
    pub planes: u32,
    /// Outputs per store (see `cell_vector`), or 1.
    pub vector: usize,
    /// How the units load their window rows.
    pub window: WindowLoads,
    /// The units of a destination row wholly inside the run: `first_unit..first_unit + units`.
    pub first_unit: u32,
    pub units: u32,
}

impl CellsLaunch {
    /// The destination columns the inner units write: `left..right`; the edges' kernel
    /// writes the others.
    pub fn inner_columns(&self) -> (u32, u32) {
        let outputs = self.shape.outputs();
        (self.first_unit * outputs, (self.first_unit + self.units) * outputs)
    }
}

/// How a cells launch loads its window rows: in vectors of `vector` source elements (1:
/// scalars), every unit's window starting `skew` elements into its first vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct WindowLoads {
    pub vector: usize,
    pub skew: u32,
}

impl WindowLoads {
    pub const SCALAR: Self = Self { vector: 1, skew: 0 };
}

/// The cells kernel where it applies: width-contiguous source and destination (NCHW) in one
/// dtype of f16, bf16 or f32, a column table that repeats in one of `CELL_SHAPES` with no
/// wider rows at its edges, at least half of a row's cells in units wholly inside the run,
/// row tables within the shape's row taps; forced by the tuning, or by default where
/// [`cells_pay`]. Its units store whole aligned vectors along the width where the
/// destination's width and other strides allow.
pub(super) fn cells<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    rows: &DeviceTable,
    cols: &DeviceTable,
    vectorization: Vectorization,
) -> Option<CellsLaunch> {
    let forced = io.tuning.strategy == Some(Strategy::Cells);
    if matches!(vectorization, Vectorization::Channels(v) if v > 1) || !(forced || io.tuning.strategy.is_none()) {
        return None;
    }
    if io.src_dtype != io.dst_dtype || io.dst_dtype == DType::F64 || io.src_view.strides[3] != 1 || io.dst_view.strides[3] != 1 {
        return None;
    }
    // Product rows of several runs (a volume's depth upsample, adjoint) are the runs kernel's
    // by default: the route takes them in NCHW for it (`VolumeCall`), where cells were never
    // timed.
    if !forced && rows.split_runs() {
        return None;
    }
    let run = cols.cells?;
    let shape = cell_shape(run.phases, run.stride, run.taps, run.split, u32::try_from(rows.width).ok()?)?;
    let row_cells = io.dst_view.shape[3] / run.phases as usize;
    // Units of whole cells inside the run (a unit's cells start at a multiple of `cells`).
    let first_unit = run.first.div_ceil(shape.cells);
    let units = (run.end / shape.cells).saturating_sub(first_unit);
    if cols.width != run.taps as usize || units == 0 || 2 * ((units * shape.cells) as usize) < row_cells {
        return None;
    }
    let widest = client
        .io_optimized_vector_sizes(io.element_bytes())
        .max()
        .unwrap_or(1)
        .min(max_vector(io));
    let vector = cell_vector(shape, widest);
    let whole = io.dst_view.shape[3].is_multiple_of(vector) && strides_divide(&io.dst_view, vector, &[0, 1, 2]);
    let launch = CellsLaunch {
        shape,
        cells: run,
        planes: channels_per_unit(io, shape.outputs() as usize),
        vector: if whole { vector } else { 1 },
        // Window vectors only beside vector stores: the kernels check (`xtask kernels`)
        // builds them only there, and the default rule takes no scalar-store launch.
        window: if whole {
            window_loads(io, shape, run, first_unit, widest)
        } else {
            WindowLoads::SCALAR
        },
        first_unit,
        units,
    };
    (forced || cells_pay(io.element_bytes(), &launch, io.dst_view.shape[3])).then_some(launch)
}

/// Where window vectors beat scalar loads by default (H100, `bench/ab_stop34.sh` part `loads`,
/// docs/PERFORMANCE.md v26: 107 NCHW cases of integer ratios, interleaved): half precision
/// everywhere (2x downsamples and the adjoints of 2x upsamples 1.3-2.1x, bicubic and lanczos3
/// upsampling 1.1-1.3x, 1-D and bilinear adjoints 1.2-1.4x, none slower), f32 windows of 4
/// taps or more per output (bicubic and lanczos3 2x upsampling 1.5-1.7x, the adjoints of
/// antialiased 2x downsampling 1.5x). Not f32 at 2 taps (bilinear 2x of one-row tables
/// 0.71-0.79x, 4x 0.93-0.94x): a window of 4-6 values, which its aligned vectors overshoot by
/// up to a vector of unused values, where half precision's scalar path spends twice the
/// instructions per byte.
fn window_vectors_pay(element_bytes: usize, shape: CellShape) -> bool {
    element_bytes <= 2 || shape.taps >= 4
}

/// The window loads of a launch whose first inner unit is `first_unit`: vectors of the
/// widest of `widest` lanes (halved until it fits) that divides the columns between two
/// units' windows (`cell_window_vector`), the source's width (so the vectors around a
/// window stay in its row) and the source's other strides (so every unit's window sits at
/// the same place in its vector); scalars where none of two or more lanes does, and where
/// the tuning (`Tuning::cell_window_vectors`) or by default [`window_vectors_pay`] says so.
fn window_loads(io: &GatherIo, shape: CellShape, run: Cells, first_unit: u32, widest: usize) -> WindowLoads {
    if !io
        .tuning
        .cell_window_vectors
        .unwrap_or_else(|| window_vectors_pay(io.element_bytes(), shape))
    {
        return WindowLoads::SCALAR;
    }
    let mut vector = cell_window_vector(shape, widest);
    let src = &io.src_view;
    while vector > 1 && !(src.shape[3].is_multiple_of(vector) && strides_divide(src, vector, &[0, 1, 2])) {
        vector /= 2;
    }
    if vector == 1 {
        return WindowLoads::SCALAR;
    }
    // The first inner unit's window starts at `origin + stride * cells * first_unit`; each
    // next unit's `cells * stride` further, a multiple of the vector.
    let start = run.origin + i64::from(shape.stride * shape.cells * first_unit);
    let skew = start.rem_euclid(vector as i64) as u32;
    WindowLoads { vector, skew }
}

/// Least share of a destination row the inner units must cover by default (7/8): the edges
/// run in a second kernel, per output from the tables.
const MIN_INNER_EIGHTHS: usize = 7;

/// Fewest inner units per destination row for the one shape the blocks kernel already serves
/// well (two phases of two taps beside rows of two or more: 2-D bilinear 2x upsampling and
/// the adjoint of antialiased 2x downsampling): a warp's 32 units then lie in one row.
const MIN_BLOCK_GROUND_UNITS: u32 = 32;

/// Where the cells kernel beats the v16 default (measured on the H200, `bench/ab_cells.sh`:
/// every NCHW case of the suite, default against forced cells, docs/PERFORMANCE.md v17), for
/// elements of `element_bytes` into rows of `width`:
/// - half precision (the gathers the v16 counters found issue-bound, where cells cut the
///   instructions per output the most): every shape with a stride of at most 2 (upsampling
///   forward 1.1-2.1x, 2x downsampling 1.2-2.1x, their adjoints 1.1-2.2x), and a stride of 4
///   only with one-row tables (1-D signals: 1.5-1.6x). 2-D shapes at a stride of 4 lost
///   (0.7-0.95x): a unit loads 4-8 tap rows of 16-20 columns in several batches, and a
///   warp's every load spans 32 x 16 columns;
/// - f32 (twice the bytes per instruction, nearer the DRAM share): only where neighbouring
///   outputs share source windows (two or more taps per output: with one tap the unit-tap
///   kernels already store width vectors from each load, and the adjoint of area 8x, 8
///   phases of one tap, ran 0.62x as fast in cells, where half precision gained 1.7x), and then
///   2-D upsampling phases that read at least 8 taps per cell (bicubic 2x and 4x, the
///   adjoints of antialiased downsampling: 1.1-2.0x; 2x bilinear and one-phase shapes lost
///   there, 0.64-0.9x), or one-row tables (1-D signals, width-only resizes: no row window
///   loaded in vain) of 2x resizes and their adjoints (three workloads timed apart: the
///   adjoint of bilinear 2x 1.8-2.2x, bilinear 2x 1.0-1.25x, the adjoint of nearest 2x 1.1x;
///   bilinear 4x lost 0.92x to planes, which load two taps per output there, and strides of
///   4 lost or tied);
/// - whole vector stores (scalar stores of rows of 14-76 columns lost 0.2-0.7x), inner units
///   over [`MIN_INNER_EIGHTHS`] of the row (rows of 16-32 columns, half of them in the edges'
///   kernel, lost 0.5-0.8x), and for 2-D bilinear 2x (where blocks read 9 values per 4
///   outputs) at least [`MIN_BLOCK_GROUND_UNITS`] units a row (U-Net decoders of 64-256
///   columns: 0.85-0.94x; 512-1920 columns: 1.1-2.0x).
///
/// With window vectors (v26, H100, `bench/ab_stop34.sh` part `cells4`: forced cells against
/// the default, vector loads on) two kinds of gathers the scalar loads lost now win, each
/// window's cache lines loaded once by a few vector loads instead of once per value: half
/// precision at a stride of 4 (4x bicubic and antialiased bilinear downsampling, 1.44-1.77x
/// against the planes kernel), and f32 one-phase windows of 4 or more taps at a stride of 2
/// (bicubic, antialiased bilinear and bicubic 2x downsampling, the adjoints of bilinear and
/// bicubic 2x upsampling: 1.45-1.73x against the planes pairs and tiles). Not f32 at a stride
/// of 4 (0.93-1.08x).
pub(super) fn cells_pay(element_bytes: usize, launch: &CellsLaunch, width: usize) -> bool {
    let shape = launch.shape;
    let one_row = shape.row_taps == 1;
    let window_vectors = launch.window.vector > 1;
    let shape_pays = if element_bytes <= 2 {
        shape.stride <= 2 || one_row || (window_vectors && shape.stride <= 4)
    } else {
        let shared = shape.taps >= 2;
        let tap_heavy_phases = !one_row && shape.phases > 1 && shape.phases * shape.taps >= 8;
        let one_row_2x = one_row && shape.stride <= 2 && shape.phases <= 2;
        let strided_windows = window_vectors && shape.phases == 1 && shape.stride == 2 && shape.taps >= 4;
        shared && (tap_heavy_phases || one_row_2x || strided_windows)
    };
    let (left, right) = launch.inner_columns();
    let inner = (right - left) as usize;
    let block_ground = shape.phases == 2 && shape.taps == 2 && !one_row;
    shape_pays && launch.vector > 1 && 8 * inner >= MIN_INNER_EIGHTHS * width && (!block_ground || launch.units >= MIN_BLOCK_GROUND_UNITS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A launch of `shape` into rows of `width` whose table repeats in every cell but
    /// `edge_cells` at each end, with vector stores where `vector`.
    fn launch_of(shape: CellShape, width: u32, edge_cells: u32, vector: bool) -> (CellsLaunch, usize) {
        let row_cells = width / shape.phases;
        let cells = Cells {
            phases: shape.phases,
            stride: shape.stride,
            taps: shape.taps,
            split: shape.split,
            first: edge_cells,
            end: row_cells - edge_cells,
            origin: 0,
        };
        let first_unit = cells.first.div_ceil(shape.cells);
        let launch = CellsLaunch {
            shape,
            cells,
            planes: 8,
            vector: if vector { cell_vector(shape, 8) } else { 1 },
            window: WindowLoads::SCALAR,
            first_unit,
            units: cells.end / shape.cells - first_unit,
        };
        (launch, width as usize)
    }

    /// The default rule, on the suite's kinds of gathers and past its edges.
    #[test]
    fn cells_pay_where_measured() {
        let shape = |row_taps, phases, stride, taps| {
            let split = if phases > 1 && taps > 1 { phases / 2 } else { 0 };
            cell_shape(phases, stride, taps, split, row_taps).unwrap()
        };
        let pays = |bytes, shape, width, edge_cells, vector| {
            let (launch, width) = launch_of(shape, width, edge_cells, vector);
            cells_pay(bytes, &launch, width)
        };
        let pays_with_window_vectors = |bytes, shape, width| {
            let (mut launch, width) = launch_of(shape, width, 1, true);
            launch.window = WindowLoads { vector: 4, skew: 1 };
            cells_pay(bytes, &launch, width)
        };
        let nearest_up2 = shape(1, 2, 1, 1);
        let bilinear_up2 = shape(2, 2, 1, 2);
        let bicubic_up2 = shape(4, 2, 1, 4);
        let bilinear_down2 = shape(2, 1, 2, 2);
        let area_down4 = shape(4, 1, 4, 4);
        let nearest_up4_adjoint = shape(1, 1, 4, 4);
        // Half precision: strides up to 2, vector stores, rows mostly inner.
        assert!(pays(2, nearest_up2, 128, 0, true));
        assert!(pays(2, bicubic_up2, 512, 2, true));
        assert!(pays(2, bilinear_down2, 256, 0, true));
        assert!(!pays(2, nearest_up2, 28, 0, false), "scalar stores");
        assert!(!pays(2, bilinear_down2, 16, 1, true), "half the row in the edges");
        // 2-D bilinear 2x: blocks' ground, wide rows only.
        assert!(!pays(2, bilinear_up2, 128, 1, true));
        assert!(pays(2, bilinear_up2, 512, 1, true));
        // A stride of 4: one-row tables only.
        assert!(!pays(2, area_down4, 1024, 0, true));
        assert!(pays(2, nearest_up4_adjoint, 1024, 0, true));
        // f32: upsampling phases of 8 or more taps a cell.
        assert!(pays(4, bicubic_up2, 512, 2, true));
        assert!(pays(4, shape(2, 4, 1, 2), 512, 1, true));
        assert!(!pays(4, bilinear_up2, 512, 1, true));
        assert!(!pays(4, nearest_up2, 512, 0, true));
        assert!(!pays(4, bilinear_down2, 512, 0, true));
        // f32 one-row tables: two or more taps at strides up to 2.
        let bilinear_up2_adjoint_1d = shape(1, 1, 2, 4);
        assert!(pays(4, bilinear_up2_adjoint_1d, 4096, 0, true));
        assert!(pays(4, shape(1, 2, 1, 2), 4096, 1, true));
        assert!(pays(4, shape(1, 1, 2, 2), 4096, 0, true));
        assert!(!pays(4, shape(1, 2, 1, 1), 4096, 0, true), "one tap: the unit-tap kernels");
        assert!(!pays(4, shape(1, 4, 1, 1), 4096, 0, true), "one tap: the unit-tap kernels");
        assert!(!pays(4, nearest_up4_adjoint, 4096, 0, true), "a stride of 4");
        assert!(!pays(4, shape(2, 1, 2, 4), 4096, 0, true), "two-row tables");
        assert!(
            !pays(4, shape(1, 4, 1, 2), 4096, 0, true),
            "one-row 4x: planes load two taps an output"
        );
        assert!(
            !pays(4, shape(2, 8, 1, 1), 512, 0, true),
            "8 phases of one tap: the unit-tap kernels"
        );
        // Window vectors: half precision at a stride of 4; f32 one-phase windows of 4 or more
        // taps at a stride of 2 (not 2 taps, not a stride of 4).
        let bicubic_down2 = shape(4, 1, 2, 4);
        let bicubic_up2_adjoint = shape(8, 1, 2, 8);
        assert!(pays_with_window_vectors(2, area_down4, 1024));
        assert!(pays_with_window_vectors(4, bicubic_down2, 512));
        assert!(pays_with_window_vectors(4, bicubic_up2_adjoint, 512));
        assert!(!pays(4, bicubic_down2, 512, 0, true), "f32 strided windows in scalar loads");
        assert!(!pays_with_window_vectors(4, bilinear_down2, 512), "f32 at 2 taps");
        assert!(!pays_with_window_vectors(4, area_down4, 1024), "f32 at a stride of 4");
        // Which windows load vectors by default.
        assert!(window_vectors_pay(2, bilinear_up2) && window_vectors_pay(4, bicubic_up2));
        assert!(!window_vectors_pay(4, bilinear_up2) && !window_vectors_pay(4, shape(1, 2, 1, 2)));
    }
}
