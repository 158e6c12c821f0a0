//! The user's modes through interp-runtime's generic entry points on wgpu, against the f64
//! references built from their own declarations: forward (gather) and backward (scatter).

use interp_runtime::cubecl::prelude::*;
use interp_runtime::testing::{download, poisoned, quantize, random, relative_error, upload, LAYOUTS};
use interp_runtime::{interpolate_backward_with, interpolate_with, plan, reference, DType, DefaultRuntime, Filter, Resize, ResizeOptions};
use interp_user_mode::{CosineRamp, Welch2};

/// Up 2x, down 3x (antialias widens), odd sizes both ways.
const CASES: [([usize; 4], usize, usize); 4] = [
    ([2, 3, 6, 7], 12, 14),
    ([1, 4, 15, 18], 5, 6),
    ([2, 2, 5, 13], 13, 5),
    ([1, 8, 9, 4], 4, 9),
];

fn check<F: Filter>() {
    let client = DefaultRuntime::client(&Default::default());
    let mut failures = Vec::new();
    for (index, (input, height, width)) in CASES.into_iter().enumerate() {
        let options = ResizeOptions {
            resize: Resize::Size { height, width },
            align_corners: false,
        };
        let plan = plan(&F::DESC, input, &options).unwrap();
        let rows = reference::axis_taps(&F::DESC, F::weight_f64, &plan.rows);
        let cols = reference::axis_taps(&F::DESC, F::weight_f64, &plan.cols);
        for layout in LAYOUTS {
            let dtype = DType::F32;
            let x = quantize(dtype, &random(input.iter().product(), index as u64));
            let g = quantize(dtype, &random(plan.output.iter().product(), index as u64 + 50));
            let (src, dst) = (
                upload(&client, &x, input, layout, dtype),
                poisoned(&client, plan.output, layout, dtype),
            );
            interpolate_with::<DefaultRuntime, F>(&client, src.view(), dst.view(), &options).unwrap();
            let (y, y_gaps) = download(&client, &dst);
            let (src, dst) = (
                upload(&client, &g, plan.output, layout, dtype),
                poisoned(&client, input, layout, dtype),
            );
            interpolate_backward_with::<DefaultRuntime, F>(&client, src.view(), dst.view(), &options).unwrap();
            let (dx, dx_gaps) = download(&client, &dst);
            let forward = relative_error(&y, &reference::forward(&x, input, &rows, &cols));
            let backward = relative_error(&dx, &reference::backward(&g, input, &rows, &cols));
            if !(y_gaps && dx_gaps && forward <= 2e-5 && backward <= 2e-5) {
                failures.push(format!(
                    "{} {input:?}->{height}x{width} {layout:?}: forward {forward:.2e}, backward {backward:.2e}, gaps untouched {y_gaps}/{dx_gaps}",
                    F::DESC.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn welch2_matches_reference() {
    check::<Welch2>();
}

#[test]
fn cosine_ramp_matches_reference() {
    check::<CosineRamp>();
}
