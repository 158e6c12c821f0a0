use interp_runtime::filter;

// An integer beyond u64, integers past 2^53 (not exact in f64), a float that overflows f64,
// and a typed suffix.
filter! {
    pub struct Bad {
        name: "bad",
        support: 1.0,
        const HUGE = 18446744073709551616,
        const INEXACT = 9007199254740993,
        const INFINITE = 1e400,
        weight: |x| if abs(x) < 1.0f32 { 1.0 - abs(x) } else { 0.0 },
    }
}

fn main() {}
