//! The main demo: every built-in mode, forward and backward, on the default device, checked
//! against the f64 reference; images, then signals (N, C, L) and volumes (N, C, D, H, W). `cargo run --release --example tour` (add `--features cuda`
//! for an NVIDIA GPU).

use std::time::Instant;

use interp_runtime::cubecl::future::block_on;
use interp_runtime::cubecl::prelude::*;
use interp_runtime::reference;
use interp_runtime::testing::{download, poisoned, random, relative_error, upload, Layout};
use interp_runtime::{interpolate, interpolate_backward, DType, DefaultRuntime, Mode, Options};

fn main() {
    let client = interp_runtime::default_client().unwrap_or_else(|error| {
        eprintln!("interp tour: {error}");
        std::process::exit(1)
    });
    println!("interp tour on {}: f32, channels last", DefaultRuntime::name(&client));
    println!("errors are max |device - f64 reference| / max(1, max |reference|)\n");
    println!(
        "{:<40} {:>11} {:>11} {:>11} {:>10}",
        "mode", "forward", "backward", "adjoint", "time"
    );
    // Every mode as PyTorch calls it, and each filter again with antialias, on images; then
    // a few on signals (N, C, L) and volumes (N, C, D, H, W).
    let images = Mode::ALL
        .iter()
        .map(|&mode| (mode, false))
        .chain(Mode::ALL.iter().filter(|m| !m.is_sampler()).map(|&mode| (mode, true)));
    let others = [
        (Mode::Bilinear, false),
        (Mode::Bicubic, false),
        (Mode::Lanczos3, true),
        (Mode::Area, false),
        (Mode::Nearest, false),
    ];
    let rows = images
        .map(|(mode, aa)| (mode, aa, vec![2, 8, 24, 20], Options::size(40, 13)))
        .chain(others.iter().map(|&(mode, aa)| (mode, aa, vec![2, 8, 300], Options::sizes([77]))))
        .chain(
            others
                .iter()
                .map(|&(mode, aa)| (mode, aa, vec![2, 4, 9, 12, 10], Options::sizes([5, 17, 7]))),
        );
    let mut worst: f64 = 0.0;
    for (mode, antialias, input_shape, options) in rows {
        let options = options.antialias(antialias);
        let plan = reference::plan(mode, &input_shape, &options).expect("valid options");
        let x = random(input_shape.iter().product(), 1);
        let g = random(plan.output.iter().product(), 2);
        let input = upload(&client, &x, &plan.input, Layout::Nhwc, DType::F32);
        let output = poisoned(&client, &plan.output, Layout::Nhwc, DType::F32);
        let grad_out = upload(&client, &g, &plan.output, Layout::Nhwc, DType::F32);
        let grad_in = poisoned(&client, &plan.input, Layout::Nhwc, DType::F32);

        // Warm-up compiles the kernels; the timed pass runs them again.
        let run = || {
            interpolate(&client, mode, input.view(), output.view(), &options).expect("forward");
            interpolate_backward(&client, mode, grad_out.view(), grad_in.view(), &options).expect("backward");
            block_on(client.sync()).expect("device sync");
        };
        run();
        let start = Instant::now();
        run();
        let elapsed = start.elapsed();

        let axes = reference::axes_taps(mode, &input_shape, &options).expect("valid options");
        let (y, _) = download(&client, &output);
        let (dx, _) = download(&client, &grad_in);
        let forward_error = relative_error(&y, &reference::forward_axes(&x, &plan.input, &axes));
        let backward_error = relative_error(&dx, &reference::backward_axes(&g, &plan.input, &axes));
        let lhs: f64 = y.iter().zip(&g).map(|(a, b)| a * b).sum();
        let rhs: f64 = x.iter().zip(&dx).map(|(a, b)| a * b).sum();
        let adjoint_error = (lhs - rhs).abs() / lhs.abs().max(1e-30);
        worst = worst.max(forward_error).max(backward_error);
        let label = format!(
            "{mode}{} {:?} -> {:?}",
            if antialias { " aa" } else { "" },
            &plan.input[2..],
            &plan.output[2..]
        );
        println!(
            "{label:<40} {forward_error:>11.2e} {backward_error:>11.2e} {adjoint_error:>11.2e} {:>8.2?}",
            elapsed
        );
    }
    println!("\nworst error {worst:.2e} ({})", if worst < 2e-5 { "ok" } else { "TOO LARGE" });
    if worst >= 2e-5 {
        std::process::exit(1);
    }
}
