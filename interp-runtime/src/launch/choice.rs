//! How a gather runs: the strategy (one pass, tiles, two passes), the vectorization of a
//! pass and whether its unit-tap kernels run, from the layout and the filter's taps.
//! Thresholds measured on an H200 (docs/PERFORMANCE.md); a call's [`Tuning`] overrides them
//! for experiments. The choice is a pure function of the shapes, the tables, the device and the
//! tuning: no timing, no environment.

use cubecl::prelude::*;
use interp_kernels::gather::{plane_shape, plane_shape_factored, MAX_STRIP, STRIP_GROUP, SUM_BLOCK, TILE_H, TILE_SOURCE_ROWS, TILE_W};

use super::io::GatherIo;
use super::table::DeviceTable;
use super::unit_channels::{channels_per_unit, planes_per_unit, PLANES_TARGET_UNITS};
use crate::error::InterpError;
use crate::options::Strategy;
use crate::tensor::Checked4;

/// Most loop iterations one kernel invocation may run on this runtime, if it caps them:
/// Mesa's llvmpipe (wgpu's software Vulkan) keeps ONE counter per invocation, set to 65535 and
/// decremented at the end of every iteration of every loop (gallivm's `loop_limiter`), and
/// ends all loops when it runs out, without an error. Real Vulkan, Metal and DX12 drivers do
/// not, but the wgpu runtime cannot tell them apart here, so the cap applies to every wgpu device.
pub(crate) fn loop_limit<R: Runtime>(client: &ComputeClient<R>) -> Option<u64> {
    R::name(client).starts_with("wgpu").then_some(65_535)
}

/// Loop iterations one gather invocation runs at most, as llvmpipe counts them: a loop that runs
/// `t` times costs `t + 1` (its last, exiting, test counts too; measured: an area 255x255 -> 1x1
/// one pass loses exactly one tap, 296x220 -> 1x1 loses 178). Per output: the row loop, `rows`
/// times, each running the column loop `cols` times: `1 + rows (cols + 2)`; a sum of more than
/// `SUM_BLOCK` pairs goes in blocks, one loop iteration and exit each: `2 ceil(rows / (SUM_BLOCK
/// / cols))` more for narrow rows, `2 ceil(cols / SUM_BLOCK)` more per row for wide ones; the
/// loops of the paths an output does not take, entered with no active lane, a few more (8,
/// counted); `outputs_per_unit` outputs in a loop of their own; plus the tiled kernel's fixed
/// per-tile loops and a margin.
pub(super) fn loop_iterations(outputs_per_unit: u64, rows: u64, cols: u64) -> u64 {
    let block = u64::from(SUM_BLOCK);
    let blocks = if cols > block {
        rows.saturating_mul(cols.div_ceil(block))
    } else {
        rows.div_ceil(block / cols.max(1))
    };
    let per_output = rows
        .saturating_mul(cols.saturating_add(2))
        .saturating_add(blocks.saturating_mul(2))
        .saturating_add(8);
    let outputs = outputs_per_unit.saturating_mul(per_output).saturating_add(outputs_per_unit + 1);
    outputs.saturating_add(4 * TILE_H as u64 + 64)
}

/// Refuses tables no strategy can sum under the runtime's loop cap. The cheapest in loop
/// iterations is two passes of one output per unit: `rows` then `cols` taps, each beside a
/// one-entry identity table.
pub(crate) fn check_loop_limit<R: Runtime>(client: &ComputeClient<R>, rows: usize, cols: usize) -> Result<(), InterpError> {
    let Some(max) = loop_limit(client) else { return Ok(()) };
    let (rows, cols) = (rows as u64, cols as u64);
    let iterations = loop_iterations(1, rows, 1).max(loop_iterations(1, 1, cols));
    if iterations <= max {
        return Ok(());
    }
    Err(InterpError::LoopLimit {
        iterations,
        rows,
        cols,
        runtime: R::name(client).to_string(),
        max,
    })
}

