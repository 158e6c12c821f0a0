//! What a declared mode is: a host-side description plus a device weight function.
//! `interp_macros::filter!` implements both traits from one declaration.

use cubecl::prelude::*;

use crate::geometry::{Border, Mapping, TapRule};

/// The declarative facts of a mode, readable on the host.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FilterDesc {
    /// Name used in errors, tables and benchmarks (for example `"bicubic-aa"`).
    pub name: &'static str,
    /// Support radius at scale 1, in input pixels.
    pub support: f64,
    /// Border policy.
    pub border: Border,
    /// Whether the support widens by the scale when downsampling (antialias).
    pub antialias: bool,
    /// Coordinate mapping.
    pub mapping: Mapping,
    /// Whether the mode accepts `align_corners = true`.
    pub align_corners: bool,
}

impl FilterDesc {
    /// The tap rule the kernels use for this mode.
    pub const fn rule(&self) -> TapRule {
        TapRule::from_parts(self.border, self.mapping)
    }
}

/// A declared interpolation filter: description, f64 CPU weight and `#[cube]` device weight.
pub trait Filter: FilterWeight {
    /// The declaration's facts.
    const DESC: FilterDesc;
    /// The weight function in f64, for references and tests.
    fn weight_f64(x: f64) -> f64;
}

/// The device side of a filter: its weight as a `#[cube]` function of the signed distance `x`.
#[cube]
pub trait FilterWeight: 'static + Send + Sync {
    fn weight(x: f32) -> f32;
}
