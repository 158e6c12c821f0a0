//! Every `InterpError` variant, triggered through the public API; the destination must still
//! hold its poison afterwards (nothing written).

mod common;

use common::*;
use interp_runtime::{
    interpolate, interpolate_backward, output_shape, Border, DType, Filter, InterpError, Mode, Options, Resampler, Sampler, TensorRef,
};

fn size(h: usize, w: usize) -> Options {
    Options::size(h, w)
}

fn scale(h: f64, w: f64) -> Options {
    Options::scale(h, w)
}

struct Fixture {
    client: Client,
    input: DeviceTensor,
    output: DeviceTensor,
}

fn fixture() -> Fixture {
    let client = client();
    let input = upload(&client, &random(2 * 3 * 4 * 5, 1), [2, 3, 4, 5], Layout::Nchw, DType::F32);
    let output = poisoned(&client, [2, 3, 8, 10], Layout::Nchw, DType::F32);
    Fixture { client, input, output }
}

impl Fixture {
    fn forward(&self, input: TensorRef, options: &Options) -> InterpError {
        self.forward_with(Mode::Bilinear, input, options)
    }

    fn forward_with(&self, method: impl Into<interp_runtime::Method>, input: TensorRef, options: &Options) -> InterpError {
        let error = interpolate(&self.client, method, input, self.output.view(), options).expect_err("must be refused");
        self.assert_untouched();
        error
    }

    fn forward_into(&self, output: TensorRef, options: &Options) -> InterpError {
        let error = interpolate(&self.client, Mode::Bilinear, self.input.view(), output, options).expect_err("must be refused");
        self.assert_untouched();
        error
    }

    fn assert_untouched(&self) {
        let (values, _) = download(&self.client, &self.output);
        assert!(values.iter().all(|v| v.is_nan()), "a refused call wrote to the destination");
    }
}

#[test]
fn wrong_rank() {
    let f = fixture();
    let shape = [6, 20];
    let e = f.forward(TensorRef::new(&f.input.handle, &shape, &[20, 1], DType::F32), &size(8, 10));
    assert_eq!(
        e,
        InterpError::WrongRank {
            tensor: "input",
            rank: 2,
            shape: vec![6, 20]
        }
    );
    assert!(e.to_string().contains("rank 2"), "{e}");
}

#[test]
fn sizes_of_another_rank() {
    let f = fixture();
    // A valid (N, C, L) view, but two output sizes.
    let e = f.forward(TensorRef::new(&f.input.handle, &[2, 3, 20], &[60, 20, 1], DType::F32), &size(8, 10));
    assert_eq!(
        e,
        InterpError::ResizeAxes {
            given: 2,
            rank: 3,
            shape: vec![2, 3, 20]
        }
    );
}

#[test]
fn strides_of_another_rank() {
    let f = fixture();
    let e = f.forward(
        TensorRef::new(&f.input.handle, &f.input.shape, &[60, 20, 1], DType::F32),
        &size(8, 10),
    );
    assert_eq!(
        e,
        InterpError::StridesRank {
            tensor: "input",
            strides: 3,
            rank: 4
        }
    );
}

#[test]
fn zero_sized_dimension() {
    let f = fixture();
    let e = f.forward(
        TensorRef::new(&f.input.handle, &[2, 0, 4, 5], &f.input.strides, DType::F32),
        &size(8, 10),
    );
    assert_eq!(
        e,
        InterpError::ZeroSized {
            tensor: "input",
            shape: vec![2, 0, 4, 5]
        }
    );
}

#[test]
fn dtype_mismatch_between_input_and_output() {
    let f = fixture();
    let e = f.forward_into(
        TensorRef::new(&f.output.handle, &f.output.shape, &f.output.strides, DType::F16),
        &size(8, 10),
    );
    assert_eq!(
        e,
        InterpError::DtypeMismatch {
            tensor: "output",
            expected: DType::F32,
            actual: DType::F16
        }
    );
}

