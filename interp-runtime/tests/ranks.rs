//! Signals (N, C, L) and volumes (N, C, D, H, W): every configuration x {up, down,
//! non-integer, size-1 axes, scale factors} x layouts x dtypes against the f64 reference
//! (axis by axis, a scatter for the backward), the adjoint identity, bitwise determinism,
//! and the typed refusals of ranks and layouts the kernels cannot take.

mod common;

use common::cases::configs;
use common::*;
use interp_runtime::reference;
use interp_runtime::{
    interpolate, interpolate_backward, DType, InterpError, Mode, Options, Resampler, Resize, Spatial, Strategy, TensorRef, Tuning,
};

/// A geometry of rank 3 or 5.
struct Geometry {
    label: &'static str,
    input: &'static [usize],
    resize: Resize,
}

const fn sizes(label: &'static str, input: &'static [usize], sizes: Spatial<usize>) -> Geometry {
    Geometry {
        label,
        input,
        resize: Resize::Size(sizes),
    }
}

const GEOMETRIES: [Geometry; 14] = [
    sizes("L up 2x", &[2, 3, 7], Spatial::one(14)),
    sizes("L down 3x", &[1, 4, 24], Spatial::one(8)),
    sizes("L 13->5", &[2, 2, 13], Spatial::one(5)),
    sizes("L 1->6", &[1, 3, 1], Spatial::one(6)),
    sizes("DHW up 2x", &[1, 2, 3, 4, 2], Spatial::three(6, 8, 4)),
    sizes("DHW down", &[1, 3, 8, 6, 9], Spatial::three(4, 3, 3)),
    sizes("DHW 5->3 x 3->7 x 4->6", &[2, 2, 5, 3, 4], Spatial::three(3, 7, 6)),
    sizes("DHW 1->3 x 6->1 x 1->1", &[1, 2, 1, 6, 1], Spatial::three(3, 1, 1)),
    // Plane passes into rows of 64+ columns, where the blocks kernel runs NCHW upsampling
    // (and, in half precision, reads the f32 intermediate): the forward here, the backward
    // of the downsample below.
    sizes("DHW up 2x, 80 columns", &[1, 2, 3, 4, 40], Spatial::three(6, 8, 80)),
    sizes("DHW down 2x, 128 columns", &[1, 2, 4, 6, 128], Spatial::three(2, 3, 64)),
    // Depth kept (an identity table): the plane pass alone, caller to caller.
    sizes("DHW depth kept 4 x 6->9 x 5->3", &[2, 3, 4, 6, 5], Spatial::three(4, 9, 3)),
    Geometry {
        label: "DHW scale 1 x 0.5 x 2.25 (depth kept)",
        input: &[1, 2, 3, 6, 4],
        resize: Resize::Scale {
            factors: Spatial::three(1.0, 0.5, 2.25),
            recompute: false,
        },
    },
    Geometry {
        label: "DHW scale 1.6 x 0.5 x 2.25",
        input: &[1, 2, 5, 6, 4],
        resize: Resize::Scale {
            factors: Spatial::three(1.6, 0.5, 2.25),
            recompute: false,
        },
    },
    Geometry {
        label: "DHW scale 0.7 x 1.37 x 0.5 (plane pass first)",
        input: &[2, 5, 19, 2, 13],
        resize: Resize::Scale {
            factors: Spatial::three(0.7, 1.37, 0.5),
            recompute: false,
        },
    },
];

#[test]
fn every_configuration_on_signals_and_volumes() {
    check_all("ranks 3 and 5", GEOMETRIES.iter(), |_| true, Tuning::default());
}

/// Every configuration on the volumes with the depth x height product forced on (weighted
/// filters too, every layout: `Tuning::volume_product`) and off (two passes for the nearest
/// samplers as well).
#[test]
fn volumes_through_the_depth_height_product_or_not() {
    for (what, on) in [("volume product on", true), ("volume product off", false)] {
        let tuning = Tuning {
            volume_product: Some(on),
            ..Tuning::default()
        };
        check_all(what, GEOMETRIES.iter().filter(|g| g.input.len() == 5), |_| true, tuning);
    }
}