/// The strategy for `tap_pairs` per output, from the call's tuning or else measured rules
/// (docs/PERFORMANCE.md):
/// gathers of channel vectors (NHWC) go one pass unless the filter has very many tap pairs;
/// scalar gathers (NCHW) go through shared-memory tiles unless four tap pairs or fewer per
/// output make the one-pass kernels cheaper, or a tile's source rows would not fit shared
/// memory (then two passes above 16 pairs).
/// A strategy whose launch would not fit the device (tiles beyond its grid, an intermediate
/// beyond its largest allocation) falls back to one that does, so the choice stays a pure
/// function of the shapes and the device. Rows whose tap pairs exceed the runtime's loop cap
/// (`widths`: the widest row of each table; see [`loop_iterations`]) go two passes.
pub(super) fn strategy<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    tap_pairs: f64,
    widths: (u64, u64),
    channel_vector: usize,
) -> Strategy {
    let channel_vectors = channel_vector > 1;
    // One pass and tiles loop over every tap pair of an output; past the cap, two passes
    // (which `check_loop_limit` has made sure fit).
    if loop_limit(client).is_some_and(|max| loop_iterations(1, widths.0, widths.1) > max) {
        return Strategy::TwoPass;
    }
    let [n, c, h, w] = io.dst_view.shape;
    let (max_x, max_y, max_z) = client.properties().hardware.max_cube_count;
    let fits = |count: usize, max: u32| count <= max as usize;
    let tiles_fit = fits(w.div_ceil(TILE_W as usize), max_x) && fits(h.div_ceil(TILE_H as usize), max_y) && fits(n * c, max_z);
    let forced = io.tuning.strategy.filter(|_| !by_rule(io));
    let chosen = match forced {
        Some(Strategy::OnePass) => Strategy::OnePass,
        Some(Strategy::TwoPass) => Strategy::TwoPass,
        Some(Strategy::Tiled) if !channel_vectors => Strategy::Tiled,
        _ if channel_vectors => {
            if tap_pairs > 64.0 || passes_pay_with_channel_vectors(io, widths, channel_vector) {
                Strategy::TwoPass
            } else {
                Strategy::OnePass
            }
        }
        _ if tap_pairs > 16.0 && passes_beat_tiles(io, widths.0, tap_pairs) => Strategy::TwoPass,
        // Not for a one-row destination (a 1-D signal): all but one of a tile's `TILE_H` rows
        // of units would idle (H200: lanczos3-aa audio 48 kHz -> 16 kHz 0.31-0.33 ms in tiles,
        // 0.07 ms in two passes; docs/PERFORMANCE.md v15).
        _ if tap_pairs > 4.0 && h > 1 && tiles_stay_in_shared_memory(io, widths.0) => Strategy::Tiled,
        // Tiles that would fall back to the direct sum (a tall downsample: more source rows
        // than shared memory holds) lose to two passes above v4's 16 pairs.
        _ if tap_pairs > 16.0 => Strategy::TwoPass,
        _ => Strategy::OnePass,
    };
    let chosen = if chosen == Strategy::Tiled && !tiles_fit {
        if tap_pairs > 16.0 {
            Strategy::TwoPass
        } else {
            Strategy::OnePass
        }
    } else {
        chosen
    };
    if chosen == Strategy::TwoPass && intermediate_bytes(io) > client.properties().memory.max_page_size {
        return Strategy::OnePass;
    }
    chosen
}

/// Tap pairs of a channel-vector gather's widest rows from which two passes beat one where no
/// axis shrinks (`PASSES_PAIRS_SHRINKING` where one does), in f32 and f64; twice as many in
/// f16 and bf16.
const PASSES_PAIRS_GROWING: u64 = 16;
const PASSES_PAIRS_SHRINKING: u64 = 64;

/// Where two passes beat one for channel vectors below the 64 mean tap pairs of v4's rule
/// (measured on an H100, docs/PERFORMANCE.md v20, channels-last C = 64 against the default):
/// f32 bicubic up 2x 1.11-1.15x both ways (the adjoint: 64 pairs, shrinking), antialiased
/// bicubic 2x down 1.11x (64 pairs) and its adjoint 1.15x (16, growing), 4x down 1.27x
/// (adjoint), bilinear-aa 4x down 1.22x (64); lanczos3 up 2x (36 pairs) 1.88x in f32,
/// 1.31-1.33x in f16 and bf16. Lost, and outside the rule: the same filters in half precision
/// below 32 pairs growing (0.80-0.82x) and at 64 shrinking (0.89-0.97x), and every gather of
/// fewer pairs (plain bicubic, bilinear-aa and lanczos3 downsampling: 0.36-0.97x). Why it
/// generalizes: one pass loads `taps_y taps_x` channel vectors per output, two passes load
/// `taps_y + taps_x` and write and read an intermediate in the accumulator's type (f32), which
/// costs twice the tensors' element size in half precision: the pairs two passes need double
/// there. A shrinking gather has fewer outputs than inputs, so its one pass loads fewer vectors
/// per input read than a growing one: its threshold is higher. Only where the destination spans
/// `PLANES_TARGET_UNITS` vectors (about four waves): below, the second launch is not hidden
/// (ViT 24 -> 32 bicubic, 0.8 MB: 0.81x).
fn passes_pay_with_channel_vectors(io: &GatherIo, widths: (u64, u64), vector: usize) -> bool {
    let [_, _, src_h, src_w] = io.src_view.shape;
    let [n, c, dst_h, dst_w] = io.dst_view.shape;
    let growing = src_h <= dst_h && src_w <= dst_w;
    let base = if growing { PASSES_PAIRS_GROWING } else { PASSES_PAIRS_SHRINKING };
    let acc = io.dst_dtype.accumulator().size();
    let pairs = base * acc.div_ceil(io.element_bytes()) as u64;
    let vectors = n * c * dst_h * dst_w / vector.max(1);
    // Both axes weighted: a one-axis resize's second pass would only copy.
    let both_axes = widths.0 > 1 && widths.1 > 1;
    both_axes && widths.0.saturating_mul(widths.1) >= pairs && vectors >= PLANES_TARGET_UNITS
}

