//! The user's filters through interp-runtime's one entry point on the default runtime, under
//! every sampling a call can choose, against the f64 reference built from hand-written copies
//! of the weights (so a wrong expansion of `filter!` shows): forward (gather) and backward
//! (scatter).

use interp_runtime::cubecl::prelude::*;
use interp_runtime::testing::{download, poisoned, quantize, random, relative_error, upload, LAYOUTS};
use interp_runtime::{interpolate, interpolate_backward, reference, DType, DefaultRuntime, Filter, Method, Options};
use interp_user_mode::{CosineRamp, Welch};

/// Up 2x, down 3x, odd sizes both ways.
const CASES: [([usize; 4], usize, usize); 4] = [
    ([2, 3, 6, 7], 12, 14),
    ([1, 4, 15, 18], 5, 6),
    ([2, 2, 5, 13], 13, 5),
    ([1, 8, 9, 4], 4, 9),
];

/// A filter written out by hand, as the reference's side of the comparison.
struct ByHand {
    support: f64,
    weight: fn(f64) -> f64,
}

impl Filter for ByHand {
    fn name(&self) -> &str {
        "by-hand"
    }
    fn support(&self) -> f64 {
        self.support
    }
    fn weight(&self, x: f64) -> f64 {
        (self.weight)(x)
    }
}

fn welch_by_hand(x: f64) -> f64 {
    let px = std::f64::consts::PI * x;
    match x.abs() {
        0.0 => 1.0,
        a if a < 2.0 => px.sin() / px * (1.0 - x * x / 4.0),
        _ => 0.0,
    }
}

fn sharp_ramp_by_hand(x: f64) -> f64 {
    // CosineRamp with sharpness 2: the ramp ends at |x| = 1/2.
    if x.abs() < 1.0 {
        0.5 + 0.5 * (std::f64::consts::PI * (2.0 * x.abs()).min(1.0)).cos()
    } else {
        0.0
    }
}

fn check(device: Method, by_hand: ByHand) {
    let client = DefaultRuntime::client(&Default::default());
    let by_hand = Method::Filter(std::sync::Arc::new(by_hand));
    let mut failures = Vec::new();
    let mut count = 0;
    for (index, (input, height, width)) in CASES.into_iter().enumerate() {
        for (antialias, align_corners) in [(false, false), (false, true), (true, false)] {
            let options = Options::size(height, width).antialias(antialias).align_corners(align_corners);
            let (rows, cols) = reference::taps(by_hand.clone(), input, &options).unwrap();
            let output = reference::plan(by_hand.clone(), input, &options).unwrap().output;
            for layout in LAYOUTS {
                count += 1;
                let dtype = DType::F32;
                let x = quantize(dtype, &random(input.iter().product(), index as u64));
                let g = quantize(dtype, &random(output.iter().product(), index as u64 + 50));
                let (src, dst) = (upload(&client, &x, input, layout, dtype), poisoned(&client, &output, layout, dtype));
                interpolate(&client, device.clone(), src.view(), dst.view(), &options).unwrap();
                let (y, y_gaps) = download(&client, &dst);
                let (src, dst) = (upload(&client, &g, &output, layout, dtype), poisoned(&client, input, layout, dtype));
                interpolate_backward(&client, device.clone(), src.view(), dst.view(), &options).unwrap();
                let (dx, dx_gaps) = download(&client, &dst);
                let forward = relative_error(&y, &reference::forward(&x, input, &rows, &cols));
                let backward = relative_error(&dx, &reference::backward(&g, input, &rows, &cols));
                if !(y_gaps && dx_gaps && forward <= 2e-5 && backward <= 2e-5) {
                    failures.push(format!(
                        "{} {input:?}->{height}x{width} antialias={antialias} align={align_corners} {layout:?}: forward {forward:.2e}, backward {backward:.2e}, gaps untouched {y_gaps}/{dx_gaps}",
                        device.name()
                    ));
                }
            }
        }
    }
    println!("{}: {count} cases, {} failed", device.name(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn welch_matches_reference() {
    check(
        Welch.into(),
        ByHand {
            support: 2.0,
            weight: welch_by_hand,
        },
    );
}

#[test]
fn cosine_ramp_with_a_parameter_matches_reference() {
    check(
        CosineRamp::new(2.0).into(),
        ByHand {
            support: 1.0,
            weight: sharp_ramp_by_hand,
        },
    );
}

#[test]
fn declared_metadata() {
    assert_eq!((Welch.name(), Welch.support()), ("welch", 2.0));
    assert_eq!(CosineRamp::default(), CosineRamp { sharpness: 1.0 });
    assert_eq!(CosineRamp::default().weight(0.5), 0.5);
}
