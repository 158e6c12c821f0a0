//! Regular column tables, found on the host: where an axis's table repeats with a period of
//! `phases` destination indices per `stride` source indices (an integer upsample: `k` phases,
//! stride 1; an integer downsample or an upsample's adjoint: one phase, stride `k`). The cells
//! kernel (`cells`) reads such runs of cells from one source window.

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
    /// Cell 0's first index as the run extends it: cell `u` of the run reads from
    /// `origin + stride * u` (negative where the clamped edge moved cell 0's taps).
    pub origin: i64,
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
        origin: template.offsets[0],
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
    use interp_kernels::gather::{cell_shape, CellShape};

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
        // Adjoints of upsampling: one phase, a stride of the ratio; input `i` receives from
        // the outputs whose taps hold it, from `ratio * i + origin` on (bilinear 2x: output
        // `j` reads around `j / 2 - 0.25`, so `2i - 1 ..= 2i + 2` read `i`).
        let adjoints = [
            (Mode::Nearest, 2, 2, 0),
            (Mode::Bilinear, 2, 4, -1),
            (Mode::Bicubic, 2, 8, -3),
            (Mode::Bilinear, 4, 8, -2),
        ];
        for (mode, ratio, taps, origin) in adjoints {
            let (cells, shape) = mode_cells(mode, false, 64, 64 * ratio, true).unwrap();
            assert_eq!(
                (cells.phases, cells.stride, cells.taps, cells.origin),
                (1, ratio as u32, taps, origin),
                "{mode:?} up {ratio} adjoint"
            );
            assert!(shape.is_some(), "{mode:?} up {ratio} adjoint: no kernel shape");
            assert!(cells.first <= 4 && cells.end + 4 >= 64, "{mode:?}: {cells:?}");
        }
    }

    /// Where a run's cells start reading: cell `u` from `origin + stride * u` (upsampling 2x:
    /// phase 0 of cell `u` is output `2u`, around source `u - 0.25`; bilinear reads `u - 1`
    /// and `u`, bicubic `u - 2 ..= u + 1`; a 2x downsample's output `u` reads `2u, 2u + 1`).
    #[test]
    fn cells_know_where_their_windows_start() {
        let cases = [
            (Mode::Nearest, 64, 128, 0),
            (Mode::Bilinear, 64, 128, -1),
            (Mode::Bicubic, 64, 128, -2),
            (Mode::Area, 128, 64, 0),
            (Mode::Bilinear, 128, 64, 0),
        ];
        for (mode, in_len, out_len, origin) in cases {
            let (cells, _) = mode_cells(mode, false, in_len, out_len, false).unwrap();
            assert_eq!(cells.origin, origin, "{mode:?} {in_len} -> {out_len}: {cells:?}");
        }
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
                end: 4,
                origin: -1
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