/// The runs kernel (forced) where signals and volumes reach it: the adjoints of integer
/// upsamples by the weight-one samplers (nearest, nearest-exact, area), runs of 2 and 4 along
/// the width; volumes through the depth x height product, whose rows hold several runs where
/// depth is upsampled (in NCDHW too under the forced kernel). Every layout and dtype (where
/// the kernel does not apply, the default runs).
#[test]
fn runs_on_signals_and_volumes() {
    const UPSAMPLES: [Geometry; 3] = [
        sizes("L up 4x", &[2, 3, 9], Spatial::one(36)),
        sizes("DHW up 2x", &[1, 3, 3, 4, 6], Spatial::three(6, 8, 12)),
        sizes("DHW 2x, 4x, 4x", &[2, 1, 2, 3, 5], Spatial::three(4, 12, 20)),
    ];
    let runs = Tuning {
        strategy: Some(Strategy::Runs),
        ..Tuning::default()
    };
    check_all("runs", UPSAMPLES.iter(), |mode| mode.is_sampler(), runs);
}

/// Row passes read in width vectors (`Tuning::row_vectors`: the depth pass of a volume along
/// its contiguous H * W in NCDHW or W * C in NDHWC) give the bits of the scalar
/// kernels they replace, forward and backward, every configuration, layout and dtype, and
/// match the f64 reference. The geometries' folded widths divide into vectors (24, 48, 60
/// columns; the channels-last fold of 3 channels too), with depth up, down and by 7/3.
#[test]
fn row_passes_in_width_vectors_keep_the_bits() {
    const WIDE: [Geometry; 3] = [
        sizes("DHW up 2x, H*W 24", &[1, 4, 3, 4, 6], Spatial::three(6, 8, 12)),
        sizes("DHW down 2x, H*W 48", &[2, 3, 8, 6, 8], Spatial::three(4, 3, 4)),
        sizes("DHW 3->7 x 5->10 x 6->12", &[1, 3, 3, 5, 6], Spatial::three(7, 10, 12)),
    ];
    let client = client();
    let rows = |vectors| Tuning {
        row_vectors: Some(vectors),
        ..Tuning::default()
    };
    let (mut count, mut differ, mut failures) = (0, 0, Vec::new());
    for (index, config) in configs().iter().enumerate() {
        for geometry in &WIDE {
            let options = config.options(geometry.resize);
            let plan = reference::plan(config.mode, geometry.input, &options).expect("a valid case");
            let axes = reference::axes_taps(config.mode, geometry.input, &options).expect("a valid case");
            for layout in LAYOUTS {
                for &dtype in &dtypes(&client) {
                    for backward in [false, true] {
                        count += 1;
                        let label = format!("{} {} {layout:?} {dtype} backward={backward}", config.label(), geometry.label);
                        let (from, to) = call_shapes(&plan, backward);
                        let x = quantize(dtype, &random(from.iter().product(), (index * 7 + count) as u64));
                        let source = upload(&client, &x, from, layout, dtype);
                        let run = |tuning: Tuning| {
                            let dst = poisoned(&client, to, layout, dtype);
                            resize(&client, config.mode, &source, &dst, &options.tuning(tuning), backward).map(|()| dst)
                        };
                        let (vectors, rows_scalar) = match (run(rows(true)), run(rows(false))) {
                            (Ok(a), Ok(b)) => (a, b),
                            (a, b) => {
                                failures.push(format!("{label}: {:?} / {:?}", a.err(), b.err()));
                                continue;
                            }
                        };
                        if raw(&client, &vectors) != raw(&client, &rows_scalar) {
                            differ += 1;
                            failures.push(format!("{label}: width vectors and scalar row passes differ in bits"));
                        }
                        let expected = reference_direction(&x, &plan.input, &axes, backward);
                        let (actual, gaps) = download(&client, &vectors);
                        if let Err(e) = compare(&actual, gaps, &expected, dtype) {
                            failures.push(format!("{label}: {e}"));
                        }
                    }
                }
            }
        }
    }
    println!("row vectors: {count} cases, {differ} differ in bits, {} failed", failures.len());
    assert!(count > 0 && failures.is_empty(), "{}", failures.join("\n"));
}

