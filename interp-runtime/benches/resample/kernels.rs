//! Device-side helpers of the benchmark: fill with pseudo-random values (no host upload of
//! gigabytes), and the device-to-device copy that serves as the memory roofline.

use interp_runtime::cubecl;
use interp_runtime::cubecl::prelude::*;

/// `out[i]` = a hash of (i, seed) mapped to [-1, 1).
#[cube(launch_unchecked)]
pub fn fill_random<F: Float>(out: &mut Array<F>, seed: u32) {
    let i = ABSOLUTE_POS;
    if i >= out.len() {
        terminate!();
    }
    let mut h = (i as u32) ^ seed;
    h = (h ^ (h >> 16)) * 0x7feb_352du32;
    h = (h ^ (h >> 15)) * 0x846c_a68bu32;
    h ^= h >> 16;
    out[i] = F::cast_from(f32::cast_from(h >> 8) * (2.0 / 16_777_216.0) - 1.0);
}

/// `dst = src`, 16 bytes per unit.
#[cube(launch_unchecked)]
pub fn copy<N: Size>(src: &Array<Vector<u32, N>>, dst: &mut Array<Vector<u32, N>>) {
    let i = ABSOLUTE_POS;
    if i < src.len() {
        dst[i] = src[i];
    }
}
