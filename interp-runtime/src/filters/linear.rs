use crate::filter;

filter! {
    /// The triangle (tent) filter: PyTorch's `linear`, `bilinear` and `trilinear`, Pillow's
    /// BILINEAR with antialias.
    pub struct Linear {
        name: "linear",
        support: 1.0,
        weight: |x| max(0.0, 1.0 - abs(x)),
    }
}