/// The default rules for a volume's depth x height product (docs/PERFORMANCE.md v19), told
/// apart by their bits: trilinear 2x up takes the weighted product channels-last in f16 (the
/// bits of `volume_product = Some(true)`), the two passes in NCDHW and in f32 (those of
/// `Some(false)`); the nearest backward of a depth upsample in NCDHW f32 takes the product
/// through the runs kernel (the forced kernel's bits), not the two passes. Each is first
/// checked to differ between the two, and the default against the f64 reference.
#[test]
fn volume_products_by_default_where_the_rule_says() {
    let client = client();
    // Ratios of 7/3 and 2: weights that are not dyadic fractions, whose products round (in f16
    // the two routes' f32 sums then differ in a few outputs' last bit).
    let (input, size): (&[usize], _) = (&[1, 8, 9, 15, 12], Spatial::three(21, 35, 24));
    let product = |on: bool| Tuning {
        volume_product: Some(on),
        ..Tuning::default()
    };
    let runs = Tuning {
        strategy: Some(Strategy::Runs),
        ..Tuning::default()
    };
    // (mode, backward, layout, dtype, the tuning whose bits the default gives, the other's)
    let mut cases = vec![
        (Mode::Bilinear, false, Layout::Nhwc, DType::F32, product(false), product(true)),
        (Mode::Bilinear, true, Layout::Nhwc, DType::F32, product(false), product(true)),
        (Mode::Bilinear, false, Layout::Nchw, DType::F32, product(false), product(true)),
        (Mode::Nearest, true, Layout::Nchw, DType::F32, runs, product(false)),
    ];
    if dtypes(&client).contains(&DType::F16) {
        cases.push((Mode::Bilinear, false, Layout::Nhwc, DType::F16, product(true), product(false)));
        cases.push((Mode::Bilinear, true, Layout::Nhwc, DType::F16, product(true), product(false)));
        cases.push((Mode::Bilinear, false, Layout::Nchw, DType::F16, product(false), product(true)));
    }
    for (mode, backward, layout, dtype, same, other) in cases {
        let label = format!("{mode:?} backward={backward} {layout:?} {dtype:?}");
        let options = Options::sizes(size);
        let plan = reference::plan(mode, input, &options).expect("a valid case");
        let axes = reference::axes_taps(mode, input, &options).expect("a valid case");
        let (from, to) = call_shapes(&plan, backward);
        let x = quantize(dtype, &random(from.iter().product(), 5));
        let source = upload(&client, &x, from, layout, dtype);
        let run = |tuning: Tuning| {
            let dst = poisoned(&client, to, layout, dtype);
            resize(&client, mode, &source, &dst, &options.tuning(tuning), backward).unwrap_or_else(|e| panic!("{label}: {e}"));
            dst
        };
        let default = run(Tuning::default());
        let (same, other) = (raw(&client, &run(same)), raw(&client, &run(other)));
        assert!(same != other, "{label}: the two routes should differ in bits here");
        assert!(raw(&client, &default) == same, "{label}: the default took the other route");
        let differ = same.iter().zip(&other).filter(|(a, b)| a != b).count();
        println!("{label}: the default's route; {differ} bytes differ from the other's");
        let expected = reference_direction(&x, &plan.input, &axes, backward);
        let (actual, gaps) = download(&client, &default);
        compare(&actual, gaps, &expected, dtype).unwrap_or_else(|e| panic!("{label}: {e}"));
    }
}

/// The f64 reference of that direction from `x` (an input of `input`'s shape, or with
/// `backward` a gradient of the output's).
fn reference_direction(x: &[f64], input: &[usize], axes: &[reference::AxisTaps], backward: bool) -> Vec<f64> {
    if backward {
        reference::backward_axes(x, input, axes)
    } else {
        reference::forward_axes(x, input, axes)
    }
}

