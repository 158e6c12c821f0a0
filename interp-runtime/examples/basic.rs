//! interp as a user calls it: your own device buffers and views, no test helpers.
//! `cargo run --release --example basic -p interp-runtime` (add `--features cuda` for NVIDIA).
//!
//! A batch of NHWC images is upsampled 2x with bicubic, the gradient of a loss flows back, and a
//! declared filter runs through the same entry point.

use interp_runtime::cubecl::prelude::*;
use interp_runtime::{filter, DType, InterpError, Mode, Options, Resampler, TensorRef};

filter! {
    /// A triangle twice as wide as bilinear's: a soft blur when upsampling.
    pub struct WideTent {
        name: "wide-tent",
        support: 2.0,
        weight: |x| if abs(x) < SUPPORT { 1.0 - abs(x) / SUPPORT } else { 0.0 },
    }
}

fn to_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn read<R: Runtime>(client: &ComputeClient<R>, handle: interp_runtime::cubecl::server::Handle) -> Vec<f32> {
    let bytes = client.read_one(handle).expect("device read");
    bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
}

/// NHWC strides (channels innermost) of an (N, C, H, W) shape, in elements.
fn nhwc_strides(shape: &[usize]) -> [usize; 4] {
    let [_, c, h, w] = shape.try_into().expect("a 4-D shape");
    [h * w * c, 1, w * c, c]
}

fn main() -> Result<(), InterpError> {
    let client = interp_runtime::default_client()?;
    let (input_shape, options) = ([2, 3, 16, 16], Options::size(32, 32));

    // A layer builds its resampler once: validation, geometry and device tables are paid here.
    let bicubic = Resampler::new(&client, Mode::Bicubic, input_shape, &options)?;
    let output_shape = bicubic.output_shape();
    let (input_len, output_len): (usize, usize) = (input_shape.iter().product(), output_shape.iter().product());

    let image: Vec<f32> = (0..input_len).map(|i| ((i * 37) % 101) as f32 / 100.0).collect();
    let x = client.create_from_slice(&to_bytes(&image));
    let y = client.empty(4 * output_len);
    let (in_strides, out_strides) = (nhwc_strides(&input_shape), nhwc_strides(output_shape));
    let x_view = TensorRef::new(&x, &input_shape, &in_strides, DType::F32);
    let y_view = TensorRef::new(&y, output_shape, &out_strides, DType::F32);
    bicubic.forward(x_view, y_view)?;

    // loss = sum(y^2) / 2, so dloss/dy = y; the backward is a deterministic gather.
    let grad_in = client.empty(4 * input_len);
    let dy_view = TensorRef::new(&y, output_shape, &out_strides, DType::F32);
    let dx_view = TensorRef::new(&grad_in, &input_shape, &in_strides, DType::F32);
    bicubic.backward(dy_view, dx_view)?;
    let (y_host, grad_host) = (read(&client, y.clone()), read(&client, grad_in));
    // The pair is an adjoint: <y, y> = <resize(x), y> = <x, resize^T(y)> = <x, dx>.
    let y_dot_y: f64 = y_host.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    let x_dot_dx: f64 = image.iter().zip(&grad_host).map(|(&a, &b)| f64::from(a) * f64::from(b)).sum();
    println!("bicubic {input_shape:?} -> {output_shape:?} (NHWC): <y, y> = {y_dot_y:.4}, <x, dx> = {x_dot_dx:.4}");

    // A declared filter, antialiased on a downsample, through the one-shot entry point.
    let small_shape = [2, 3, 5, 7];
    let small = client.empty(4 * small_shape.iter().product::<usize>());
    let small_strides = nhwc_strides(&small_shape);
    let small_view = TensorRef::new(&small, &small_shape, &small_strides, DType::F32);
    let x_view = TensorRef::new(&x, &input_shape, &in_strides, DType::F32);
    interp_runtime::interpolate(&client, WideTent, x_view, small_view, &Options::size(5, 7).antialias(true))?;
    println!(
        "wide-tent (antialias) {input_shape:?} -> {small_shape:?}: first pixel {:?}",
        &read(&client, small)[..3]
    );

    // Bad input is a typed error naming the values, and nothing is written.
    let wrong = [2, 3, 30, 32];
    let y_view = TensorRef::new(&y, &wrong, &out_strides, DType::F32);
    let x_view = TensorRef::new(&x, &input_shape, &in_strides, DType::F32);
    match bicubic.forward(x_view, y_view) {
        Err(error) => println!("refused as expected: {error}"),
        Ok(()) => panic!("a wrong output shape was accepted"),
    }
    Ok(())
}
