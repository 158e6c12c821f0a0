//! The case matrix: every configuration (mode x antialias x align_corners x border) x geometry.

use interp_runtime::reference::{self, AxisTaps, Plan};
use interp_runtime::{Border, Mode, Options, Resize, Spatial};

#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    pub label: &'static str,
    pub input: [usize; 4],
    pub resize: Resize,
}

const fn size(label: &'static str, input: [usize; 4], height: usize, width: usize) -> Geometry {
    Geometry {
        label,
        input,
        resize: Resize::Size(Spatial::two(height, width)),
    }
}

/// Up 2x, down 2x and 3x, integer ratios on rows wide enough for the cells kernel's inner
/// units, non-integer ratios both ways, size-1 axes, a user scale factor.
/// Four and eight channels (vectors along channels in NHWC) and widths of 8 and 10 (vectors
/// along the width in NCHW); a wide row for strips of several outputs per unit; a tall
/// downsample whose tiles read more source rows than shared memory holds.
pub const GEOMETRIES: [Geometry; 12] = [
    size("up 2x", [2, 8, 6, 5], 12, 10),
    // Rows long enough for the cells kernel's inner units (8 outputs each along an upsample).
    size("up 2x x 4x wide", [1, 3, 5, 24], 10, 96),
    size("down 2x x 4x wide", [1, 3, 12, 96], 6, 24),
    size("down 2x", [2, 4, 12, 16], 6, 8),
    size("down 3x", [1, 3, 12, 9], 4, 3),
    size("5->13 x 13->5", [2, 3, 5, 13], 13, 5),
    size("13->5 x 5->13", [1, 2, 13, 5], 5, 13),
    size("1->4 x 7->1", [1, 2, 1, 7], 4, 1),
    size("4->1 x 1->3", [1, 2, 4, 1], 1, 3),
    size("3->2 x 160->72", [1, 2, 3, 160], 2, 72),
    size("200->2 x 3->3", [1, 2, 200, 3], 2, 3),
    Geometry {
        label: "scale 1.7 x 0.6",
        input: [1, 2, 7, 6],
        resize: Resize::Scale {
            factors: Spatial::two(1.7, 0.6),
            recompute: false,
        },
    },
];

/// A mode with the sampling options of one call (everything but the size).
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub mode: Mode,
    pub antialias: bool,
    pub align_corners: bool,
    pub border: Option<Border>,
}

impl Config {
    pub fn options(&self, resize: Resize) -> Options {
        let options = Options::new(resize).antialias(self.antialias).align_corners(self.align_corners);
        match self.border {
            Some(border) => options.border(border),
            None => options,
        }
    }

    pub fn label(&self) -> String {
        let mut label = self.mode.name().to_string();
        if self.antialias {
            label += " antialias";
        }
        if self.align_corners {
            label += " align_corners";
        }
        if let Some(border) = self.border {
            label += &format!(" {border:?}");
        }
        label
    }
}

/// Every configuration a call accepts: the samplers as they are; each filter plain, with
/// align_corners, with antialias and with both; the renormalize border without antialias on
/// two filters (the rule is the same code for all).
pub fn configs() -> Vec<Config> {
    let mut configs = Vec::new();
    let plain = |mode| Config {
        mode,
        antialias: false,
        align_corners: false,
        border: None,
    };
    for &mode in Mode::ALL {
        if mode.is_sampler() {
            configs.push(plain(mode));
            continue;
        }
        for antialias in [false, true] {
            for align_corners in [false, true] {
                configs.push(Config {
                    antialias,
                    align_corners,
                    ..plain(mode)
                });
            }
        }
        if matches!(mode, Mode::Bilinear | Mode::Lanczos3) {
            configs.push(Config {
                border: Some(Border::Renormalize),
                ..plain(mode)
            });
        }
    }
    configs
}

#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub config: Config,
    pub geometry: Geometry,
}

impl Case {
    pub fn options(&self) -> Options {
        self.config.options(self.geometry.resize)
    }

    pub fn plan(&self) -> Plan {
        reference::plan(self.config.mode, self.geometry.input, &self.options()).expect("valid case")
    }

    /// Reference tap lists for both axes.
    pub fn taps(&self) -> (AxisTaps, AxisTaps) {
        reference::taps(self.config.mode, self.geometry.input, &self.options()).expect("valid case")
    }

    pub fn name(&self) -> String {
        format!("{} {}", self.config.label(), self.geometry.label)
    }
}

/// Every configuration on every geometry.
pub fn all_cases() -> Vec<Case> {
    configs()
        .into_iter()
        .flat_map(|config| GEOMETRIES.into_iter().map(move |geometry| Case { config, geometry }))
        .collect()
}
