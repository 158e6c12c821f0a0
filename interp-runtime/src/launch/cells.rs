//! Regular column tables, found on the host: where an axis's table repeats with a period of
//! `phases` destination indices per `stride` source indices (an integer upsample: `k` phases,
//! stride 1; an integer downsample or an upsample's adjoint: one phase, stride `k`), the cells
//! kernel reads one source window per run of cells and sums every phase from it, its weights
//! loaded once (`interp_kernels::gather::separable_gather_cells`).

use cubecl::prelude::*;
use interp_kernels::gather::{cell_shape, cell_vector, CellShape};

use super::choice::{channels_per_unit, max_vector, strides_divide, Vectorization};
use super::gather::GatherIo;
use super::table::DeviceTable;
use crate::dtype::DType;
use crate::options::Strategy;
use crate::taps::AxisTaps;

/// How one axis's table repeats: cell `u` is destination indices `phases * u + r` (`r <
/// phases`), phase `r` reading the `taps` consecutive source indices from
/// `stride * u + offset + shift(r)`, with the same f32 weights in every cell of
/// `first..end`; `shift(r)` is 0 below `split` and 1 from it (0 for every phase where `split`
/// is 0). Cells outside `first..end` (the edges, where clamped taps merge) do not follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cells {
    pub phases: u32,
    pub stride: u32,
    pub taps: u32,
    pub split: u32,
    pub first: u32,
    pub end: u32,
}

/// A launch of the cells kernel: its shape, the column table's run, channels per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CellsLaunch {
    pub shape: CellShape,
    pub cells: Cells,
    pub planes: u32,
    /// Outputs per store (see `cell_vector`), or 1.
    pub vector: usize,
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
        first_unit,
        units,
    };
    (forced || cells_pay(io.element_bytes(), &launch, io.dst_view.shape[3])).then_some(launch)
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
pub(super) fn cells_pay(element_bytes: usize, launch: &CellsLaunch, width: usize) -> bool {
    let shape = launch.shape;
    let one_row = shape.row_taps == 1;
    let shape_pays = if element_bytes <= 2 {
        shape.stride <= 2 || one_row
    } else {
        let shared = shape.taps >= 2;
        let tap_heavy_phases = !one_row && shape.phases > 1 && shape.phases * shape.taps >= 8;
        let one_row_2x = one_row && shape.stride <= 2 && shape.phases <= 2;
        shared && (tap_heavy_phases || one_row_2x)
    };
    let (left, right) = launch.inner_columns();
    let inner = (right - left) as usize;
    let block_ground = shape.phases == 2 && shape.taps == 2 && !one_row;
    shape_pays && launch.vector > 1 && 8 * inner >= MIN_INNER_EIGHTHS * width && (!block_ground || launch.units >= MIN_BLOCK_GROUND_UNITS)
}

/// Most phases or stride of a repeating table (a ratio of at most 8 either way).
const MOST_PERIOD: usize = 8;

/// The period of `taps` (`rows` destination indices read from `src_len` source indices) and
/// its regular cells, if the reduced ratio is an integer of at most [`MOST_PERIOD`] either
/// way and some cell's phases each read consecutive indices, the same count in every phase,
/// each starting at most one index after the phase before; `first..end` is the longest run
/// of cells around the middle one that repeat it bit for bit.
pub(crate) fn regular_cells(taps: &AxisTaps, src_len: usize) -> Option<Cells> {
    let rows = taps.rows();
    let g = gcd(rows, src_len);
    if g == 0 {
        return None;
    }
    let (phases, stride) = (rows / g, src_len / g);
    if (phases != 1 && stride != 1) || phases.max(stride) > MOST_PERIOD || phases == stride {
        return None;
    }
    let cells = rows / phases;
    let middle = cells / 2;
    let template = Template::of(taps, middle, phases, stride)?;
    let matches = |u: usize| template.matches(taps, u);
    let first = (0..middle).rev().take_while(|&u| matches(u)).last().unwrap_or(middle);
    let end = (middle + 1..cells).take_while(|&u| matches(u)).last().map_or(middle + 1, |u| u + 1);
    Some(Cells {
        phases: phases as u32,
        stride: stride as u32,
        taps: template.taps as u32,
        split: template.split as u32,
        first: first as u32,
        end: end as u32,
    })
}

