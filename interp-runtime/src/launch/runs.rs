//! Weight-one column runs read in vectors (`interp_kernels::gather::separable_gather_runs`):
//! where every column row of a nearest table is a run whose first index and length are
//! multiples of a vector width (the adjoint of an integer nearest upsample along the width:
//! runs of `k` from `k q`), a unit loads each run as `k / V` vectors instead of `k` scalars.

use cubecl::prelude::*;
use interp_kernels::gather::{MAX_STRIP, RUN_VECTORS, STRIP_GROUP, SUM_BLOCK};

use super::choice::{loop_iterations, loop_limit, max_vector, strides_divide, strip_units};
use super::io::GatherIo;
use super::table::DeviceTable;
use super::teams_choice::teams_pay;
use crate::options::Strategy;
use crate::tensor::Checked4;

/// A launch of the runs kernel: source elements per vector load, vectors per column run,
/// outputs per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RunsLaunch {
    pub vector: u32,
    pub run_vectors: u32,
    pub strip: u32,
}

/// What the runs kernel needs of a gather's two tables.
#[derive(Clone, Copy, Debug)]
struct RunTables {
    /// Every row entry has weight one.
    rows_unit_weights: bool,
    /// Every column row is a run of consecutive indices of weight one.
    cols_unit_runs: bool,
    /// What divides every non-empty column run's first index and length.
    cols_alignment: u32,
    /// The widest row of each table.
    widths: (u64, u64),
}

/// The runs kernel where it applies (see [`run_vector`]), forced by the tuning or by default
/// where [`runs_pay`]. Its strip is the strips kernel's (up to `MAX_STRIP` outputs per unit),
/// shortened until its loops fit the runtime's loop cap (see `loop_iterations`).
pub(super) fn runs<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable) -> Option<RunsLaunch> {
    let forced = io.tuning.strategy == Some(Strategy::Runs);
    if !(forced || io.tuning.strategy.is_none()) {
        return None;
    }
    let tables = RunTables {
        rows_unit_weights: rows.unit_weights,
        cols_unit_runs: cols.unit_taps,
        cols_alignment: cols.window_alignment,
        widths: (rows.width as u64, cols.width as u64),
    };
    let sizes = client
        .io_optimized_vector_sizes(io.element_bytes())
        .filter(|&v| v <= max_vector(io));
    let vector = run_vector(&io.src_view, &io.dst_view, tables, sizes)?;
    // Windows the teams' rule claims (8x and beyond both ways) stay theirs: never timed against runs.
    let teams_claim = teams_pay(io, tables.widths, rows.uniform_taps && cols.uniform_taps);
    if !(forced || (runs_pay(vector * io.element_bytes(), rows) && !teams_claim)) {
        return None;
    }
    let (dst, widths) = (&io.dst_view, tables.widths);
    let run_vectors = (widths.1 / vector as u64) as u32;
    let longest = (dst.shape[3] / STRIP_GROUP as usize).clamp(1, MAX_STRIP as usize) as u32;
    let within_cap =
        |strip: u32| loop_limit(client).is_none_or(|max| loop_iterations(u64::from(strip), widths.0, widths.1 / vector as u64) <= max);
    let strip = (1..=longest)
        .rev()
        .find(|&s| within_cap(s) && strip_units(dst.shape, s) <= u32::MAX as usize)?;
    Some(RunsLaunch {
        vector: vector as u32,
        run_vectors,
        strip,
    })
}

/// The default rule (the v19 A/B on an H100, docs/PERFORMANCE.md): the runs kernel where its
/// loads are `load_bytes` = 16 bytes wide, a whole 128-byte line per 8 lanes (the adjoint of
/// nearest 4x along the width in f32: 1.24x over planes), or where the rows are several runs
/// each (a volume's depth x height product of a depth upsample's adjoint, which NCHW takes
/// only for this kernel, see `VolumeCall`: 1.43x in f32, 1.50x in bf16 over two passes,
/// with 8- and 4-byte loads). Not for 8-byte loads or less in 2-D (the adjoints of nearest 2x:
/// 0.89-0.90x of planes in f32; half precision 0.52-0.65x of cells, which go first anyway).
fn runs_pay(load_bytes: usize, rows: &DeviceTable) -> bool {
    load_bytes >= 16 || rows.split_runs()
}

