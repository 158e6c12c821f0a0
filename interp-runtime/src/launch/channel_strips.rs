//! Channel strips: how many pixels' channel vectors one unit of a channels-last one-pass gather
//! serves, and which kernel variant runs them. A unit of one output pays six divisions for its
//! coordinates and waits on its chain of table and source loads; a strip pays the divisions
//! once and has several pixels' loads in flight (the same sums: the same bits). The default
//! rule is the A/B of docs/PERFORMANCE.md v18 over every channels-last case of the suite.

use cubecl::prelude::*;
use interp_kernels::gather::{CHANNEL_STRIPS, STRIP_FIXED_TAPS};

use super::choice::{pixel_strip_units, Vectorization};
use super::io::GatherIo;

/// Fewest units a strips launch keeps by default: about half the resident threads of an H100
/// or H200 (132 SMs x 2048). Below it the latency that fewer units no longer hide outweighs
/// the shared coordinates (ViT position embeddings 24 -> 32, 49-98 thousand units: 0.53-0.82x).
const MIN_STRIP_UNITS: usize = 1 << 17;

/// Most tap pairs per output for which strips of the loop variant pay by default: up to 16
/// (bicubic) they won 1.03-1.65x; at 36 (lanczos3 2x up) 0.93-1.01x, as a strip's outputs then
/// spend their time in their own loops, not in the coordinates they share.
const MAX_LOOP_STRIP_PAIRS: f64 = 16.0;

/// The kernel variant that runs a strip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StripVariant {
    /// Every row one weight-one tap (nearest forward): no loops, all loads before the stores.
    SingleTap,
    /// Weighted rows of at most `STRIP_FIXED_TAPS` taps per axis, unrolled (bilinear, area 2x).
    FixedTaps,
    /// Weighted rows of any length in `weighted_sum`'s loops.
    Loops,
}

/// What the default rule reads from a gather.
#[derive(Clone, Copy, Debug)]
pub(super) struct StripGather {
    pub variant: StripVariant,
    /// Mean tap pairs per output (below 1: mostly empty rows, the adjoint of a downsample).
    pub tap_pairs: f64,
    /// Whether the destination is at least as wide as the source (upsampled columns, the
    /// adjoint of a downsample): neighbouring pixels of a strip then read the same source
    /// vectors, where in a narrowing gather each reads its own.
    pub widening: bool,
}

/// Pixels per unit by default (`None`: one), given the units a strip of each length launches.
/// Measured (H100, strips of 4 and 2 against one pixel, each case twice interleaved): single
/// taps 1.10-1.64x at every ratio; fixed taps 1.07-1.70x widening, 1.01-1.21x narrowing where
/// strips of 2 beat 4; loops 1.03-1.65x widening at up to 16 tap pairs, 0.5-0.97x narrowing
/// (the adjoints of upsamples, antialiased downsamples); mostly empty rows 0.69-0.98x.
pub(super) fn default_strip(gather: StripGather, units: impl Fn(u32) -> usize) -> Option<u32> {
    if gather.tap_pairs < 1.0 {
        return None;
    }
    let longest = match gather.variant {
        StripVariant::SingleTap => 4,
        StripVariant::FixedTaps if gather.widening => 4,
        StripVariant::FixedTaps => 2,
        StripVariant::Loops if gather.widening && gather.tap_pairs <= MAX_LOOP_STRIP_PAIRS => 4,
        StripVariant::Loops => return None,
    };
    CHANNEL_STRIPS
        .iter()
        .rev()
        .copied()
        .filter(|&s| s <= longest)
        .find(|&s| units(s) >= MIN_STRIP_UNITS)
}

/// Pixel strips for a one-pass gather of `v`-channel vectors (channels-last) whose tables hold
/// `tap_pairs` per output and at most `widths` taps a row, if that variant is built
/// (`CHANNEL_STRIPS` at the runtime's widest vectors in a call's own dtype; of unit taps only
/// `single_tap` ones; the fixed shape where both `widths` fit it and the sums are f32) and the
/// tuning or else the default rule asks for a strip length. f64 (vectors of 2) was not measured:
/// it takes strips only when asked.
pub(super) fn channel_strips<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    v: usize,
    (unit_taps, single_tap): (bool, bool),
    widths: (u64, u64),
    tap_pairs: f64,
) -> Option<Vectorization> {
    let widest = client.io_optimized_vector_sizes(io.element_bytes()).max().unwrap_or(1);
    let [n, c, h, w] = io.dst_view.shape;
    let units = |strip| pixel_strip_units([n, c / v, h, w], strip);
    let f32_sums = io.dst_dtype.accumulator().size() == 4;
    let fixed = fixed_taps_fit(io, unit_taps, widths);
    let variant = match (single_tap, fixed) {
        (true, _) => StripVariant::SingleTap,
        (false, true) => StripVariant::FixedTaps,
        (false, false) => StripVariant::Loops,
    };
    let strip = match io.tuning.channel_strip {
        Some(strip) => strip,
        None if f32_sums => {
            let widening = io.src_view.shape[3] <= w;
            default_strip(
                StripGather {
                    variant,
                    tap_pairs,
                    widening,
                },
                units,
            )?
        }
        None => return None,
    };
    let built = CHANNEL_STRIPS.contains(&strip) && v > 1 && v == widest && io.src_dtype == io.dst_dtype && unit_taps == single_tap;
    // Strips round each row up to whole groups: their unit count must fit the u32 index.
    let fits = units(strip) <= u32::MAX as usize;
    (built && fits).then_some(Vectorization::PixelStrips {
        vector: v,
        strip,
        single_tap,
        fixed_taps: if fixed { STRIP_FIXED_TAPS } else { 0 },
    })
}

