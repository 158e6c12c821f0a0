use interp_macros::filter;

filter! {
    /// PyTorch `mode="nearest"`: `j = min(floor(o * s), in - 1)` (the legacy OpenCV rule).
    pub struct Nearest {
        name: "nearest",
        support: 0.5,
        border: clamp,
        mapping: nearest,
        weight: |x| 1.0,
    }
}

filter! {
    /// PyTorch `mode="nearest-exact"`: `j = min(floor((o + 0.5) * s), in - 1)` (Pillow, scipy).
    pub struct NearestExact {
        name: "nearest-exact",
        support: 0.5,
        border: clamp,
        mapping: nearest_exact,
        weight: |x| 1.0,
    }
}