/// Most taps along an axis of the planes shapes picked by default: the one-axis 32-tap shapes
/// hold 64 table values per unit (128 registers: a quarter of the device's units resident),
/// and since the one-pass kernels read tap-major tables (coalesced loads, docs/PERFORMANCE.md
/// v15) they win: lanczos3-aa 4x and 3x 1.7-2.4x faster, bicubic-aa 4.8x 1.3x.
const MAX_DEFAULT_PLANE_TAPS: u32 = 16;

/// Widest channels-last pixel the planes kernel takes by default: one 16-byte vector.
const MAX_PLANES_PIXEL_BYTES: usize = 16;

/// A launch of the planes kernel (`pairs`: a unit per two vertically neighbouring pixels, the
/// factored shapes only), or of the blocks kernel (`block`: a unit per 2x2 block of pixels;
/// `short_rows`: its variant that serves short rows from the shared window): its (row taps,
/// column taps) shape and channels per unit (`vector > 1`: blocks of channels-last tensors in
/// vectors of that many channels, one vector a unit; `channels_fastest`: units in channel
/// order, as vectors always and wide channels-last pixels of scalars run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PlanesLaunch {
    pub shape: (u32, u32),
    pub planes: u32,
    pub vector: usize,
    pub channels_fastest: bool,
    pub block: bool,
    pub short_rows: bool,
    pub pairs: bool,
}

/// Whether a pixel's channels fit one 16-byte load (`MAX_PLANES_PIXEL_BYTES`): where
/// channels-last units ordered by column read well (planes, blocks), and past which the
/// blocks kernel orders them by channel.
pub(super) fn pixel_fits_one_load(io: &GatherIo) -> bool {
    io.dst_view.shape[1] * io.element_bytes() <= MAX_PLANES_PIXEL_BYTES
}

/// Whether both tensors are channels-last.
pub(super) fn both_channels_last(io: &GatherIo) -> bool {
    io.src_view.channels_last() && io.dst_view.channels_last()
}

/// Whether the factored planes shape runs in pairs of rows unless the tuning says otherwise
/// (`Tuning::plane_pairs`). Why it generalizes: a pair reads `row_taps + shift` source rows
/// for two outputs where two planes units read `2 row_taps` (a 2x downsample of 8 taps: 10
/// rows of 8 loads against 16), whatever the sizes, and keeps a warp's lanes on neighbouring
/// columns as the planes kernel does.
const PLANE_PAIRS_BY_DEFAULT: bool = true;