/// One cell's rows as every regular cell repeats them.
struct Template<'a> {
    phases: usize,
    stride: usize,
    taps: usize,
    split: usize,
    /// Each phase's first index minus `stride * u`, for the template cell `u`.
    offsets: Vec<i64>,
    /// The template cell's weights, phase after phase.
    weights: &'a [f32],
}

impl<'a> Template<'a> {
    fn of(taps: &'a AxisTaps, u: usize, phases: usize, stride: usize) -> Option<Self> {
        let rows = phases * u..phases * (u + 1);
        let count = taps.offsets[rows.start + 1] - taps.offsets[rows.start];
        let mut offsets = Vec::with_capacity(phases);
        for r in rows.clone() {
            let span = taps.offsets[r]..taps.offsets[r + 1];
            let index = &taps.index[span.clone()];
            if span.len() != count || count == 0 || index.windows(2).any(|p| p[1] != p[0] + 1) {
                return None;
            }
            offsets.push(index[0] as i64 - (stride * u) as i64);
        }
        // Phases start at the first phase's index or one after it, in that order.
        let shifts: Vec<i64> = offsets.iter().map(|&o| o - offsets[0]).collect();
        if shifts.iter().any(|&s| !(0..=1).contains(&s)) || shifts.windows(2).any(|p| p[1] < p[0]) {
            return None;
        }
        let split = shifts.iter().position(|&s| s == 1).unwrap_or(0);
        let weights = &taps.weight[taps.offsets[rows.start]..taps.offsets[rows.end]];
        Some(Self {
            phases,
            stride,
            taps: count,
            split,
            offsets,
            weights,
        })
    }

    /// Whether cell `u` reads what the template reads, shifted by `stride * u`, with its
    /// weights bit for bit.
    fn matches(&self, taps: &AxisTaps, u: usize) -> bool {
        let rows = self.phases * u..self.phases * (u + 1);
        if taps.offsets[rows.end] - taps.offsets[rows.start] != self.phases * self.taps {
            return false;
        }
        let same_weights = taps.weight[taps.offsets[rows.start]..taps.offsets[rows.end]]
            .iter()
            .zip(self.weights)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        same_weights
            && rows.enumerate().all(|(r, row)| {
                let span = taps.offsets[row]..taps.offsets[row + 1];
                let start = (self.stride * u) as i64 + self.offsets[r];
                span.len() == self.taps && taps.index[span].iter().enumerate().all(|(t, &j)| j as i64 == start + t as i64)
            })
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Mode;
    use crate::taps::tests::mode_taps;

    /// The cells of a built-in mode's forward table (`adjoint`: its transpose) from `in_len`
    /// to `out_len`, and the kernel shape they run in.
    fn mode_cells(mode: Mode, antialias: bool, in_len: usize, out_len: usize, adjoint: bool) -> Option<(Cells, Option<CellShape>)> {
        let taps = mode_taps(mode, antialias, in_len, out_len);
        let cells = if adjoint {
            regular_cells(&taps.transpose(in_len), out_len)
        } else {
            regular_cells(&taps, in_len)
        }?;
        Some((
            cells,
            cell_shape(cells.phases, cells.stride, cells.taps, cells.split, cells.taps.max(2)),
        ))
    }

    /// The filters' integer resizes (and their adjoints) repeat in the kernel's shapes, with
    /// every cell but the clamped edges in the run.
    #[test]
    fn integer_resizes_run_in_cell_shapes() {
        // (mode, antialias, in, out, (phases, stride, taps))
        let cases = [
            (Mode::Nearest, false, 64, 128, (2, 1, 1)),
            (Mode::Bilinear, false, 64, 128, (2, 1, 2)),
            (Mode::Bicubic, false, 64, 128, (2, 1, 4)),
            (Mode::Bilinear, false, 64, 256, (4, 1, 2)),
            (Mode::Bicubic, false, 64, 256, (4, 1, 4)),
            (Mode::Bilinear, false, 64, 512, (8, 1, 2)),
            (Mode::Area, false, 128, 64, (1, 2, 2)),
            (Mode::Bilinear, false, 128, 64, (1, 2, 2)),
            (Mode::Bilinear, true, 128, 64, (1, 2, 4)),
            (Mode::Bicubic, true, 128, 64, (1, 2, 8)),
            (Mode::Area, false, 256, 64, (1, 4, 4)),
            (Mode::Bilinear, true, 256, 64, (1, 4, 8)),
        ];
        for (mode, antialias, in_len, out_len, (phases, stride, taps)) in cases {
            let (cells, shape) = mode_cells(mode, antialias, in_len, out_len, false).unwrap();
            assert_eq!(
                (cells.phases, cells.stride, cells.taps),
                (phases, stride, taps),
                "{mode:?} {in_len} -> {out_len}"
            );
            assert!(shape.is_some(), "{mode:?} {in_len} -> {out_len}: {cells:?} has no kernel shape");
            let edge = 4;
            assert!(
                cells.first <= edge && cells.end + edge >= out_len as u32 / phases,
                "{mode:?}: {cells:?}"
            );
        }
        // Adjoints of upsampling: one phase, a stride of the ratio.
        let adjoints = [
            (Mode::Nearest, 2, 2),
            (Mode::Bilinear, 2, 4),
            (Mode::Bicubic, 2, 8),
            (Mode::Bilinear, 4, 8),
        ];
        for (mode, ratio, taps) in adjoints {
            let (cells, shape) = mode_cells(mode, false, 64, 64 * ratio, true).unwrap();
            assert_eq!(
                (cells.phases, cells.stride, cells.taps),
                (1, ratio as u32, taps),
                "{mode:?} up {ratio} adjoint"
            );
            assert!(shape.is_some(), "{mode:?} up {ratio} adjoint: no kernel shape");
            assert!(cells.first <= 4 && cells.end + 4 >= 64, "{mode:?}: {cells:?}");
        }
    }

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
        };
        let first_unit = cells.first.div_ceil(shape.cells);
        let launch = CellsLaunch {
            shape,
            cells,
            planes: 8,
            vector: if vector { cell_vector(shape, 8) } else { 1 },
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
    }

