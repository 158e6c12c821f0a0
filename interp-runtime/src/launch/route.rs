//! Resizes of every rank as the 4-D gathers the kernels run. Rank 4 is one gather. Rank 3
//! (N, C, L) is one gather with a unit height read through a one-entry identity table.
//! Rank 5 (N, C, D, H, W) is a depth pass and a plane pass through an intermediate in the
//! accumulator type; each pass leaves three or four axes alone, and two of them are folded
//! into one axis (allowed where one's stride is the other's size times its stride, in both
//! views of the pass), so that any layout whose strides allow one fold per pass runs without
//! a copy: NCDHW, NDHWC, slices and most permutations. Where the depth axis is left as it is
//! (an identity table: video frames resized, time kept) the plane pass alone runs, from the
//! caller's source to its destination, when both views fold. Where the depth and height tables
//! hold weight-one taps only (the nearest samplers) and both views fold depth into height, one
//! gather reads them as one axis through their product table (`Slot::DepthHeight`): no
//! intermediate, each source value read once (the same sums, in the order of the product's
//! rows). Rows of several runs (the adjoint of a depth upsample: one run per depth tap) take
//! it channels-last only, where each tap is a load of channel vectors anyway; in NCHW the
//! kernels that read rows as runs lose to the two passes there (H100: the video U-Net's
//! nearest backward 0.82-0.90x in one gather, against 1.42-1.69x channels-last).

use crate::error::InterpError;
use crate::tensor::{Checked, Checked4};

/// Which table fills a slot of a 4-D gather.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The table of spatial axis `k` (outermost first) in the call's direction.
    Axis(usize),
    /// The identity along an axis of this length.
    Identity(usize),
    /// The product of the depth and height tables, read as one axis of `depth * height` rows.
    DepthHeight,
}

/// What a rank-5 route may use besides the per-axis tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct VolumeTables {
    /// The depth table is the identity: the plane pass alone can run.
    pub depth_identity: bool,
    /// The product table of depth and height (`Slot::DepthHeight`), where built: its rows.
    pub depth_height: Option<ProductRows>,
    /// The product goes first in any layout, its rows of several runs and weighted rows too
    /// (by default those channels-last only): under `Tuning::volume_product`, and where the
    /// runs kernel reads its rows of several runs in NCHW (forced, or by its default rule:
    /// docs/PERFORMANCE.md v19).
    pub product_any_layout: bool,
    /// Weighted product rows serve channels-last calls (half precision, where the two passes'
    /// f32 intermediate doubles the traffic: docs/PERFORMANCE.md v19).
    pub weighted_channels_last: bool,
}

/// The rows of the depth x height product table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProductRows {
    /// Each a run of consecutive indices (every forward of a nearest sampler; the adjoint where
    /// depth is not upsampled).
    Runs,
    /// Weight-one rows, some of several runs, one per depth tap (the adjoint of a depth
    /// upsample).
    SplitRuns,
    /// Weighted entries (a weighted filter's product: `Tuning::volume_product`, or by default
    /// for few-tap filters, see `Resampler`).
    Weighted,
}

/// Where a pass reads or writes: the caller's tensors or the route's intermediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Buffer {
    Caller,
    Intermediate,
}

/// One 4-D gather of a route.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pass {
    pub src: (Buffer, Checked4),
    pub dst: (Buffer, Checked4),
    pub rows: Slot,
    pub cols: Slot,
}

/// The gathers of one call, in order, and the elements of the intermediate between them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Route {
    pub passes: Vec<Pass>,
    pub intermediate: usize,
}

