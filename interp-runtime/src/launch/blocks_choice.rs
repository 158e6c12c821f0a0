//! When the blocks kernel runs a gather (a unit per 2x2 block of outputs sharing one source
//! window): its shapes, vectors and unit order, and where it beats the planes kernel and the
//! channel gathers. Measured rules, like `choice`'s; a forced `Strategy::Blocks` takes them
//! wherever they apply.

use interp_kernels::gather::{block_shape, block_vector, BLOCK};

use super::choice::{both_channels_last, by_rule, pixel_fits_one_load, PlanesLaunch, Vectorization};
use super::io::GatherIo;
use super::unit_channels::planes_per_unit;
use crate::dtype::DType;
use crate::options::Strategy;

/// The blocks kernel where it applies: gathers in f16, bf16 or f32 whose tables' widest rows
/// are exactly one of `BLOCK_SHAPES` (2, 3, 4 or 6 taps per axis), in scalar layouts or in
/// vectors of channels of the runtime's widest width for the dtype (`widest_vector`: 16 bytes
/// on CUDA and HIP; the width the kernels check builds them in, halved for shapes too wide for
/// it: `block_vector`, half precision's 6x6 in 4 lanes), unless the tuning forces
/// another strategy; by default where [`blocks_pay`] (scalar) or [`channel_blocks_pay`]
/// (vectors). Channels-last pixels wider than `MAX_PLANES_PIXEL_BYTES` whose channels make no
/// vectors run in channel order (one channel a unit), by default where the gather grows with
/// full rows (measured on an H100, docs/PERFORMANCE.md v29, the six channels-last logits
/// upsamples of 19, 21 and 171 classes: forward 1.13-1.16x against pixel strips in f32 and
/// bf16). Why it generalizes: column-ordered units would read a pixel apart, channel-ordered
/// ones read a pixel's neighbouring channels, and a block's window serves four outputs where
/// each pixel strip's unit reads its own taps.
pub(super) fn blocks(
    io: &GatherIo,
    widths: (u64, u64),
    mean_taps: (f64, f64),
    vectorization: Vectorization,
    widest_vector: usize,
) -> Option<PlanesLaunch> {
    let forced = io.tuning.strategy == Some(Strategy::Blocks);
    if !(forced || by_rule(io)) {
        return None;
    }
    let vector = match vectorization {
        Vectorization::Channels(v) => v,
        _ => 1,
    };
    // Built for one pass in a call's own f16, bf16 or f32 (its f64 variants spilled registers),
    // and from a volume's f32 intermediate into f16 or bf16 (the plane pass of an upsampling
    // volume: planes ran it 1.8x slower than blocks run the f32 one) in scalar layouts.
    let into_half = io.src_dtype == DType::F32 && io.dst_dtype.size() == 2 && vector == 1;
    if !(io.src_dtype == io.dst_dtype || into_half) || io.dst_dtype == DType::F64 {
        return None;
    }
    if vector > 1 && vector != widest_vector {
        return None;
    }
    let narrow = |width: u64| u32::try_from(width).unwrap_or(u32::MAX);
    let shape = block_shape(narrow(widths.0), narrow(widths.1))?;
    // Shapes too wide for the widest vector take the narrower one the kernels check builds
    // (channels dividing the wider vector divide it too, and so do the strides).
    let vector = if vector > 1 { block_vector(shape, vector) } else { 1 };
    // Channels-last pixels wider than a 16-byte load whose channels make no vectors (21
    // classes): scalars in channel order, so that a warp's lanes read a pixel's neighbouring
    // channels (block columns fastest, each lane's loads would be a pixel apart).
    let wide_pixels = vector == 1 && io.src_dtype == io.dst_dtype && both_channels_last(io) && !pixel_fits_one_load(io);
    let channels_fastest = vector > 1 || wide_pixels;
    let pays = if channels_fastest {
        io.tuning.channel_blocks.unwrap_or_else(|| match vector {
            1 => grows_with_full_rows(io, widths, mean_taps),
            _ => channel_blocks_pay(io, shape, widths, mean_taps),
        })
    } else {
        blocks_pay(io, widths, mean_taps)
    };
    if !forced && !pays {
        return None;
    }
    let block = BLOCK as usize;
    Some(PlanesLaunch {
        shape,
        // In channel order, one vector (or channel) a unit, so that a warp's lanes read a
        // pixel's neighbouring ones.
        planes: if channels_fastest { 1 } else { planes_per_unit(io, block * block) },
        vector,
        channels_fastest,
        block: true,
        short_rows: io.tuning.block_short_rows.unwrap_or(true),
        pairs: false,
    })
}