/// The planes kernel where it applies: scalar layouts (channel vectors have their own gathers)
/// whose tables fit one of `PLANE_SHAPES`, unless the tuning forces another strategy
/// (`vectorization`: what the other gathers would run). Why it generalizes: a one-pass unit
/// loads `2 + 2 (taps_y + taps_x) + 2 taps_y taps_x` table entries per output beside
/// `taps_y taps_x` source reads, which for cheap filters (nearest, bilinear, bicubic, area and
/// antialiasing at small ratios) is most of its work, whatever the shape; a planes unit loads
/// them once for several channels (`planes_per_unit`: up to 8, 16 in half precision, and no
/// fewer than 4 where the tensor leaves enough units). Left to the other gathers
/// (measured on the suite, docs/PERFORMANCE.md v11), unless forced:
/// - channels-last pixels wider than 16 bytes: a warp's lanes are 32 pixels, so each load
///   spans 32 pixels' channels (RGB f32: 4 cache lines; 21 f32 classes: 21, 0.6x slower);
/// - the factored 8x8 shape below a 2x downsample of both axes (see [`halves_both_axes`]), and
///   where channels are innermost (not measured there: two passes
///   already beat PyTorch 1.5-2x on channels-last RGB antialiasing);
/// - the one-axis shapes (a pass of up to 32 taps) where channels are innermost, unless few
///   channels' rows fill them (see [`one_axis_rows_fill`]): there the other gathers'
///   neighbouring units share their table entries, which loads broadcast;
/// - one channel per unit where width vectors apply (at most one tap pair per output): with
///   no channels to share the table loads, four outputs per unit and one vector store win
///   (1-D backward of a 3x bilinear downsample: 0.6x slower in planes);
/// - 1-D signals of one channel (see [`single_channel_signal`]);
/// - the one-axis shapes of more than `MAX_DEFAULT_PLANE_TAPS` taps.
pub(super) fn planes(io: &GatherIo, widths: (u64, u64), mean_taps: (f64, f64), vectorization: Vectorization) -> Option<PlanesLaunch> {
    let forced = io.tuning.strategy == Some(Strategy::Planes);
    if matches!(vectorization, Vectorization::Channels(v) if v > 1) || !(forced || by_rule(io)) {
        return None;
    }
    let narrow = |width: u64| u32::try_from(width.max(1)).unwrap_or(u32::MAX);
    let shape = plane_shape(narrow(widths.0), narrow(widths.1))?;
    if !forced && shape.0.max(shape.1) > MAX_DEFAULT_PLANE_TAPS {
        return None;
    }
    let factored = plane_shape_factored(shape);
    if factored && (shape.0 > io.tuning.max_plane_taps.unwrap_or(u32::MAX) || !(forced || halves_both_axes(io))) {
        return None;
    }
    let channels_last = io.dst_view.channels_last();
    let square = shape.0 == shape.1 && !factored;
    let channels_last_ok = (square || one_axis_rows_fill(shape, mean_taps)) && pixel_fits_one_load(io);
    if !forced && channels_last && !channels_last_ok {
        return None;
    }
    let pairs = factored && io.tuning.plane_pairs.unwrap_or(PLANE_PAIRS_BY_DEFAULT);
    let pixels = 1 + usize::from(pairs);
    // Width vectors win where a unit would serve one channel at the target's count (v11); the
    // floor of `planes_per_unit` was measured only where planes already ran.
    if !forced && channels_per_unit(io, pixels) == 1 && matches!(vectorization, Vectorization::Width(v) if v > 1) {
        return None;
    }
    if !forced && single_channel_signal(io) {
        return None;
    }
    Some(PlanesLaunch {
        shape,
        planes: planes_per_unit(io, pixels),
        vector: 1,
        channels_fastest: false,
        block: false,
        short_rows: false,
        pairs,
    })
}

/// Least share of a one-axis shape's taps its rows must hold (mean entries) for the planes
/// kernel to take it in channels-last layouts.
const ONE_AXIS_MIN_FILL: f64 = 0.75;

/// Whether `shape` is a one-axis shape whose rows fill it (`ONE_AXIS_MIN_FILL`): where the
/// planes kernel runs channels-last passes of few channels (measured on an H100, RGB
/// antialiased downsampling forward, docs/PERFORMANCE.md v20): both passes of 16 full taps
/// (bilinear-aa 8x, bicubic-aa 4x: 1080p, 4K, 4096^2, 512^2) 1.2-1.9x faster than one output
/// per unit in `separable_gather`; rows of 11 in the 16-tap shape (1080 -> 224, 0.69 of it)
/// lost (0.59-0.82x), as did 24 of 32 taps (lanczos3-aa 4x, forced: 0.70x). Why: the planes
/// unit runs the shape's taps unrolled, a select past a row's count, so its cost follows the
/// shape while the other kernel's follows the row; in return it loads a pixel's table entries
/// once for its channels, where one output per unit loads them once per channel.
fn one_axis_rows_fill(shape: (u32, u32), mean_taps: (f64, f64)) -> bool {
    let (long, mean) = if shape.0 == 1 {
        (shape.1, mean_taps.1)
    } else {
        (shape.0, mean_taps.0)
    };
    shape.0.min(shape.1) == 1 && long > 1 && mean >= ONE_AXIS_MIN_FILL * f64::from(long)
}