/// Whether the fixed-shape variant can sum a strip's outputs: weighted rows (not unit taps) of
/// at most `STRIP_FIXED_TAPS` taps on both axes (`widths`), with f32 sums (the f64 variant
/// spilled, so it is not built).
fn fixed_taps_fit(io: &GatherIo, unit_taps: bool, widths: (u64, u64)) -> bool {
    !unit_taps && widths.0.max(widths.1) <= u64::from(STRIP_FIXED_TAPS) && io.dst_dtype.accumulator().size() == 4
}

/// Whether strips of scalar outputs (NCHW strips, channels-last pixel strips of one channel)
/// may run their unrolled variants: built for a call's own dtype; on unless the tuning turns
/// them off.
pub(super) fn unrolled_strips(io: &GatherIo) -> bool {
    io.src_dtype == io.dst_dtype && io.tuning.strip_unrolled.unwrap_or(true)
}

/// The variant of a pixel strip of scalar channels (channels-last, channels that make no
/// vectors: `strip` pixels of one channel per unit): the unrolled ones where the tables fit
/// them and they are built (a call's own dtype; single taps with any sums, the fixed 2x2 shape
/// with f32 sums: `fixed_taps_fit`), unless the tuning turns them off; loops otherwise. Why by default: the loops
/// variant issues each tap's table and source loads one iteration after the other, the
/// unrolled ones issue a strip's loads together and load the row's taps once, as the channel
/// vectors' variants do (measured on an H100, docs/PERFORMANCE.md v22: DeepLab's 21 classes
/// bilinear 8x 1.59-1.62x, the single taps of NCHW strips 1.45-1.68x, no case slower; v18's
/// channel vectors 1.07-1.70x and 1.10-1.64x); the same sums in the same order, so the same
/// bits.
pub(super) fn scalar_strip(io: &GatherIo, strip: u32, (unit_taps, single_tap): (bool, bool), widths: (u64, u64)) -> Vectorization {
    let unrolled = unrolled_strips(io);
    let single_tap = unrolled && single_tap;
    let fixed = unrolled && fixed_taps_fit(io, unit_taps, widths);
    Vectorization::PixelStrips {
        vector: 1,
        strip,
        single_tap,
        fixed_taps: if fixed { STRIP_FIXED_TAPS } else { 0 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(variant: StripVariant, tap_pairs: f64, widening: bool, units_of_one: usize) -> Option<u32> {
        default_strip(
            StripGather {
                variant,
                tap_pairs,
                widening,
            },
            |s| units_of_one / s as usize,
        )
    }

    #[test]
    fn strips_by_default_where_measured() {
        use StripVariant::*;
        let many = 1 << 22;
        // Nearest forward, up or down.
        assert_eq!(strip(SingleTap, 1.0, true, many), Some(4));
        assert_eq!(strip(SingleTap, 1.0, false, many), Some(4));
        // Bilinear and area 2x: 4 widening, 2 narrowing.
        assert_eq!(strip(FixedTaps, 4.0, true, many), Some(4));
        assert_eq!(strip(FixedTaps, 4.0, false, many), Some(2));
        // Loops: widening up to 16 tap pairs (bicubic up, adjoints of downsamples).
        assert_eq!(strip(Loops, 16.0, true, many), Some(4));
        assert_eq!(strip(Loops, 1.0, true, many), Some(4));
        assert_eq!(strip(Loops, 36.0, true, many), None, "lanczos3 up");
        assert_eq!(strip(Loops, 4.0, false, many), None, "adjoint of an upsample");
        // Mostly empty rows (adjoint of a 4x bilinear downsample: a quarter tap pair an output).
        assert_eq!(strip(FixedTaps, 0.25, true, many), None);
        assert_eq!(strip(Loops, 0.5, true, many), None);
    }

    #[test]
    fn strips_keep_enough_units() {
        use StripVariant::*;
        // Strips of 4 would leave too few units; strips of 2 do not.
        assert_eq!(strip(SingleTap, 1.0, true, 4 * MIN_STRIP_UNITS - 4), Some(2));
        assert_eq!(strip(SingleTap, 1.0, true, 4 * MIN_STRIP_UNITS), Some(4));
        // ViT position embeddings 24 -> 32 in f32: 196608 units of one pixel.
        assert_eq!(strip(Loops, 16.0, true, 196_608), None);
    }
}