/// Where blocks of channel vectors beat the other channel gathers by default (measured on an
/// H100, docs/PERFORMANCE.md v27, 100 channels-last cases whose channels make vectors, against
/// `Tuning::channel_blocks = Some(false)`): as for scalar layouts, gathers along which no axis
/// shrinks whose rows are full enough that a block's window holds no more values than its
/// outputs' own taps (`2 mean >= taps + 1`), in the shapes of 3 taps or more per axis. There:
/// bicubic 2x upsampling forward 1.72x in half precision and 1.37x in f32 (SR features,
/// the tricubic volume's f32 plane pass 1.34x, ViT's position embedding 1.2-1.45x), lanczos3
/// 1.32x in f32, the adjoints of antialiased and lanczos3 downsampling (3x3 and 4x4 adjoint
/// rows) 1.3-1.8x. Not the 2x2 shape (bilinear, the adjoints of 2x and 4x downsampling of
/// four taps): 0.90-0.95x in f32, 0.94-1.05x in half precision, where channel strips already
/// share a pixel's table entries and its 4 loads are few. Why it generalizes: a unit of the
/// one-pass gather loads `taps_y taps_x` channel vectors and its table entries per output, a
/// block `(taps_y + 1) (taps_x + 1)` for four (bicubic: 25 against 64, 6x6: 49 against 144)
/// and its table entries once: the saving grows with the taps and vanishes at 2x2 (9 against
/// 16, beside the block's guards and 4 accumulators per lane).
fn channel_blocks_pay(io: &GatherIo, shape: (u32, u32), widths: (u64, u64), mean_taps: (f64, f64)) -> bool {
    shape.0.min(shape.1) >= CHANNEL_BLOCKS_MIN_TAPS && grows_with_full_rows(io, widths, mean_taps)
}

/// Fewest taps per axis of the shapes blocks of channel vectors take by default.
const CHANNEL_BLOCKS_MIN_TAPS: u32 = 3;

/// Fewest destination columns for which blocks are picked: a warp's 32 blocks then span one
/// row pair (64 columns), so each of its window reads stays within two source rows.
const BLOCKS_MIN_WIDTH: usize = 64;

/// Where blocks beat the planes kernel by default (measured on the H200's suite, every NCHW
/// case with `--strategy blocks` (short rows from the window) against the default,
/// docs/PERFORMANCE.md v14): NCHW gathers (and few-channel channels-last ones:
/// [`blocks_pay_channels_last`]) along which no axis shrinks, whose rows are full enough
/// that a block's window of `taps + 1` per axis holds no more values than its two outputs'
/// own taps (`2 mean >= taps + 1`: the forward of bilinear and bicubic upsampling, the
/// adjoints of antialiased and of ~2x downsampling), into destinations at least
/// `BLOCKS_MIN_WIDTH` wide. Forward:
/// bicubic up 2x 2.0-2.6x faster (any channel count), bilinear 1.1-1.5x; backward of
/// antialiased downsampling 1.1-3x. The 6x6 shape (H100, docs/PERFORMANCE.md v20): lanczos3
/// up 2x 1.18x in f32, 1.05x in f16/bf16 (against tiles), the adjoints of lanczos3-aa
/// downsampling 1.04-1.08x at 1.5x, 2.0-2.2x at 4x. Why it generalizes: a block shares its table entries and
/// its source window over four pixels (bicubic: 25 reads for 4 outputs instead of 64), and
/// since short rows (clamped edges, odd last rows) are read from the same window no warp
/// splits between two paths. Outside the rule blocks lost: tables of mostly one-entry rows
/// (the adjoint of a plain 4x downsample: 0.4x, where the unit-tap kernels read one value per
/// output), destinations of 14-28 columns (0.8x: a warp's reads span five source rows). The
/// fill bound was 3/4 of the widest row until v25 (the same 1.5 for 2-tap rows); forced 3x3
/// blocks ran ImageNet's 375x500 -> 256 bicubic backward (3-wide rows holding 2.73 and 2.04
/// entries) 3.3x faster in NCHW and 2.5x in channels-last bf16 (H100, docs/PERFORMANCE.md
/// v25), below that bound and above this one.
///
/// With fewer than `FEW_CHANNELS` channels the fill bound is `2 mean >= taps` (docs/PERFORMANCE.md
/// v31, H100, forced blocks against the default on the suite and on bench/validation-blocks.json):
/// the adjoints of bilinear shrinks by 1.46x-1.95x (ImageNet's 375x500 -> 256^2: rows of 1.0-1.4
/// entries in 2-wide tables) 1.56-1.80x in NCHW, 1.24x channels-last bf16; of 1.5x and 1.6x
/// (720p -> 480p, 480x640 -> 300x400, 1.25-1.33 entries) 1.55-1.80x in NCHW, 1.41-1.45x
/// channels-last bf16. With 64 channels the same 1.6x adjoint ran 0.95x (f32) and 1.01x
/// (bf16): there the planes kernel already spreads a pixel's table entries over 8-16 channels,
/// where RGB's units serve at most three, so the entries a block shares over four pixels are
/// what saves.
fn blocks_pay(io: &GatherIo, widths: (u64, u64), mean_taps: (f64, f64)) -> bool {
    let nchw = !io.src_view.channels_last() && !io.dst_view.channels_last();
    let rows = if io.dst_view.shape[1] < FEW_CHANNELS {
        RowsFill::Sparse
    } else {
        RowsFill::Full
    };
    (nchw || blocks_pay_channels_last(io, widths))
        && io.dst_view.shape[3] >= BLOCKS_MIN_WIDTH
        && grows_with_rows(io, widths, mean_taps, rows)
}