/// A 1-D signal of one channel (one row, one channel per batch): left to the one-pass gathers
/// where they serve several outputs per unit (strips, width vectors; measured on the H200's
/// suite, docs/PERFORMANCE.md v14: audio 48 kHz -> 16 kHz area forward 1.8-2.1x and bilinear
/// forward 1.1-1.2x faster). Why: a planes unit holds one pixel's table entries in registers
/// to share them over its channels; with one channel nothing is shared, while a strip's units
/// share table loads (broadcast) and serve several outputs each. With many taps (lanczos3-aa)
/// v14 kept them in planes (the other gathers lost 0.35-0.65x); since the one-pass kernels
/// read tap-major tables (v15: coalesced table loads) they win there too (H200 sweep,
/// docs/PERFORMANCE.md v16: lanczos3-aa 48 kHz -> 16 kHz backward 0.182 -> 0.087 ms).
fn single_channel_signal(io: &GatherIo) -> bool {
    let [_, c, h, _] = io.dst_view.shape;
    c == 1 && h == 1 && io.src_view.shape[2] == 1
}

/// Whether the default rules pick the gather: no strategy forced, or the cells or runs kernel
/// forced where it does not apply (`cells` and `runs` run first and decline then; their
/// fallback is the default, so that a sweep with either forced times the default wherever it
/// does not run).
pub(super) fn by_rule(io: &GatherIo) -> bool {
    matches!(io.tuning.strategy, None | Some(Strategy::Cells | Strategy::Runs))
}

/// Whether the gather downsamples both axes by 2x or more: where the factored 8x8 planes
/// shape beats tiles (measured on the H200's suite against v11's rules, docs/PERFORMANCE.md
/// v12): antialiased 2x-4x downsamples 1.6-2.6x faster forward, backward of 2x-4x bicubic and
/// bilinear upsampling 1.5-2.7x; at smaller ratios (1.1x-1.5x: 224 <- 299, 768 -> 512, an
/// upsample's lanczos forward) 0.7-0.9x. Why it generalizes: a tile of `TILE_H` rows reads
/// `(TILE_H - 1) * ratio + taps` source rows, so below 2x its row sums are reused by several
/// outputs, while the planes unit reads all `taps_y * taps_x` pairs per output.
fn halves_both_axes(io: &GatherIo) -> bool {
    let [_, _, src_h, src_w] = io.src_view.shape;
    let [_, _, dst_h, dst_w] = io.dst_view.shape;
    src_h >= 2 * dst_h && src_w >= 2 * dst_w
}

/// Whether a tile's source rows fit the tiled kernel's shared memory, so it takes its fast
/// path: `TILE_H` consecutive destination rows read about `(TILE_H - 1) * ceil(src_h / dst_h)`
/// rows plus one row's taps (`row_taps`, the rows table's width). Past `TILE_SOURCE_ROWS` the
/// kernel sums every tap pair of every output directly, as one pass does but with one
/// output per unit and scattered reads (seen on the H200's workload suite, 2026-12-03: 8x
/// antialiased and 64x area downsamples at 0.04-0.3x PyTorch's forward).
fn tiles_stay_in_shared_memory(io: &GatherIo, row_taps: u64) -> bool {
    let (src_h, dst_h) = (io.src_view.shape[2] as u64, io.dst_view.shape[2] as u64);
    let rows = (TILE_H as u64 - 1) * src_h.div_ceil(dst_h) + row_taps;
    rows <= TILE_SOURCE_ROWS as u64
}

/// Where two passes beat tiles that fit shared memory (measured on the H200's workload suite,
/// docs/PERFORMANCE.md v11): a tile of `TILE_H` rows sums `(TILE_H - 1) * ratio + row_taps`
/// source rows along the width. From a 4x downsample of the height on, that is most of the
/// work, and two passes (one axis each, in the planes kernel for scalar layouts) win when
/// - channels are innermost but too few for channel vectors (RGB): tiles are built per channel
///   plane, so their reads stride over the channels (2.1-3.2x faster forward for bicubic-aa,
///   1.0-1.8x for bilinear-aa, 2.5x for a 4x upsample's backward), or
/// - the rows hold 16 taps or more (bicubic and lanczos antialiasing, the backward of a 4x
///   bicubic upsample): 1.1-1.25x; below that (bilinear-aa) tiles stay ahead (0.8-0.97x).
///
/// Since v23 the row pass reads a contiguous width in vectors (`row_vectors`), and since v25
/// two passes also take NCHW gathers of many tap pairs that shrink both axes by less
/// ([`passes_pay_when_shrinking`]; `Tuning::passes_when_shrinking` overrides it).
fn passes_beat_tiles(io: &GatherIo, row_taps: u64, tap_pairs: f64) -> bool {
    let (src_h, dst_h) = (io.src_view.shape[2] as u64, io.dst_view.shape[2] as u64);
    let from_4x = src_h.div_ceil(dst_h.max(1)) >= 4 && (io.src_view.channels_last() || row_taps >= 16);
    let shrinking = match io.tuning.passes_when_shrinking {
        Some(on) => on,
        None => passes_pay_when_shrinking(io, tap_pairs),
    };
    from_4x || (shrinking && shrinks_both_axes(io))
}