/// The route from `src` to `dst` (validated views of one rank, 3 to 5), or why their strides
/// allow none; `volume`: the tables a rank-5 route may use.
pub(crate) fn route(src: &Checked, dst: &Checked, volume: VolumeTables) -> Result<Route, InterpError> {
    match src.shape.len() {
        3 => {
            let (s, d) = (unit_height(src), unit_height(dst));
            Ok(single(s, d, Slot::Identity(1), Slot::Axis(0)))
        }
        4 => Ok(single(four(src), four(dst), Slot::Axis(0), Slot::Axis(1))),
        // The plane pass reads and writes the depth as one batch axis: the same length on
        // both sides (an identity table has it; checked again here, as the fold assumes it).
        _ => match fold(Part::Plane, src, dst).filter(|_| volume.depth_identity && src.shape[2] == dst.shape[2]) {
            // The depth pass would copy: the plane pass alone, caller to caller.
            Some((s, d, rows, cols)) => Ok(single(s, d, rows, cols)),
            None => match depth_height(src, dst).filter(|(_, d)| match volume.depth_height {
                Some(ProductRows::Runs) => true,
                Some(ProductRows::SplitRuns) => d.channels_last() || volume.product_any_layout,
                Some(ProductRows::Weighted) => (d.channels_last() && volume.weighted_channels_last) || volume.product_any_layout,
                None => false,
            }) {
                Some((s, d)) => Ok(single(s, d, Slot::DepthHeight, Slot::Axis(2))),
                None => two_passes(src, dst),
            },
        },
    }
}

fn single(src: Checked4, dst: Checked4, rows: Slot, cols: Slot) -> Route {
    Route {
        passes: vec![Pass {
            src: (Buffer::Caller, src),
            dst: (Buffer::Caller, dst),
            rows,
            cols,
        }],
        intermediate: 0,
    }
}

fn four(v: &Checked) -> Checked4 {
    let array = |x: &[usize]| [x[0], x[1], x[2], x[3]];
    Checked4 {
        shape: array(&v.shape),
        strides: array(&v.strides),
    }
}

/// (N, C, D, H, W) as (N, C, D * H, W) in both views, where depth folds into height in each.
pub(crate) fn depth_height(src: &Checked, dst: &Checked) -> Option<(Checked4, Checked4)> {
    let merged = |v: &Checked| {
        let stride = folded_stride(v, 2, 3)?;
        let s = &v.strides;
        Some(Checked4 {
            shape: [v.shape[0], v.shape[1], v.shape[2] * v.shape[3], v.shape[4]],
            strides: [s[0], s[1], stride, s[4]],
        })
    };
    Some((merged(src)?, merged(dst)?))
}

/// (N, C, L) as (N, C, 1, L). The unit axis's stride is never multiplied by a nonzero index;
/// it is set to the length axis's extent so that the kernels' layout test (channels innermost
/// or not) reads the same as for the 3-D view.
fn unit_height(v: &Checked) -> Checked4 {
    let extent = v.shape[2] * v.strides[2].max(1);
    Checked4 {
        shape: [v.shape[0], v.shape[1], 1, v.shape[2]],
        strides: [v.strides[0], v.strides[1], extent, v.strides[2]],
    }
}

/// The axes one pass of a 5-D route resizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// D alone.
    Depth,
    /// H and W together.
    Plane,
}

fn two_passes(src: &Checked, dst: &Checked) -> Result<Route, InterpError> {
    let (i, o) = (&src.shape, &dst.shape);
    let depth_first = vec![i[0], i[1], o[2], i[3], i[4]];
    let plane_first = vec![i[0], i[1], i[2], o[3], o[4]];
    let elements = |s: &[usize]| s.iter().product::<usize>();
    // The smaller intermediate first: it is written once and read once.
    let mut orders = [(Part::Depth, Part::Plane, depth_first), (Part::Plane, Part::Depth, plane_first)];
    if elements(&orders[1].2) < elements(&orders[0].2) {
        orders.swap(0, 1);
    }
    for (first, second, shape) in &orders {
        for like in [src, dst] {
            let mid = contiguous_like(shape, like);
            let (Some(a), Some(b)) = (fold(*first, src, &mid), fold(*second, &mid, dst)) else {
                continue;
            };
            let pass = |(s, d, rows, cols): (Checked4, Checked4, Slot, Slot), from, to| Pass {
                src: (from, s),
                dst: (to, d),
                rows,
                cols,
            };
            return Ok(Route {
                passes: vec![
                    pass(a, Buffer::Caller, Buffer::Intermediate),
                    pass(b, Buffer::Intermediate, Buffer::Caller),
                ],
                intermediate: elements(shape),
            });
        }
    }
    Err(InterpError::UnfoldableLayout {
        input: (src.shape.clone(), src.strides.clone()),
        output: (dst.shape.clone(), dst.strides.clone()),
    })
}

