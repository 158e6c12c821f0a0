//! The case matrix: every mode x align_corners x geometry.

use interp_runtime::reference::{axis_taps, AxisTaps};
use interp_runtime::{plan, InterpolateOptions, Mode, Plan, Resize};

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
        resize: Resize::Size { height, width },
    }
}

/// Up 2x, down 2x and 3x, non-integer ratios both ways, size-1 axes, a user scale factor.
/// Four and eight channels (vectors along channels in NHWC) and widths of 8 and 10 (vectors
/// along the width in NCHW); a wide row for strips of several outputs per unit; a tall
/// downsample whose tiles read more source rows than shared memory holds.
pub const GEOMETRIES: [Geometry; 10] = [
    size("up 2x", [2, 8, 6, 5], 12, 10),
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
            height: 1.7,
            width: 0.6,
            recompute: false,
        },
    },
];

#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub mode: Mode,
    pub align_corners: bool,
    pub geometry: Geometry,
}

impl Case {
    pub fn options(&self) -> InterpolateOptions {
        InterpolateOptions::new(self.mode, self.geometry.resize).align_corners(self.align_corners)
    }

    pub fn plan(&self) -> Plan {
        plan(&self.mode.desc(), self.geometry.input, &self.options().resize_options()).expect("valid case")
    }

    /// Reference tap lists for both axes.
    pub fn taps(&self) -> (AxisTaps, AxisTaps) {
        let plan = self.plan();
        let desc = self.mode.desc();
        let weight = |x| self.mode.weight_f64(x);
        (axis_taps(&desc, weight, &plan.rows), axis_taps(&desc, weight, &plan.cols))
    }

    pub fn name(&self) -> String {
        format!(
            "{}{} {}",
            self.mode,
            if self.align_corners { " align_corners" } else { "" },
            self.geometry.label
        )
    }
}

/// Every mode with every align_corners value it accepts, on every geometry.
pub fn all_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for &mode in Mode::ALL {
        let aligns: &[bool] = if mode.desc().align_corners { &[false, true] } else { &[false] };
        for &align_corners in aligns {
            for geometry in GEOMETRIES {
                cases.push(Case {
                    mode,
                    align_corners,
                    geometry,
                });
            }
        }
    }
    cases
}