/// Fewest tap pairs per output for which two passes take an NCHW gather that shrinks both
/// axes below 4x by default.
const PASSES_WHEN_SHRINKING_MIN_PAIRS: f64 = 64.0;

/// Whether two passes beat tiles on a gather that shrinks both axes below 4x (measured on an
/// H100, `bench/ab_stop33.sh`, docs/PERFORMANCE.md v25: tiles against two passes on every
/// such gather of the suite): in NCHW with at least `PASSES_WHEN_SHRINKING_MIN_PAIRS` tap
/// pairs: CLIP's 512 -> 224 bicubic-aa forward (83 pairs) 1.04-1.11x, Stable Diffusion's
/// 768 -> 512 lanczos3-aa forward (81) 1.15-1.18x, the adjoint of lanczos3's 2x upsample (144)
/// 1.64-1.65x. Fewer pairs lost (Stable Diffusion's bicubic-aa, 36: 0.96-0.98x; the adjoints
/// of Inception's, timm's and ViT's bicubic upsamples, 20-28: 0.67-0.99x), and so did every
/// channels-last one (RGB: 0.71-0.89x). Why it generalizes: a tile of `TILE_H` rows sums
/// `(TILE_H - 1) * ratio + row_taps` source rows along the width, each tap's table entries
/// loaded per row and channel plane, so its work grows with the product of the taps, while
/// two passes do `taps_y + taps_x` per output plus an intermediate (smaller than the source
/// when both axes shrink) written and read once: the more pairs, the more the passes save.
/// Channels-last RGB tiles read their plane's rows with a stride of the channels, as do the
/// passes, which add the intermediate's traffic to no gain. Not from 4x on, where v11's rule
/// keeps rows of fewer than 16 taps in tiles (bilinear-aa; forced passes on 1080p -> 224's
/// bilinear-aa forward: 0.91-1.06x, v24).
fn passes_pay_when_shrinking(io: &GatherIo, tap_pairs: f64) -> bool {
    let nchw = !io.src_view.channels_last() && !io.dst_view.channels_last();
    let below_4x = io.src_view.shape[2] < 4 * io.dst_view.shape[2];
    nchw && below_4x && tap_pairs >= PASSES_WHEN_SHRINKING_MIN_PAIRS
}

/// Whether the gather shrinks both axes (the caller has more than 16 tap pairs): where two
/// passes, their row pass in width vectors, may beat tiles ([`passes_pay_when_shrinking`]).
fn shrinks_both_axes(io: &GatherIo) -> bool {
    let [_, _, src_h, src_w] = io.src_view.shape;
    let [_, _, dst_h, dst_w] = io.dst_view.shape;
    src_h > dst_h && src_w > dst_w
}

/// Shape of the two-pass intermediate, and whether the width is resampled first: the axis
/// that leaves the smaller intermediate goes first.
pub(super) fn intermediate_shape(io: &GatherIo) -> ([usize; 4], bool) {
    let [n, c, dst_h, dst_w] = io.dst_view.shape;
    let [_, _, src_h, src_w] = io.src_view.shape;
    let width_first = src_h * dst_w <= dst_h * src_w;
    let shape = if width_first { [n, c, src_h, dst_w] } else { [n, c, dst_h, src_w] };
    (shape, width_first)
}

fn intermediate_bytes(io: &GatherIo) -> u64 {
    let (shape, _) = intermediate_shape(io);
    shape.iter().map(|&d| d as u64).product::<u64>() * io.dst_dtype.accumulator().size() as u64
}

/// Whether to run the unit-tap kernels, given that both tables qualify (nearest mappings):
/// they pay where rows hold taps; in the mostly empty adjoint tables of a downsample the
/// generic kernels (fewer registers) are faster (measured on an H200: docs/PERFORMANCE.md, v9).
pub(super) fn unit_taps(tables_qualify: bool, tap_pairs: f64) -> bool {
    tables_qualify && tap_pairs >= 1.0
}

