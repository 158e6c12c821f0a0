//! `filter!`: declare an interpolation mode in a few lines.
//!
//! ```ignore
//! interp_macros::filter! {
//!     /// Triangle filter with PyTorch's replicate border.
//!     pub struct Bilinear {
//!         name: "bilinear",
//!         support: 1.0,
//!         border: clamp,
//!         align_corners: true,
//!         weight: |x| max(0.0, 1.0 - abs(x)),
//!     }
//! }
//! ```
//!
//! Keys: `name` (string), `support` (radius at scale 1, > 0), `border` (`clamp` |
//! `renormalize`), optional `antialias` (widen the support when downsampling), `mapping`
//! (`center` | `nearest` | `nearest_exact` | `area`), `align_corners` (accepts the option), and
//! `weight` (a closure of the signed distance using numbers, `+ - * /`, comparisons, `abs sin
//! cos exp sqrt floor min max`, `PI`, `if`/`else`, `let`, and `const NAME = value` entries).
//! The parsing, validation and expansion live in `interp-dsl`.

use proc_macro::TokenStream;

/// Declares a filter: a unit struct implementing `interp_kernels::Filter` (description and f64
/// weight), `interp_kernels::FilterWeight` (the `#[cube]` f32 weight) and
/// `interp_kernels::FilterKernels` (the mode's forward and adjoint table kernels).
#[proc_macro]
pub fn filter(input: TokenStream) -> TokenStream {
    interp_dsl::expand_declaration(input.into()).into()
}
