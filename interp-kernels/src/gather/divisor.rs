//! Division by a launch-time constant in a multiply-high and two shifts.
//!
//! A 32-bit division by a value the compiler cannot see compiles to about 16 instructions on
//! CUDA (a float reciprocal, its correction steps); a unit's coordinates take three of them.
//! The gathers of half-precision and cheap filters are bound by instruction issue (H200
//! counters, docs/PERFORMANCE.md v16), so each layout carries its extents' magic numbers,
//! computed on the host (Granlund and Montgomery's round-up method, exact for every 32-bit
//! dividend).

use cubecl::prelude::*;

/// `value` with the multiplier and shifts that divide by it: `q = (t + ((x - t) >> first)) >>
/// second`, `t = mul_hi(x, multiplier)`.
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct Divisor {
    pub value: u32,
    pub multiplier: u32,
    pub first_shift: u32,
    pub second_shift: u32,
}

/// The multiplier and shifts of [`Divisor`] for `value` (a zero value, which no launch
/// divides by, gets the identity's).
pub fn divisor_parts(value: u32) -> (u32, u32, u32) {
    if value <= 1 {
        // t = mul_hi(x, 0) = 0, q = x.
        return (0, 0, 0);
    }
    // l = ceil(log2 value) in 1..=32; m = floor(2^32 (2^l - value) / value) + 1 < 2^32.
    let l = 32 - (value - 1).leading_zeros();
    let m = ((1u64 << 32) * ((1u64 << l) - u64::from(value))) / u64::from(value) + 1;
    (m as u32, 1, l - 1)
}

#[cube]
impl Divisor {
    /// `(x / value, x % value)`.
    pub fn div_mod(&self, x: u32) -> (u32, u32) {
        let t = u32::mul_hi(x, self.multiplier);
        let q = (t + ((x - t) >> self.first_shift)) >> self.second_shift;
        (q, x - q * self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::divisor_parts;

    fn divide(x: u32, d: u32) -> u32 {
        let (m, s1, s2) = divisor_parts(d);
        let t = ((u64::from(x) * u64::from(m)) >> 32) as u32;
        (t + ((x - t) >> s1)) >> s2
    }

    #[test]
    fn matches_integer_division() {
        let divisors = (1..=1000u32).chain([
            1023,
            1024,
            1025,
            65535,
            65536,
            65537,
            1 << 31,
            (1 << 31) + 1,
            u32::MAX - 1,
            u32::MAX,
        ]);
        let mut state = 0x9e37_79b9_u32;
        for d in divisors {
            let edges = [
                0,
                1,
                d - 1,
                d,
                d.wrapping_add(1),
                u32::MAX,
                u32::MAX - 1,
                u32::MAX / d * d,
                (u32::MAX / d * d).wrapping_sub(1),
            ];
            for x in edges {
                assert_eq!(divide(x, d), x / d, "{x} / {d}");
            }
            for _ in 0..200 {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                assert_eq!(divide(state, d), state / d, "{state} / {d}");
            }
        }
    }
}