/// A contiguous view of `shape` whose axes are ordered as `like`'s strides order them
/// (outermost first; ties by axis index), so that folds `like` allows hold in it too.
fn contiguous_like(shape: &[usize], like: &Checked) -> Checked {
    let mut order: Vec<usize> = (0..shape.len()).collect();
    order.sort_by_key(|&a| (std::cmp::Reverse(like.strides[a]), a));
    let mut strides = vec![0; shape.len()];
    let mut step = 1;
    for &a in order.iter().rev() {
        strides[a] = step;
        step *= shape[a];
    }
    Checked {
        shape: shape.to_vec(),
        strides,
    }
}

/// Whether axes `outer` and `inner` of `v` can be read as one axis (`inner` fastest), and its
/// stride then.
fn folded_stride(v: &Checked, outer: usize, inner: usize) -> Option<usize> {
    let (so, si) = (v.strides[outer], v.strides[inner]);
    match (v.shape[outer], v.shape[inner]) {
        (_, 1) => Some(so),
        (1, _) => Some(si),
        (_, n) if so == n * si => Some(si),
        _ => None,
    }
}

/// One pass of a 5-D route as a 4-D gather: the axes `part` leaves alone, two of them folded
/// (the first pair both views allow, innermost first in `d`), fill the batch and channel
/// slots (and the column slot, through an identity table, for the depth pass), outermost
/// first by `d`'s strides.
fn fold(part: Part, s: &Checked, d: &Checked) -> Option<(Checked4, Checked4, Slot, Slot)> {
    let kept: &[usize] = match part {
        Part::Depth => &[0, 1, 3, 4],
        Part::Plane => &[0, 1, 2],
    };
    let mut by_stride = kept.to_vec();
    by_stride.sort_by_key(|&a| (d.strides[a], a));
    let (outer, inner, strides) = by_stride.iter().find_map(|&inner| {
        by_stride.iter().filter(|&&outer| outer != inner).find_map(|&outer| {
            let s_stride = folded_stride(s, outer, inner)?;
            let d_stride = folded_stride(d, outer, inner)?;
            Some((outer, inner, (s_stride, d_stride)))
        })
    })?;
    // (length, source stride, destination stride) of the axes left after the fold.
    let mut axes: Vec<(usize, usize, usize)> = kept
        .iter()
        .filter(|&&a| a != outer && a != inner)
        .map(|&a| (s.shape[a], s.strides[a], d.strides[a]))
        .collect();
    axes.push((s.shape[outer] * s.shape[inner], strides.0, strides.1));
    axes.sort_by_key(|&(_, ss, ds)| std::cmp::Reverse((ds, ss)));
    let view = |shape: [usize; 4], strides: [usize; 4]| Checked4 { shape, strides };
    Some(match part {
        Part::Depth => {
            let [n, c, w] = [axes[0], axes[1], axes[2]];
            (
                view([n.0, c.0, s.shape[2], w.0], [n.1, c.1, s.strides[2], w.1]),
                view([n.0, c.0, d.shape[2], w.0], [n.2, c.2, d.strides[2], w.2]),
                Slot::Axis(0),
                Slot::Identity(w.0),
            )
        }
        Part::Plane => {
            let [n, c] = [axes[0], axes[1]];
            (
                view([n.0, c.0, s.shape[3], s.shape[4]], [n.1, c.1, s.strides[3], s.strides[4]]),
                view([n.0, c.0, d.shape[3], d.shape[4]], [n.2, c.2, d.strides[3], d.strides[4]]),
                Slot::Axis(1),
                Slot::Axis(2),
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(shape: &[usize], order: &[usize]) -> Checked {
        contiguous_like(
            shape,
            &Checked {
                shape: shape.to_vec(),
                strides: {
                    // `order` lists axes outermost first.
                    let mut s = vec![0; shape.len()];
                    for (rank, &a) in order.iter().enumerate() {
                        s[a] = shape.len() - rank;
                    }
                    s
                },
            },
        )
    }

    /// Every element of the 5-D destination is written by exactly one unit of the last pass,
    /// and the first pass reads the source at the offsets its logical indices give.
    fn offsets4(v: &Checked4) -> Vec<usize> {
        let mut out = Vec::new();
        for n in 0..v.shape[0] {
            for c in 0..v.shape[1] {
                for h in 0..v.shape[2] {
                    for w in 0..v.shape[3] {
                        out.push(n * v.strides[0] + c * v.strides[1] + h * v.strides[2] + w * v.strides[3]);
                    }
                }
            }
        }
        out.sort();
        out
    }

    fn offsets5(v: &Checked) -> Vec<usize> {
        let mut out = Vec::new();
        let s = &v.strides;
        for a in 0..v.shape[0] {
            for b in 0..v.shape[1] {
                for c in 0..v.shape[2] {
                    for d in 0..v.shape[3] {
                        for e in 0..v.shape[4] {
                            out.push(a * s[0] + b * s[1] + c * s[2] + d * s[3] + e * s[4]);
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn common_layouts_fold_without_copies() {
        let (i, o) = ([2, 3, 4, 5, 6], [2, 3, 7, 2, 9]);
        for order in [[0, 1, 2, 3, 4], [0, 2, 3, 4, 1], [2, 0, 1, 4, 3], [4, 3, 2, 1, 0]] {
            let (src, dst) = (view(&i, &order), view(&o, &order));
            let route = route(&src, &dst, VolumeTables::default()).unwrap_or_else(|e| panic!("{order:?}: {e}"));
            assert_eq!(route.passes.len(), 2);
            // Each pass covers its views' elements exactly once.
            assert_eq!(offsets4(&route.passes[0].src.1), offsets5(&src), "{order:?}");
            assert_eq!(offsets4(&route.passes[1].dst.1), offsets5(&dst), "{order:?}");
        }
    }

    #[test]
    fn a_kept_depth_takes_the_plane_pass_alone() {
        let (i, o) = ([2, 3, 4, 5, 6], [2, 3, 4, 2, 9]);
        for order in [[0, 1, 2, 3, 4], [0, 2, 3, 4, 1], [2, 0, 1, 4, 3]] {
            let (src, dst) = (view(&i, &order), view(&o, &order));
            let kept = VolumeTables {
                depth_identity: true,
                depth_height: Some(ProductRows::Runs),
                product_any_layout: false,
                weighted_channels_last: false,
            };
            let route = route(&src, &dst, kept).unwrap_or_else(|e| panic!("{order:?}: {e}"));
            assert_eq!(route.passes.len(), 1, "{order:?}");
            assert_eq!(route.intermediate, 0);
            let pass = &route.passes[0];
            assert_eq!((pass.src.0, pass.dst.0), (Buffer::Caller, Buffer::Caller));
            assert_eq!((pass.rows, pass.cols), (Slot::Axis(1), Slot::Axis(2)));
            assert_eq!(offsets4(&pass.src.1), offsets5(&src), "{order:?}");
            assert_eq!(offsets4(&pass.dst.1), offsets5(&dst), "{order:?}");
        }
    }

    #[test]
    fn depth_and_height_read_as_one_axis_where_both_views_fold_them() {
        let (i, o) = ([2, 3, 4, 5, 6], [2, 3, 7, 2, 9]);
        let both = VolumeTables {
            depth_identity: false,
            depth_height: Some(ProductRows::Runs),
            product_any_layout: false,
            weighted_channels_last: false,
        };
        // NCDHW, NDHWC, and channels between depth and height (C H W D-like orders do not fold).
        for order in [[0, 1, 2, 3, 4], [0, 2, 3, 4, 1], [2, 3, 0, 1, 4]] {
            let (src, dst) = (view(&i, &order), view(&o, &order));
            let route = route(&src, &dst, both).unwrap_or_else(|e| panic!("{order:?}: {e}"));
            assert_eq!((route.passes.len(), route.intermediate), (1, 0), "{order:?}");
            let pass = &route.passes[0];
            assert_eq!((pass.rows, pass.cols), (Slot::DepthHeight, Slot::Axis(2)));
            assert_eq!(pass.src.1.shape, [2, 3, 20, 6]);
            assert_eq!(pass.dst.1.shape, [2, 3, 14, 9]);
            assert_eq!(offsets4(&pass.src.1), offsets5(&src), "{order:?}");
            assert_eq!(offsets4(&pass.dst.1), offsets5(&dst), "{order:?}");
        }
        // Height outside depth: no fold, two passes.
        let (src, dst) = (view(&i, &[0, 1, 3, 2, 4]), view(&o, &[0, 1, 3, 2, 4]));
        assert_eq!(route(&src, &dst, both).unwrap().passes.len(), 2);
        // Without the product table: two passes.
        let (src, dst) = (view(&i, &[0, 1, 2, 3, 4]), view(&o, &[0, 1, 2, 3, 4]));
        assert_eq!(route(&src, &dst, VolumeTables::default()).unwrap().passes.len(), 2);
        // Rows of several runs: channels-last only.
        let split = VolumeTables {
            depth_height: Some(ProductRows::SplitRuns),
            ..both
        };
        assert_eq!(route(&src, &dst, split).unwrap().passes.len(), 2, "NCDHW");
        // ... or in NCDHW under a forced runs kernel.
        let split_first = VolumeTables {
            product_any_layout: true,
            ..split
        };
        assert_eq!(route(&src, &dst, split_first).unwrap().passes.len(), 1, "NCDHW, runs forced");
        let (src, dst) = (view(&i, &[0, 2, 3, 4, 1]), view(&o, &[0, 2, 3, 4, 1]));
        assert_eq!(route(&src, &dst, split).unwrap().passes.len(), 1, "NDHWC");
        // Weighted rows: channels-last where the call's dtype takes them, or any layout forced.
        let weighted = VolumeTables {
            depth_height: Some(ProductRows::Weighted),
            ..both
        };
        let half = VolumeTables {
            weighted_channels_last: true,
            ..weighted
        };
        assert_eq!(route(&src, &dst, weighted).unwrap().passes.len(), 2, "NDHWC weighted, f32");
        assert_eq!(route(&src, &dst, half).unwrap().passes.len(), 1, "NDHWC weighted, half precision");
        let (src, dst) = (view(&i, &[0, 1, 2, 3, 4]), view(&o, &[0, 1, 2, 3, 4]));
        assert_eq!(route(&src, &dst, half).unwrap().passes.len(), 2, "NCDHW weighted, half precision");
        let forced = VolumeTables {
            product_any_layout: true,
            ..weighted
        };
        assert_eq!(route(&src, &dst, forced).unwrap().passes.len(), 1, "NCDHW weighted, forced");
    }

    #[test]
    fn a_layout_without_any_fold_is_a_typed_error() {
        // Every axis padded: no stride is another's size times its stride.
        let shape = vec![2, 3, 4, 5, 6];
        let strides = [3 * 5 * 6 * 8 * 11, 5 * 6 * 8 * 11, 6 * 8 * 11, 8 * 11, 11];
        let padded = Checked {
            shape: shape.clone(),
            strides: strides.iter().map(|s| s + 1).collect(),
        };
        let err = route(&padded, &view(&shape, &[0, 1, 2, 3, 4]), VolumeTables::default()).unwrap_err();
        assert!(matches!(err, InterpError::UnfoldableLayout { .. }), "{err}");
    }

    #[test]
    fn rank_three_reads_a_unit_height() {
        let src = Checked {
            shape: vec![2, 3, 10],
            strides: vec![30, 1, 3],
        };
        let dst = Checked {
            shape: vec![2, 3, 4],
            strides: vec![12, 1, 3],
        };
        let route = route(&src, &dst, VolumeTables::default()).unwrap();
        assert_eq!(route.passes[0].src.1.shape, [2, 3, 1, 10]);
        assert_eq!((route.passes[0].rows, route.passes[0].cols), (Slot::Identity(1), Slot::Axis(0)));
        assert!(route.passes[0].dst.1.channels_last());
    }
}
