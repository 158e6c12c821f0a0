//! Forward and backward of every mode against the f64 reference, the adjoint identity, and
//! bitwise determinism, on the runtime selected by features (wgpu by default); the modules test
//! each kernel and rule forced and by default (one test binary: one build and link).

// The helpers every integration test shares, one directory up.
mod blocks;
mod cells;
#[path = "../common/mod.rs"]
mod common;
mod forced;
mod passes;
mod plane_loops;
mod rules;
mod strategies;
mod strips;
mod windows;

use common::cases::{all_cases, configs, Case, Geometry};
use common::*;
use forced::*;
use interp_runtime::{interpolate, interpolate_backward, reference, DType, Resize, Spatial, Strategy, Tuning};

/// Runs every case x layout x dtype through `check`, reporting all failures at once.
fn for_all(what: &str, check: impl Fn(&Client, &Case, Layout, DType, u64) -> Result<(), String>) {
    let client = client();
    let dtypes = dtypes(&client);
    let mut failures = Vec::new();
    let mut count = 0;
    for (index, case) in all_cases().iter().enumerate() {
        for layout in LAYOUTS {
            for &dtype in &dtypes {
                count += 1;
                if let Err(message) = check(&client, case, layout, dtype, index as u64) {
                    failures.push(format!("{} {layout:?} {dtype}: {message}", case.name()));
                }
            }
        }
    }
    println!("{what}: {count} cases, {} failed", failures.len());
    assert!(
        failures.is_empty(),
        "{} of {count} {what} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn forward_matches_f64_reference() {
    for_all("forward", |client, case, layout, dtype, seed| {
        let plan = case.plan();
        let x = quantize(dtype, &random(plan.input.iter().product(), seed));
        let input = upload(client, &x, &plan.input, layout, dtype);
        let output = poisoned(client, &plan.output, layout, dtype);
        interpolate(client, case.config.mode, input.view(), output.view(), &case.options()).map_err(|e| e.to_string())?;
        let (rows, cols) = case.taps();
        let expected = reference::forward(&x, &plan.input, &rows, &cols);
        let (actual, gaps) = download(client, &output);
        compare(&actual, gaps, &expected, dtype)
    });
}

#[test]
fn backward_matches_f64_scatter_reference() {
    for_all("backward", |client, case, layout, dtype, seed| {
        let plan = case.plan();
        let g = quantize(dtype, &random(plan.output.iter().product(), seed + 1000));
        let grad_out = upload(client, &g, &plan.output, layout, dtype);
        let grad_in = poisoned(client, &plan.input, layout, dtype);
        interpolate_backward(client, case.config.mode, grad_out.view(), grad_in.view(), &case.options()).map_err(|e| e.to_string())?;
        let (rows, cols) = case.taps();
        let expected = reference::backward(&g, &plan.input, &rows, &cols);
        let (actual, gaps) = download(client, &grad_in);
        compare(&actual, gaps, &expected, dtype)
    });
}

/// <forward(x), g> = <x, backward(g)> with both sides from the device, in f32.
#[test]
fn adjoint_identity_holds() {
    let client = client();
    let mut worst: f64 = 0.0;
    let mut failures = Vec::new();
    for (index, case) in all_cases().iter().enumerate() {
        let plan = case.plan();
        let x = quantize(DType::F32, &random(plan.input.iter().product(), index as u64 + 7));
        let g = quantize(DType::F32, &random(plan.output.iter().product(), index as u64 + 9));
        let input = upload(&client, &x, &plan.input, Layout::Nchw, DType::F32);
        let output = poisoned(&client, &plan.output, Layout::Nchw, DType::F32);
        let grad_out = upload(&client, &g, &plan.output, Layout::Nchw, DType::F32);
        let grad_in = poisoned(&client, &plan.input, Layout::Nchw, DType::F32);
        interpolate(&client, case.config.mode, input.view(), output.view(), &case.options()).unwrap();
        interpolate_backward(&client, case.config.mode, grad_out.view(), grad_in.view(), &case.options()).unwrap();
        let (y, _) = download(&client, &output);
        let (dx, _) = download(&client, &grad_in);
        let lhs: f64 = y.iter().zip(&g).map(|(a, b)| a * b).sum();
        let rhs: f64 = x.iter().zip(&dx).map(|(a, b)| a * b).sum();
        let scale: f64 = y.iter().zip(&g).map(|(a, b)| (a * b).abs()).sum::<f64>().max(1e-30);
        let error = (lhs - rhs).abs() / scale;
        worst = worst.max(error);
        if error.is_nan() || error > 1e-5 {
            failures.push(format!(
                "{}: <Ax,g> = {lhs}, <x,A^T g> = {rhs}, relative error {error:.2e}",
                case.name()
            ));
        }
    }
    println!("adjoint identity: {} cases, worst relative error {worst:.2e}", all_cases().len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Two backward runs give the same bits, for every mode and dtype.
#[test]
fn backward_is_bitwise_deterministic() {
    let client = client();
    let mut failures = Vec::new();
    for &dtype in &dtypes(&client) {
        for (index, case) in all_cases()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.geometry.label == "up 2x" || c.geometry.label == "down 3x")
        {
            let plan = case.plan();
            let g = random(plan.output.iter().product(), index as u64);
            let grad_out = upload(&client, &g, &plan.output, Layout::Nhwc, dtype);
            let runs: Vec<Vec<u8>> = (0..2)
                .map(|_| {
                    let grad_in = poisoned(&client, &plan.input, Layout::Nhwc, dtype);
                    interpolate_backward(&client, case.config.mode, grad_out.view(), grad_in.view(), &case.options()).unwrap();
                    raw(&client, &grad_in)
                })
                .collect();
            if runs[0] != runs[1] {
                failures.push(format!("{} {dtype}: backward differs between runs", case.name()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