#[test]
fn dtype_the_device_lacks() {
    let f = fixture();
    let Some(dtype) = DType::ALL.into_iter().find(|d| !d.is_supported(&f.client)) else {
        eprintln!("note: this device supports every dtype; UnsupportedDtype cannot be triggered here");
        return;
    };
    let e = f.forward(
        TensorRef::new(&f.input.handle, &f.input.shape, &f.input.strides, dtype),
        &size(8, 10),
    );
    assert!(matches!(&e, InterpError::UnsupportedDtype { dtype: d, .. } if *d == dtype), "{e:?}");
}

#[test]
fn buffer_too_small_for_the_strides() {
    let f = fixture();
    let e = f.forward(
        TensorRef::new(&f.input.handle, &f.input.shape, &[60, 20, 5, 2], DType::F32),
        &size(8, 10),
    );
    assert!(
        matches!(
            e,
            InterpError::BufferTooSmall {
                tensor: "input",
                needed: 124,
                available: 120,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn output_that_overlaps_itself() {
    let f = fixture();
    let e = f.forward_into(
        TensorRef::new(&f.output.handle, &f.output.shape, &[80, 80, 10, 1], DType::F32),
        &size(8, 10),
    );
    assert!(matches!(e, InterpError::OverlappingOutput { tensor: "output", .. }), "{e:?}");
}

#[test]
fn output_of_the_wrong_shape() {
    let f = fixture();
    let e = f.forward_into(f.output.view(), &size(8, 9));
    assert_eq!(
        e,
        InterpError::OutputShape {
            expected: vec![2, 3, 8, 9],
            actual: vec![2, 3, 8, 10]
        }
    );
}

#[test]
fn grad_out_of_the_wrong_shape() {
    let f = fixture();
    // Backward of a 4x5 -> 8x9 resize given an 8x10 grad_out; grad_in is f.input's shape.
    let grad_in = poisoned(&f.client, [2, 3, 4, 5], Layout::Nhwc, DType::F32);
    let e = interpolate_backward(&f.client, Mode::Bilinear, f.output.view(), grad_in.view(), &size(8, 9)).expect_err("refused");
    assert_eq!(
        e,
        InterpError::GradOutShape {
            input: vec![2, 3, 4, 5],
            expected: vec![2, 3, 8, 9],
            actual: vec![2, 3, 8, 10]
        }
    );
    assert!(download(&f.client, &grad_in).0.iter().all(|v| v.is_nan()));
}

#[test]
fn options_a_method_does_not_accept() {
    let f = fixture();
    let unsupported = |e: InterpError| match e {
        InterpError::UnsupportedOption { mode, option, .. } => (mode, option),
        other => panic!("expected UnsupportedOption, got {other:?}"),
    };
    // Samplers have no weight: no align_corners (as PyTorch), antialias or border.
    let e = f.forward_with(Mode::Nearest, f.input.view(), &size(8, 10).align_corners(true));
    assert_eq!(unsupported(e), ("nearest".to_string(), "align_corners"));
    let e = f.forward_with(Sampler::Area, f.input.view(), &size(8, 10).antialias(true));
    assert_eq!(unsupported(e), ("area".to_string(), "antialias"));
    let e = f.forward_with(Mode::NearestExact, f.input.view(), &size(8, 10).border(Border::Renormalize));
    assert_eq!(unsupported(e), ("nearest-exact".to_string(), "border"));
    // A widened support needs the renormalize border; errors name the mode, not its filter.
    let e = f.forward_with(Mode::Bicubic, f.input.view(), &size(8, 10).antialias(true).border(Border::Clamp));
    let (mode, option) = unsupported(e);
    assert_eq!(mode, "bicubic");
    assert!(option.contains("antialias"), "{option}");
}

/// A hand-written filter that breaks the contract `filter!` enforces.
struct Broken {
    support: f64,
}

impl Filter for Broken {
    fn name(&self) -> &str {
        "broken"
    }
    fn support(&self) -> f64 {
        self.support
    }
    fn weight(&self, x: f64) -> f64 {
        if x.abs() < 0.3 {
            f64::NAN
        } else {
            1.0 - x.abs()
        }
    }
}

#[test]
fn filters_that_break_their_contract() {
    let f = fixture();
    for support in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e30] {
        let e = f.forward_with(Broken { support }, f.input.view(), &size(8, 10));
        assert!(
            matches!(&e, InterpError::InvalidFilter { filter, reason } if filter == "broken" && reason.contains("support")),
            "support {support}: {e:?}"
        );
    }
    // A weight that is not finite at a tap the geometry reaches (2x up: distances 0.25, 0.75).
    let e = f.forward_with(Broken { support: 1.0 }, f.input.view(), &size(8, 10));
    assert!(
        matches!(&e, InterpError::InvalidFilter { filter, .. } if filter == "broken"),
        "{e:?}"
    );
}

#[test]
fn resampler_given_another_shape() {
    let f = fixture();
    let resampler = Resampler::new(&f.client, Mode::Bilinear, [2, 3, 4, 6], &size(8, 10)).unwrap();
    assert_eq!(resampler.output_shape(), [2, 3, 8, 10]);
    let e = resampler.forward(f.input.view(), f.output.view()).expect_err("must be refused");
    f.assert_untouched();
    assert_eq!(
        e,
        InterpError::InputShape {
            tensor: "input",
            expected: vec![2, 3, 4, 6],
            actual: vec![2, 3, 4, 5]
        }
    );
}

#[test]
fn scale_factors_that_are_not_positive_and_finite() {
    let f = fixture();
    for bad in [0.0, -2.0, f64::NAN, f64::INFINITY] {
        let e = f.forward(f.input.view(), &scale(2.0, bad));
        assert!(
            matches!(e, InterpError::InvalidScale { axis: "width", value } if value.is_nan() == bad.is_nan()),
            "{e:?}"
        );
    }
}

#[test]
fn zero_output_size() {
    let f = fixture();
    assert_eq!(
        f.forward(f.input.view(), &size(0, 10)),
        InterpError::InvalidSize { axis: "height", value: 0 }
    );
}

#[test]
fn scale_that_empties_the_output() {
    let f = fixture();
    assert_eq!(
        f.forward(f.input.view(), &scale(0.2, 2.0)),
        InterpError::EmptyOutput {
            axis: "height",
            input: 4,
            scale: 0.2
        }
    );
}

#[test]
fn sizes_beyond_the_index_range() {
    let f = fixture();
    let e = f.forward(f.input.view(), &scale(2.0, 1e10));
    assert!(
        matches!(
            &e,
            InterpError::AxisTooLong {
                axis: "width",
                tensor: "output",
                ..
            }
        ),
        "{e:?}"
    );
    // 2^63 + 1 must not wrap into a small size (checked arithmetic, not a debug panic).
    let e = output_shape(Mode::Bilinear, [1, 1, 4, 4], &size((1 << 63) + 1, 4));
    assert!(matches!(e, Err(InterpError::AxisTooLong { axis: "height", .. })), "{e:?}");
    // Nor may the element count: every axis fits, their product does not.
    let e = output_shape(Mode::Bilinear, [64, 64, 4, 4], &size(40_000, 40_000));
    assert!(
        matches!(&e, Err(InterpError::IndexOverflow { what, .. }) if what.contains("output")),
        "{e:?}"
    );
    // No bound of one rule applies to all: long axes resize under every mode.
    for (mode, antialias) in [(Mode::Area, false), (Mode::Bilinear, false), (Mode::Lanczos3, true)] {
        for (input, output) in [(70_000, 70_000), (100_000, 50_000)] {
            let opts = Options::size(1, output).antialias(antialias);
            assert_eq!(
                output_shape(mode, [1, 1, 1, input], &opts),
                Ok(vec![1, 1, 1, output]),
                "{mode} {input} -> {output}"
            );
        }
    }
}

#[test]
fn stride_zero_grad_out_of_a_huge_claimed_shape() {
    let f = fixture();
    // One element broadcast (stride 0) over a claimed 2^63 + 1 rows: refused before any launch.
    let one = upload(&f.client, &[1.0], [1, 1, 1, 1], Layout::Nchw, DType::F32);
    let claimed = [1usize, 1, (1 << 63) + 1, 10];
    let grad_out = TensorRef::new(&one.handle, &claimed, &[0, 0, 0, 0], DType::F32);
    let options = size((1 << 63) + 1, 10);
    let e = interpolate_backward(&f.client, Mode::Bilinear, grad_out, f.output.view(), &options).expect_err("must be refused");
    f.assert_untouched();
    assert!(
        matches!(
            e,
            InterpError::AxisTooLong { .. } | InterpError::OutputShape { .. } | InterpError::GradOutShape { .. }
        ),
        "{e:?}"
    );
}

#[test]
fn in_place_and_overlapping_calls() {
    let client = client();
    let data = random(2 * 3 * 16 * 20, 5);
    let buffer = upload(&client, &data, [2, 3, 16, 20], Layout::Nchw, DType::F32);
    // Same handle as input and output of a same-size resize.
    let same = size(16, 20);
    let view = buffer.view();
    let e = interpolate(&client, Mode::Bilinear, view, view, &same).expect_err("in place must be refused");
    assert!(
        matches!(
            e,
            InterpError::Aliasing {
                written: "output",
                read: "input",
                ..
            }
        ),
        "{e:?}"
    );
    let e = interpolate_backward(&client, Mode::Bilinear, view, view, &same).expect_err("in place must be refused");
    assert!(
        matches!(
            e,
            InterpError::Aliasing {
                written: "grad_in",
                read: "grad_out",
                ..
            }
        ),
        "{e:?}"
    );
    // Views of one buffer at offsets this device binds (its alignment: 32 bytes on llvmpipe,
    // 512 on the H200); a plane is 1280 bytes.
    let alignment = client.properties().memory.alignment;
    assert!(alignment < 1280, "the overlapping view below needs an alignment under 1280 bytes");
    let (shape, strides) = ([1, 1, 16, 20], [320, 320, 20, 1]);
    let first = TensorRef::new(&buffer.handle, &shape, &strides, DType::F32);
    let shifted = buffer.handle.clone().offset_start(alignment);
    let second = TensorRef::new(&shifted, &shape, &strides, DType::F32);
    let e = interpolate(&client, Mode::Bilinear, first, second, &same).expect_err("overlap must be refused");
    assert!(matches!(e, InterpError::Aliasing { .. }), "{e:?}");
    // Disjoint views of one buffer are fine: the second plane after the first.
    let start = 1280u64.next_multiple_of(alignment);
    let disjoint = buffer.handle.clone().offset_start(start);
    let third = TensorRef::new(&disjoint, &shape, &strides, DType::F32);
    interpolate(&client, Mode::Bilinear, first, third, &same).expect("disjoint views of one buffer");
    let (values, _) = download(&client, &buffer);
    let plane = quantize(DType::F32, &data[..320]);
    let at = start as usize / 4;
    assert_eq!(&values[at..at + 320], &plane[..], "identity resize into the disjoint view");
    assert_eq!(&values[..320], &plane[..], "the source is untouched");
}

#[test]
fn handle_offsets_the_device_cannot_bind() {
    let f = fixture();
    let alignment = f.client.properties().memory.alignment;
    let offset = f.input.handle.clone().offset_start(4);
    let e = f.forward(TensorRef::new(&offset, &[1, 1, 4, 4], &[16, 16, 4, 1], DType::F32), &size(8, 10));
    assert_eq!(
        e,
        InterpError::MisalignedOffset {
            tensor: "input",
            offset: 4,
            alignment
        }
    );
}

/// A machine without a Vulkan driver gets `NoDevice` naming the packages, not a cubecl panic.
/// The loader is pointed at no driver in a child process (this test binary, re-run on this test
/// alone), since a process that has already loaded a driver keeps it.
#[cfg(all(not(feature = "cuda"), not(feature = "hip")))]
#[test]
fn no_vulkan_driver_is_a_typed_error() {
    const CHILD: &str = "INTERP_TEST_NO_DRIVER_CHILD";
    if std::env::var_os(CHILD).is_some() {
        match interp_runtime::default_client() {
            Err(InterpError::NoDevice { runtime, hint, .. }) => {
                assert_eq!(runtime, "wgpu");
                assert!(hint.contains("apt-get install -y mesa-vulkan-drivers libvulkan1"), "{hint}");
            }
            Err(other) => panic!("expected NoDevice, got {other}"),
            Ok(_) => panic!("a client was made with no Vulkan driver"),
        }
        return;
    }
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "no_vulkan_driver_is_a_typed_error", "--test-threads=1"])
        .env(CHILD, "1")
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .status()
        .unwrap();
    assert!(status.success(), "the child test failed: {status}");
}