/// The widest of the device's vector `sizes` (source elements per load) that the runs kernel
/// can read a gather in: width-contiguous source and destination, a row table of weight-one
/// entries, a column table of weight-one runs all of one length (or empty) whose first
/// indices and length the vector divides, that length one of `RUN_VECTORS` vectors (the
/// kernel's inner loop is unrolled: a runtime loop of vector loads was unrolled 4x by NVVM and
/// spilled registers), source strides in whole vectors, rows of at most `SUM_BLOCK` tap pairs
/// (wider ones take the compensated sums). `None` where no vector of two or more elements
/// qualifies.
fn run_vector(src: &Checked4, dst: &Checked4, tables: RunTables, sizes: impl Iterator<Item = usize>) -> Option<usize> {
    let fits_sums = tables.widths.0.saturating_mul(tables.widths.1) <= u64::from(SUM_BLOCK);
    let applies = src.strides[3] == 1 && dst.strides[3] == 1 && tables.rows_unit_weights && tables.cols_unit_runs && fits_sums;
    // Every non-empty run's length is a multiple of the alignment and at most the table's
    // width: where the two are equal, every run has that length.
    let run = tables.widths.1 as usize;
    let one_length = run == tables.cols_alignment as usize;
    let built = |v: usize| RUN_VECTORS.iter().any(|&n| n as usize * v == run);
    sizes
        .filter(|&v| applies && one_length && v > 1 && built(v) && strides_divide(src, v, &[0, 1, 2]))
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Mode;
    use crate::taps::tests::mode_taps;
    use crate::taps::AxisTaps;

    /// A built-in mode's taps from `in_len` to `out_len` (`adjoint`: their transpose).
    fn taps(mode: Mode, in_len: usize, out_len: usize, adjoint: bool) -> AxisTaps {
        let taps = mode_taps(mode, false, in_len, out_len);
        if adjoint {
            taps.transpose(in_len)
        } else {
            taps
        }
    }

    fn tables(rows: &AxisTaps, cols: &AxisTaps) -> RunTables {
        RunTables {
            rows_unit_weights: rows.unit_weights(),
            cols_unit_runs: cols.unit_contiguous(),
            cols_alignment: cols.window_alignment(),
            widths: (rows.width() as u64, cols.width() as u64),
        }
    }

    fn nchw([n, c, h, w]: [usize; 4]) -> Checked4 {
        Checked4 {
            shape: [n, c, h, w],
            strides: [c * h * w, h * w, w, 1],
        }
    }

    /// The vector the backward of `mode` from `(h, w)` to `(out_h, out_w)` reads in, NCHW,
    /// with vectors of up to 4 elements (16-byte f32 loads).
    fn adjoint_vector(mode: Mode, (h, w): (usize, usize), (out_h, out_w): (usize, usize), padded_row: usize) -> Option<usize> {
        let (rows, cols) = (taps(mode, h, out_h, true), taps(mode, w, out_w, true));
        let mut src = nchw([2, 3, out_h, out_w]);
        src.strides = [3 * out_h * padded_row, out_h * padded_row, padded_row, 1];
        run_vector(&src, &nchw([2, 3, h, w]), tables(&rows, &cols), [4, 2, 1].into_iter())
    }

    /// The adjoints of integer nearest upsamples along the width read runs of the ratio: at 2x
    /// in vectors of 2, at 4x and 8x of 4 (one run one or two vectors); not at 3x (runs from
    /// multiples of 3), 6x (a power-of-two alignment cannot show runs of 6 all of one length)
    /// or 16x (four vectors: not built), nor where a padded row breaks the vectors' alignment,
    /// nor for weighted tables.
    #[test]
    fn nearest_adjoints_read_their_runs_in_vectors() {
        for mode in [Mode::Nearest, Mode::NearestExact] {
            assert_eq!(adjoint_vector(mode, (1, 1024), (1, 4096), 4096), Some(4), "{mode:?} 1-D 4x");
            assert_eq!(adjoint_vector(mode, (7, 33), (14, 264), 264), Some(4), "{mode:?} 8x, rows 2x");
            assert_eq!(adjoint_vector(mode, (9, 30), (3, 60), 60), Some(2), "{mode:?} 2x, rows down");
            assert_eq!(adjoint_vector(mode, (4, 10), (4, 60), 60), None, "{mode:?} 6x");
            assert_eq!(adjoint_vector(mode, (4, 10), (4, 160), 160), None, "{mode:?} 16x");
            assert_eq!(adjoint_vector(mode, (4, 10), (4, 30), 30), None, "{mode:?} 3x");
            assert_eq!(adjoint_vector(mode, (4, 10), (4, 40), 42), Some(2), "{mode:?} 4x, row of 42");
            assert_eq!(adjoint_vector(mode, (4, 10), (4, 40), 41), None, "{mode:?} 4x, row of 41");
        }
        assert_eq!(adjoint_vector(Mode::Bilinear, (4, 10), (4, 40), 40), None, "bilinear 4x");
        // Forward of a nearest downsample: single taps, runs of one.
        let (rows, cols) = (taps(Mode::Nearest, 8, 8, false), taps(Mode::Nearest, 64, 16, false));
        assert_eq!(
            run_vector(
                &nchw([1, 1, 8, 64]),
                &nchw([1, 1, 8, 16]),
                tables(&rows, &cols),
                [4, 2, 1].into_iter()
            ),
            None
        );
    }
}