/// How the gather is vectorized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Vectorization {
    /// `n` channels per unit (channels contiguous in both tensors: NHWC).
    Channels(usize),
    /// `n` consecutive outputs along the width per unit (destination width-contiguous: NCHW).
    Width(usize),
    /// `n` outputs per unit along the width, interleaved so loads stay coalesced when the
    /// source is wider than the destination (NCHW, backward of an upsample).
    Strips(u32),
    /// `strip` pixels' outputs of one channel (`vector` 1: channels-last destinations whose
    /// channels make no vectors) or of one vector of `vector` channels per unit, interleaved
    /// with a group of pixels (see [`pixel_group`]); the kernel's variant: `single_tap` (unit
    /// taps, one a row) or `fixed_taps` per axis (weighted, unrolled), else loops.
    PixelStrips {
        vector: usize,
        strip: u32,
        single_tap: bool,
        fixed_taps: u32,
    },
}

/// Most tap pairs per output for which interleaved strips beat one output per unit: the
/// tuning's, else 4 (measured: docs/bench-v7-strips.txt).
fn strip_max_pairs(io: &GatherIo) -> f64 {
    io.tuning.strip_max_pairs.unwrap_or(4.0)
}

/// Upper bound on vector widths: the tuning's (at least 1), else none.
pub(super) fn max_vector(io: &GatherIo) -> usize {
    io.tuning.max_vector.map_or(usize::MAX, |v| v.max(1))
}

/// Widest vector the layouts allow: along channels when both tensors have them contiguous,
/// else, for cheap filters (about one tap pair per output), along the destination's width
/// when it is contiguous, else scalar. Several outputs per unit serialize their tap loops,
/// which only pays when there are few taps (measured on an H200: docs/PERFORMANCE.md).
/// Several outputs per unit also multiply the loop iterations of an invocation, so under a
/// runtime's loop cap (see [`loop_limit`]) wide tables keep one output per unit.
pub(super) fn vectorization<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, tap_pairs: f64, widths: (u64, u64)) -> Vectorization {
    let chosen = preferred_vectorization(client, io, tap_pairs);
    let outputs_per_unit = match chosen {
        Vectorization::Channels(_) => 1,
        Vectorization::Width(v) => v as u64,
        Vectorization::Strips(strip) | Vectorization::PixelStrips { strip, .. } => u64::from(strip),
    };
    match loop_limit(client) {
        Some(max) if loop_iterations(outputs_per_unit, widths.0, widths.1) > max => Vectorization::Channels(1),
        _ => chosen,
    }
}

/// Whether `v` divides the strides of `t`'s axes `dims` (an axis of length 1 has no stride to
/// divide): indices along them stay whole vectors.
pub(super) fn strides_divide(t: &Checked4, v: usize, dims: &[usize]) -> bool {
    dims.iter().all(|&d| t.strides[d].is_multiple_of(v) || t.shape[d] == 1)
}

fn preferred_vectorization<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, tap_pairs: f64) -> Vectorization {
    let [_, channels, _, width] = io.dst_view.shape;
    let cap = max_vector(io);
    let element = io.element_bytes();
    let mut sizes = client.io_optimized_vector_sizes(element).filter(move |&v| v <= cap);
    let along_channels = sizes.clone().find(|&v| {
        v > 1
            && channels.is_multiple_of(v)
            && [&io.src_view, &io.dst_view]
                .iter()
                .all(|t| t.strides[1] == 1 && strides_divide(t, v, &[0, 2, 3]))
    });
    if let Some(v) = along_channels {
        return Vectorization::Channels(v);
    }
    let dst = &io.dst_view;
    if dst.strides[1] == 1 && channels > 1 && width > 1 && tap_pairs <= strip_max_pairs(io) {
        // Channels-last, channels in no vectors: a unit per channel of several pixels.
        let strip = (width / pixel_group(channels) as usize).clamp(1, MAX_STRIP as usize).min(cap) as u32;
        if pixel_strip_units(dst.shape, strip) <= u32::MAX as usize {
            return Vectorization::PixelStrips {
                vector: 1,
                strip,
                single_tap: false,
                fixed_taps: 0,
            };
        }
    }
    if dst.strides[3] != 1 || width == 1 {
        return Vectorization::Channels(1);
    }
    // Vector stores pay off while neighbouring units read neighbouring source columns; a
    // wider source would make each load instruction strided: interleaved strips instead.
    let wider_source = io.src_view.shape[3] > width;
    if !wider_source && tap_pairs <= 1.0 {
        if let Some(v) = sizes.find(|&v| v > 1 && width.is_multiple_of(v) && strides_divide(dst, v, &[0, 1, 2])) {
            return Vectorization::Width(v);
        }
    }
    if tap_pairs > if wider_source { strip_max_pairs(io) } else { 1.0 } {
        return Vectorization::Channels(1);
    }
    let strip = (width / STRIP_GROUP as usize).clamp(1, MAX_STRIP as usize).min(cap);
    // Strips round each row up to whole groups: their unit count must fit the u32 index.
    if strip_units(dst.shape, strip as u32) > u32::MAX as usize {
        return Vectorization::Channels(1);
    }
    Vectorization::Strips(strip as u32)
}