    /// A table from explicit rows of (first index, weights).
    fn table(rows: &[(u32, &[f32])]) -> AxisTaps {
        let mut taps = AxisTaps {
            offsets: vec![0],
            index: Vec::new(),
            weight: Vec::new(),
        };
        for &(first, weights) in rows {
            for (t, &w) in weights.iter().enumerate() {
                taps.index.push(first + t as u32);
                taps.weight.push(w);
            }
            taps.offsets.push(taps.index.len());
        }
        taps
    }

    /// Bilinear up 2x of 5 source indices: clamped edges, cells 1..4 regular.
    #[test]
    fn bilinear_upsample_cells() {
        let (even, odd, one) = ([0.25f32, 0.75], [0.75f32, 0.25], [1.0f32]);
        let mut rows = vec![(0, &one[..]), (0, &odd[..])];
        for j in 1..4 {
            rows.push((j - 1, &even[..]));
            rows.push((j, &odd[..]));
        }
        rows.push((3, &even[..]));
        rows.push((4, &one[..]));
        let cells = regular_cells(&table(&rows), 5).unwrap();
        assert_eq!(
            cells,
            Cells {
                phases: 2,
                stride: 1,
                taps: 2,
                split: 1,
                first: 1,
                end: 4
            }
        );
    }

    /// A downsample by 3 whose middle cell differs from its neighbours' weights: one cell.
    #[test]
    fn a_lone_cell_is_its_own_run() {
        let rows = [(0, &[0.5f32, 0.5][..]), (3, &[0.25f32, 0.75][..]), (6, &[0.5f32, 0.5][..])];
        let cells = regular_cells(&table(&rows), 9).unwrap();
        assert_eq!((cells.phases, cells.stride, cells.taps, cells.first, cells.end), (1, 3, 2, 1, 2));
    }

    /// Phases two indices apart, rows of different counts, ratios past 8 or not integer: none.
    #[test]
    fn irregular_tables_have_none() {
        let apart = table(&[(0, &[1.0][..]), (2, &[1.0][..]), (1, &[1.0][..]), (3, &[1.0][..])]);
        assert!(regular_cells(&apart, 2).is_none());
        let uneven = table(&[(0, &[1.0][..]), (0, &[0.5, 0.5][..]), (1, &[1.0][..]), (1, &[0.5, 0.5][..])]);
        assert!(regular_cells(&uneven, 2).is_none());
        assert!(regular_cells(&table(&[(0, &[1.0][..]); 3]), 2).is_none());
        assert!(regular_cells(&table(&[(0, &[1.0][..]); 9]), 1).is_none());
    }
}
