use interp_macros::filter;

filter! {
    /// PyTorch `mode="bilinear"`: triangle filter, replicate border.
    pub struct Bilinear {
        name: "bilinear",
        support: 1.0,
        border: clamp,
        align_corners: true,
        weight: |x| max(0.0, 1.0 - abs(x)),
    }
}

filter! {
    /// PyTorch `mode="bilinear", antialias=True` (Pillow BILINEAR): the triangle widened by the
    /// scale when downsampling, border taps dropped and weights renormalized.
    pub struct BilinearAa {
        name: "bilinear-aa",
        support: 1.0,
        border: renormalize,
        antialias: true,
        align_corners: true,
        weight: |x| max(0.0, 1.0 - abs(x)),
    }
}
