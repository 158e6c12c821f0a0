use crate::filter;

filter! {
    /// Lanczos-3: `sinc(x) sinc(x / 3)` (Pillow's LANCZOS with antialias).
    pub struct Lanczos3 {
        name: "lanczos3",
        support: 3.0,
        weight: |x| if abs(x) < SUPPORT { sinc(x) * sinc(x / SUPPORT) } else { 0.0 },
    }
}