/// Every configuration that `keep` keeps x `geometries` x layouts x dtypes under `tuning`:
/// forward and backward against the f64 reference, the adjoint identity and a second
/// backward's bits (f32); prints and asserts.
fn check_all<'a>(what: &str, geometries: impl Iterator<Item = &'a Geometry> + Clone, keep: impl Fn(Mode) -> bool, tuning: Tuning) {
    let client = client();
    let dtypes = dtypes(&client);
    let (mut count, mut failures) = (0, Vec::new());
    for (index, config) in configs().iter().enumerate().filter(|(_, c)| keep(c.mode)) {
        for geometry in geometries.clone() {
            let options = config.options(geometry.resize).tuning(tuning);
            let plan = reference::plan(config.mode, geometry.input, &options).expect("a valid case");
            let axes = reference::axes_taps(config.mode, geometry.input, &options).expect("a valid case");
            for layout in LAYOUTS {
                for &dtype in &dtypes {
                    count += 1;
                    let seed = (index * 31 + count) as u64;
                    let x = quantize(dtype, &random(plan.input.iter().product(), seed));
                    let g = quantize(dtype, &random(plan.output.iter().product(), seed + 1));
                    let result = (|| -> Result<(), String> {
                        let input = upload(&client, &x, &plan.input, layout, dtype);
                        let output = poisoned(&client, &plan.output, layout, dtype);
                        let grad_out = upload(&client, &g, &plan.output, layout, dtype);
                        let grad_in = poisoned(&client, &plan.input, layout, dtype);
                        let run = |what: &str, result: Result<(), InterpError>| result.map_err(|e| format!("{what}: {e}"));
                        run("forward", interpolate(&client, config.mode, input.view(), output.view(), &options))?;
                        run(
                            "backward",
                            interpolate_backward(&client, config.mode, grad_out.view(), grad_in.view(), &options),
                        )?;
                        let (y, y_gaps) = download(&client, &output);
                        let (dx, dx_gaps) = download(&client, &grad_in);
                        compare(&y, y_gaps, &reference::forward_axes(&x, &plan.input, &axes), dtype)
                            .map_err(|e| format!("forward: {e}"))?;
                        compare(&dx, dx_gaps, &reference::backward_axes(&g, &plan.input, &axes), dtype)
                            .map_err(|e| format!("backward: {e}"))?;
                        if dtype == DType::F32 {
                            // <resize(x), g> = <x, resize^T(g)>, on the device's own results.
                            let lhs: f64 = y.iter().zip(&g).map(|(a, b)| a * b).sum();
                            let rhs: f64 = x.iter().zip(&dx).map(|(a, b)| a * b).sum();
                            let scale: f64 = y.iter().zip(&g).map(|(a, b)| (a * b).abs()).sum::<f64>().max(1.0);
                            if (lhs - rhs).abs() > 1e-5 * scale {
                                return Err(format!("adjoint: <y, g> = {lhs} but <x, dx> = {rhs}"));
                            }
                            // The same bits on a second run (the intermediate included).
                            let first = raw(&client, &grad_in);
                            let again = poisoned(&client, &plan.input, layout, dtype);
                            run(
                                "backward again",
                                interpolate_backward(&client, config.mode, grad_out.view(), again.view(), &options),
                            )?;
                            if raw(&client, &again) != first {
                                return Err("backward differs bitwise between two runs".into());
                            }
                        }
                        Ok(())
                    })();
                    if let Err(message) = result {
                        failures.push(format!("{} {} {layout:?} {dtype}: {message}", config.label(), geometry.label));
                    }
                }
            }
        }
    }
    println!("{what}: {count} cases, {} failed", failures.len());
    assert!(
        count > 0 && failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_resampler_keeps_its_tables_across_calls_and_layouts() {
    let client = client();
    let shape = [2, 3, 6, 5, 4];
    let options = Options::sizes([3, 9, 8]);
    let resampler = Resampler::new(&client, Mode::Bicubic, shape, &options).unwrap();
    assert_eq!(resampler.output_shape(), [2, 3, 3, 9, 8]);
    let x = random(shape.iter().product(), 7);
    let axes = reference::axes_taps(Mode::Bicubic, shape, &options).unwrap();
    let expected = reference::forward_axes(&x, &shape, &axes);
    for layout in LAYOUTS {
        let input = upload(&client, &x, shape, layout, DType::F32);
        let output = poisoned(&client, resampler.output_shape(), layout, DType::F32);
        resampler.forward(input.view(), output.view()).unwrap();
        let (y, gaps) = download(&client, &output);
        compare(&y, gaps, &expected, DType::F32).unwrap_or_else(|e| panic!("{layout:?}: {e}"));
    }
}

#[test]
fn ranks_other_than_three_to_five_are_refused() {
    let client = client();
    let handle = client.create_from_slice(&[0u8; 4 * 64]);
    let out = client.empty(4 * 64);
    for shape in [&[4usize, 16][..], &[1, 1, 2, 2, 2, 2]] {
        let strides: Vec<usize> = (0..shape.len()).map(|k| shape[k + 1..].iter().product()).collect();
        let view = |h| TensorRef::new(h, shape, &strides, DType::F32);
        let err = interpolate(&client, Mode::Bilinear, view(&handle), view(&out), &Options::size(2, 2)).unwrap_err();
        assert!(
            matches!(&err, InterpError::WrongRank { tensor: "input", rank, .. } if *rank == shape.len()),
            "{err}"
        );
        assert!(
            err.to_string().contains("3-D (N, C, L), 4-D (N, C, H, W) or 5-D (N, C, D, H, W)"),
            "{err}"
        );
        let err = Resampler::new(&client, Mode::Bilinear, shape, &Options::size(2, 2))
            .err()
            .expect("refused");
        assert!(matches!(err, InterpError::WrongRank { .. }), "{err}");
    }
}

#[test]
fn sizes_for_another_rank_are_refused() {
    let client = client();
    for (shape, options, given) in [
        (&[1usize, 2, 4, 4, 4][..], Options::size(8, 8), 2),
        (&[1, 2, 16], Options::sizes([4, 4, 4]), 3),
        (&[1, 2, 4, 4], Options::scales([2.0]), 1),
    ] {
        let err = Resampler::new(&client, Mode::Bilinear, shape, &options).err().expect("refused");
        assert_eq!(
            err,
            InterpError::ResizeAxes {
                given,
                rank: shape.len(),
                shape: shape.to_vec()
            }
        );
    }
}

#[test]
fn a_volume_whose_axes_never_fold_is_a_typed_error_and_nothing_is_written() {
    let client = client();
    let shape = [2usize, 3, 4, 5, 6];
    // Every axis padded, so no stride is another axis's length times its stride.
    let strides = [3 * 5 * 6 * 8 * 11 + 1, 5 * 6 * 8 * 11 + 1, 6 * 8 * 11 + 1, 8 * 11 + 1, 11 + 1];
    let len = shape.iter().zip(&strides).map(|(n, s)| (n - 1) * s).sum::<usize>() + 1;
    let x = client.create_from_slice(&encode(DType::F32, &vec![1.0; len]));
    let out_shape = [2usize, 3, 2, 10, 3];
    let out_len: usize = out_shape.iter().product();
    let y = client.create_from_slice(&encode(DType::F32, &vec![POISON; out_len]));
    let out_strides = [3 * 60, 60, 30, 3, 1];
    let err = interpolate(
        &client,
        Mode::Bilinear,
        TensorRef::new(&x, &shape, &strides, DType::F32),
        TensorRef::new(&y, &out_shape, &out_strides, DType::F32),
        &Options::sizes([2, 10, 3]),
    )
    .unwrap_err();
    assert!(matches!(err, InterpError::UnfoldableLayout { .. }), "{err}");
    let bytes = client.read_one(y).unwrap();
    assert!(decode(DType::F32, &bytes).iter().all(|v| v.is_nan()), "nothing may be written");
}