/// Channels below which the scalar blocks rule takes sparser rows ([`RowsFill::Sparse`]).
const FEW_CHANNELS: usize = 4;

/// How full a table's rows must be for blocks to take a growing gather.
#[derive(Clone, Copy)]
enum RowsFill {
    /// `2 mean >= taps + 1`: a block's window of `taps + 1` values per axis holds no more
    /// than its two outputs' own taps.
    Full,
    /// `2 mean >= taps`: a window of at most one value more than the two outputs' taps (few
    /// channels, where a block's shared table entries pay for it).
    Sparse,
}

/// Whether no axis of the gather shrinks and its tables' rows are as full as `rows` says on
/// both axes: the ground both blocks rules ([`blocks_pay`], [`channel_blocks_pay`]) share.
fn grows_with_rows(io: &GatherIo, widths: (u64, u64), mean_taps: (f64, f64), rows: RowsFill) -> bool {
    let [_, _, src_h, src_w] = io.src_view.shape;
    let [_, _, dst_h, dst_w] = io.dst_view.shape;
    let extra = match rows {
        RowsFill::Full => 1,
        RowsFill::Sparse => 0,
    };
    let full = |mean: f64, width: u64| 2.0 * mean >= (width + extra) as f64;
    src_h <= dst_h && src_w <= dst_w && full(mean_taps.0, widths.0) && full(mean_taps.1, widths.1)
}

/// [`grows_with_rows`] with full rows: the channel-vector and channel-order rules.
fn grows_with_full_rows(io: &GatherIo, widths: (u64, u64), mean_taps: (f64, f64)) -> bool {
    grows_with_rows(io, widths, mean_taps, RowsFill::Full)
}

/// Where blocks also pay in channels-last tensors (measured on an H100, docs/PERFORMANCE.md
/// v20): pixels of at most 16 bytes whose channels make no vectors (RGB), where the default
/// ran a unit per pixel (planes, pixel strips). Bicubic (4x4) in every dtype: upsampling
/// forward 1.6-2.4x (720p 2x and 4x, 224 -> 299, 256 -> 288), the adjoints of antialiased
/// bicubic downsampling 2.1-2.4x (1080p, 4K, 4096^2, 512^2 at 2x-4.8x), 1.3-1.4x at 1.5x;
/// 2x2 in f16 and bf16: bilinear-aa adjoints 1.5-1.6x, 224 -> 299 bilinear 1.2x; 6x6 (the
/// adjoints of lanczos3-aa downsampling) 1.10x at 1.5x, 2.1-2.5x at 4x. Not 2x2 in f32
/// (0.79-0.83x on the same five workloads; v31: 0.73-0.79x on the adjoints of 1.33x-2.3x
/// bilinear shrinks): a block's twelve scattered 4-byte stores (lanes two pixels, 24 bytes,
/// apart) for a 3x3 window; the larger windows of the 3x3 (since v31), 4x4 and 6x6 shapes and
/// the 2-byte stores of half precision carry them. The 3x3 shape in f32 (v31, H100: the
/// adjoints of bicubic shrinks by 1.33x-1.95x, ImageNet's 375x500 -> 256^2, 720p -> 480p,
/// 480x640 -> 300x400, 400^2 -> 300^2) 1.63-1.85x. Why it generalizes: as in NCHW, a block
/// shares its table entries and its window over four pixels, and with few channels a warp's
/// reads stay within a few lines of each source row.
fn blocks_pay_channels_last(io: &GatherIo, widths: (u64, u64)) -> bool {
    both_channels_last(io) && pixel_fits_one_load(io) && (widths.0.min(widths.1) >= F32_CHANNELS_LAST_MIN_TAPS || io.element_bytes() <= 2)
}

/// Fewest taps per axis of the blocks shapes channels-last pixels of f32 (or f64) take by
/// default: 3x3 and up (v31), not 2x2.
const F32_CHANNELS_LAST_MIN_TAPS: u64 = 3;
