//! How many channels one unit of the planes, blocks or cells kernel serves: a unit pays its
//! coordinates and table entries once for all of them, and each channel's sum is the same
//! whatever the count (the same bits).

use super::io::GatherIo;

/// Units a planes launch aims for: an H200 holds about 270 thousand resident units (132 SMs x
/// 2048), so about four waves keep the last one short while each unit serves several channels.
pub(super) const PLANES_TARGET_UNITS: usize = 1 << 20;

/// Most channels one planes (or blocks) unit serves in f32 and f64: past 8 the table loads
/// saved are a small share of the source reads, and fewer units hide less latency.
const MAX_PLANES: usize = 8;

/// Most channels one planes (or blocks) unit serves in half precision. These gathers are bound
/// by instruction issue, not bytes (H200 counters, docs/PERFORMANCE.md v16: issue slots 50-80%
/// busy, DRAM 4-30%, where f32 runs near its DRAM share): a unit's setup (coordinates through
/// four 32-bit divisions, its table entries: about 180 instructions for 2x2 taps against about
/// 30 per output) is worth spreading over more channels. Measured over every NCHW half-precision
/// case of the suite (16 against 8 channels per unit, two A/B runs): forward 1.04-1.06x,
/// backward 1.06-1.09x geo-mean faster, 0.93x at worst (launch-sized nearest cases); f32 did
/// not gain (0.98x, 0.72x at worst), so it keeps 8.
const MAX_PLANES_HALF: usize = 16;

/// Fewest channels a planes or blocks unit serves by default, where the tensor is too small to
/// reach `PLANES_TARGET_UNITS` with more (docs/PERFORMANCE.md v28, H100, every suite case under
/// 64 MB that these kernels serve, four channels against the one to three the target gave):
/// the FPN's nearest backward 1.16x (f32) and 1.37x (bf16), batch-128 14^2 maps' backward
/// 1.05-1.33x, ViT's position embedding forward 1.27x, the adjoints of antialiased 768 -> 512
/// downsampling (blocks) 1.25-1.57x, 224 -> 299 forward 1.06-1.24x, the U-Net/VAE/SDXL
/// upsamples' backward 1.03-1.11x; nothing slower than 0.98x. Confirmed as built over the 177
/// cases whose smaller side holds under 16M elements (against `Tuning::least_planes = 1`):
/// 1.02x forward and 1.03x backward geo-mean, none slower beyond its noise, the raised ones as
/// above plus 4x-8x antialiased downsampling forward 1.05-1.10x. Why it generalizes: below the
/// target a launch fills the device in one or two waves whatever the channels per unit, so
/// time is the chain of one unit (coordinates, table entries, loads, stores), and a unit of
/// four channels has four independent loads in flight behind one chain where four units
/// repeat it. The cells kernel keeps the target's count (its rows of cells share their
/// entries already: the same override there ran 0.91-1.33x, no rule).
const LEAST_PLANES: usize = 4;

/// Fewest units the raised count leaves (about 500 units, 16 warps, per SM of an H200): below
/// it a launch would leave SMs without the warps that hide its loads' latency. Not measured (no
/// suite case is that small where planes or blocks run): a guard, so that the floor never
/// empties the device.
const LEAST_PLANES_UNITS: usize = 1 << 16;

/// Channels per unit for `units_of_one` units of one channel each over `channels` channels: as
/// many (up to `most`) as leave about `PLANES_TARGET_UNITS` units, at least `least` while that
/// leaves `LEAST_PLANES_UNITS` units; never more than the channels.
fn per_unit(units_of_one: usize, channels: usize, most: usize, least: usize) -> usize {
    let spread = (units_of_one / PLANES_TARGET_UNITS).clamp(1, most);
    let raised = least.min(units_of_one / LEAST_PLANES_UNITS).max(1);
    spread.max(raised).min(channels.max(1))
}

/// The most channels a unit serves by default in the call's element size.
fn most(io: &GatherIo) -> usize {
    if io.element_bytes() <= 2 {
        MAX_PLANES_HALF
    } else {
        MAX_PLANES
    }
}

/// Channels one unit serves, for units of `pixels` destination pixels each, with `least` the
/// fewest by default; the tuning's count (`Tuning::planes`) where set.
fn channels(io: &GatherIo, pixels: usize, least: usize) -> u32 {
    let [n, c, h, w] = io.dst_view.shape;
    let count = match io.tuning.planes {
        Some(planes) => planes.max(1).min(c.max(1)),
        None => per_unit(n * c * h * w / pixels.max(1), c, most(io), least),
    };
    count as u32
}

/// Channels one unit of the cells kernel serves (and what the planes rule weighs against
/// width vectors): as many as leave about `PLANES_TARGET_UNITS` units.
pub(super) fn channels_per_unit(io: &GatherIo, pixels: usize) -> u32 {
    channels(io, pixels, 1)
}

/// Channels one unit of the planes or blocks kernel serves: as `channels_per_unit`, at least
/// `LEAST_PLANES` (`Tuning::least_planes`) where that leaves enough units.
pub(super) fn planes_per_unit(io: &GatherIo, pixels: usize) -> u32 {
    channels(io, pixels, io.tuning.least_planes.unwrap_or(LEAST_PLANES).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The target's count on large tensors, the floor on small ones, the guard on tiny ones.
    #[test]
    fn small_tensors_take_four_channels_a_unit() {
        let one = |units, channels| per_unit(units, channels, MAX_PLANES, 1);
        let four = |units, channels| per_unit(units, channels, MAX_PLANES, LEAST_PLANES);
        // Large: the target's count, up to the most, with or without the floor.
        assert_eq!(four(33 << 20, 256), 8);
        assert_eq!(four(6 << 20, 256), 6);
        assert_eq!(one(6 << 20, 256), 6);
        // The FPN's nearest backward (8x256x25x38 units of one pixel): one without the floor.
        assert_eq!(one(8 * 256 * 25 * 38, 256), 1);
        assert_eq!(four(8 * 256 * 25 * 38, 256), 4);
        // ViT's position embedding forward (768x32x32).
        assert_eq!(four(768 * 32 * 32, 768), 4);
        // Never more than the channels (RGB), never fewer units than the guard allows.
        assert_eq!(four(4 << 20, 3), 3);
        assert_eq!(four(3 * LEAST_PLANES_UNITS, 64), 3);
        assert_eq!(four(LEAST_PLANES_UNITS - 1, 64), 1);
        // Half precision's most.
        assert_eq!(per_unit(40 << 20, 512, MAX_PLANES_HALF, LEAST_PLANES), 16);
    }
}