/// Whether a gather whose kernel has the variant reads table rows by their first index (plane
/// loops: both tables; the one-output gather: the column table, its rows one index load a row):
/// where every row of both tables reads consecutive indices, unless the tuning says otherwise
/// (`Tuning::contiguous_rows`). Why it generalizes: a weighted sum then loads a
/// weight and a source value per tap instead of an index, a weight and a value, whatever the
/// filter or ratio; every filter's table is contiguous once its border taps are merged, so
/// the rule's reach is nearly every weighted gather (docs/PERFORMANCE.md v33).
pub(super) fn contiguous_rows(io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable) -> bool {
    rows.contiguous && cols.contiguous && io.tuning.contiguous_rows.unwrap_or(true)
}

/// Whether the one-output-per-unit gather in channel order reads tap-major tables, its pixels
/// holding `units_per_pixel` units of `vector` channels each: the tuning's choice, else for
/// scalar channels (channels that make no vectors: RGB, 19 or 21 classes) where a pixel holds
/// fewer units than a warp (`STRIP_GROUP`). Measured on an H100 (docs/PERFORMANCE.md v31,
/// every channels-last case of the suite against row-major tables): RGB 1080p -> 224
/// antialiased forward 1.18-1.37x, the adjoints of 19- and 21-class logits upsampling
/// 1.04-1.18x; channel vectors lost 2-5% (64 channels in 8 or 16 units a pixel, 16 f32
/// channels in 4). Why: a warp's load of one tap then serves several pixels, whose slots are
/// consecutive tap-major and a row apart row-major (RGB at 35 taps a row: 11 pixels' slots
/// over 1.5 KB, a dozen cache lines a table load, against one); units of channel vectors
/// hold more registers, and row-major slots cost one less.
///
/// Vectors of channels read row-major whatever the tuning: their tap-major variants spilled
/// registers (CUDA, f32 vectors of 4: the kernels check), so they are not built.
pub(super) fn channel_tables_tap_major(io: &GatherIo, units_per_pixel: usize, vector: usize) -> bool {
    vector == 1 && io.tuning.channel_tables_tap_major.unwrap_or(units_per_pixel < STRIP_GROUP as usize)
}

/// Pixels in a pixel-strips group of `channels` channels: enough that a group spans a warp
/// (`STRIP_GROUP` elements), so each of its load and store instructions covers consecutive
/// addresses.
pub(super) fn pixel_group(channels: usize) -> u32 {
    STRIP_GROUP.div_ceil(channels.max(1) as u32)
}

/// Units of a pixel-strips launch over a destination of `shape` (channels in the units'
/// vectors).
pub(super) fn pixel_strip_units([n, c, h, w]: [usize; 4], strip: u32) -> usize {
    let pixels = pixel_group(c) as usize;
    n * h * w.div_ceil(pixels * strip as usize) * pixels * c
}

/// Units of a strips launch over a destination of `shape`.
pub(super) fn strip_units([n, c, h, w]: [usize; 4], strip: u32) -> usize {
    let group = STRIP_GROUP as usize;
    n * c * h * w.div_ceil(group * strip as usize) * group
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One-axis shapes whose rows hold at least three quarters of their taps, and no others:
    /// 16 of 16 (bilinear-aa 8x), 12 of 16; not 11 of 16 (1080 -> 224), nor square shapes.
    #[test]
    fn one_axis_rows_fill_their_shape() {
        assert!(one_axis_rows_fill((16, 1), (16.0, 1.0)));
        assert!(one_axis_rows_fill((1, 16), (1.0, 15.9)));
        assert!(one_axis_rows_fill((16, 1), (12.0, 1.0)));
        assert!(!one_axis_rows_fill((16, 1), (11.0, 1.0)));
        assert!(!one_axis_rows_fill((1, 16), (16.0, 10.3)));
        assert!(!one_axis_rows_fill((4, 4), (4.0, 4.0)));
        assert!(!one_axis_rows_fill((1, 1), (1.0, 1.0)));
    }
}
