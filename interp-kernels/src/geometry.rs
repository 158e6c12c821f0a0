//! Comptime description of how an output index maps onto input taps along one axis.
//!
//! Shared by the device kernels (`taps.rs`) and the host launcher, which sizes tables from it.

/// How the taps of one output sample are chosen and weighted along an axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TapRule {
    /// PyTorch's non-antialiased linear/cubic: `2*ceil(support)` taps around `src`, indices
    /// clamped to the edge (replicate border), weights used as they are.
    Clamp,
    /// Pillow's convolution: taps inside the (possibly widened) support that fall in the image,
    /// weights renormalized to sum to one.
    Renormalize,
    /// PyTorch `nearest`: `j = min(floor(o * s), in - 1)`.
    Nearest,
    /// PyTorch `nearest-exact`: `j = min(floor((o + 0.5) * s), in - 1)`.
    NearestExact,
    /// Adaptive average pooling: the exact integer window `[floor(o*in/out), ceil((o+1)*in/out))`.
    Area,
}

/// Border policy of a filter, as written in a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Border {
    /// Tap indices clamped to the edge (replicate), weights not renormalized.
    Clamp,
    /// Taps outside the image dropped and the remaining weights renormalized.
    Renormalize,
}

/// Coordinate mapping of a filter, as written in a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mapping {
    /// Continuous half-pixel (or align_corners) source coordinate; taps from the support.
    Center,
    /// `floor(o * s)`.
    Nearest,
    /// `floor((o + 0.5) * s)`.
    NearestExact,
    /// Exact integer windows of adaptive average pooling.
    Area,
}

impl TapRule {
    /// Whether every table row of this rule reads consecutive indices, all with weight one:
    /// true of the nearest mappings (one tap of weight one per output; the outputs reading an
    /// input form a range since `floor` is monotone), used by the gathers to skip weight loads.
    pub const fn unit_contiguous_taps(self) -> bool {
        matches!(self, TapRule::Nearest | TapRule::NearestExact)
    }

    /// The tap rule a declaration's border policy and mapping select.
    pub const fn from_parts(border: Border, mapping: Mapping) -> Self {
        match (mapping, border) {
            (Mapping::Nearest, _) => TapRule::Nearest,
            (Mapping::NearestExact, _) => TapRule::NearestExact,
            (Mapping::Area, _) => TapRule::Area,
            (Mapping::Center, Border::Clamp) => TapRule::Clamp,
            (Mapping::Center, Border::Renormalize) => TapRule::Renormalize,
        }
    }
}
