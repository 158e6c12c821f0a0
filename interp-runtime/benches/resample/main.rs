//! interp's forward and backward on the default runtime (build with `--features cuda` for the
//! H200), timed on the device, beside a device-to-device copy of the same bytes and, when
//! given, PyTorch's numbers from `bench/pytorch_interpolate.py` for the same cases.
//!
//! `resample [--pytorch FILE.jsonl] [--out DIR] [--quick] [--smoke] [--strategy one-pass|two-pass|tiled]`

mod kernels;
mod report;

use std::collections::HashMap;
use std::time::Duration;

use interp_runtime::cubecl::future::block_on;
use interp_runtime::cubecl::prelude::*;
use interp_runtime::cubecl::server::Handle;
use interp_runtime::testing::Layout;
use interp_runtime::{interpolate, interpolate_backward, DType, DefaultRuntime, Mode, Options, Strategy, TensorRef, Tuning};

type Client = ComputeClient<DefaultRuntime>;

/// One benchmark case.
#[derive(Clone, Debug)]
pub struct Case {
    pub input: [usize; 4],
    pub output: [usize; 2],
    pub layout: Layout,
    pub dtype: DType,
    pub mode: Mode,
    pub antialias: bool,
}

impl Case {
    /// The key shared with the PyTorch script.
    pub fn key(&self) -> String {
        let [n, c, h, w] = self.input;
        let layout = if self.layout == Layout::Nhwc { "nhwc" } else { "nchw" };
        format!(
            "{n}x{c}x{h}x{w}->{}x{} {layout} {} {}",
            self.output[0],
            self.output[1],
            self.dtype,
            self.label()
        )
    }
    /// The mode as the PyTorch script names it (`-aa` for antialias).
    pub fn label(&self) -> String {
        format!("{}{}", self.mode, if self.antialias { "-aa" } else { "" })
    }
    fn output_shape(&self) -> [usize; 4] {
        [self.input[0], self.input[1], self.output[0], self.output[1]]
    }
    /// grad_out bytes read + grad_in bytes written (the same count for forward: in + out).
    pub fn bytes(&self) -> usize {
        let e = self.dtype.size();
        (self.input.iter().product::<usize>() + self.output_shape().iter().product::<usize>()) * e
    }
}

/// Measured times of one case.
#[derive(Clone, Debug)]
pub struct Measured {
    pub case: Case,
    pub forward: Duration,
    pub backward: Duration,
    pub copy: Duration,
}

const SHAPES: [([usize; 4], [usize; 2]); 3] = [
    ([8, 64, 256, 256], [512, 512]),
    ([8, 64, 512, 512], [256, 256]),
    ([8, 32, 1024, 1024], [256, 256]),
];
const MODES: [(Mode, bool); 6] = [
    (Mode::Nearest, false),
    (Mode::Bilinear, false),
    (Mode::Bicubic, false),
    (Mode::Lanczos3, false),
    (Mode::Bilinear, true),
    (Mode::Bicubic, true),
];

/// A CPU-sized smoke run of the same code paths (`--smoke`).
const SMOKE_SHAPES: [([usize; 4], [usize; 2]); 2] = [([2, 8, 16, 16], [32, 32]), ([2, 8, 32, 32], [8, 8])];

fn cases(client: &Client, quick: bool, smoke: bool) -> Vec<Case> {
    let shapes: &[([usize; 4], [usize; 2])] = if smoke { &SMOKE_SHAPES } else { &SHAPES };
    let dtypes: Vec<DType> = [DType::F32, DType::F16, DType::BF16]
        .into_iter()
        .filter(|d| d.is_supported(client))
        .collect();
    let mut out = Vec::new();
    for (input, output) in shapes.iter().take(if quick { 1 } else { 3 }) {
        for layout in [Layout::Nchw, Layout::Nhwc] {
            for &dtype in &dtypes {
                for (mode, antialias) in MODES {
                    out.push(Case {
                        input: *input,
                        output: *output,
                        layout,
                        dtype,
                        mode,
                        antialias,
                    });
                }
            }
        }
    }
    out
}

struct Tensor {
    handle: Handle,
    shape: [usize; 4],
    strides: Vec<usize>,
    dtype: DType,
}

impl Tensor {
    fn random(client: &Client, shape: [usize; 4], layout: Layout, dtype: DType, seed: u32) -> Self {
        let (strides, len) = layout.strides(shape);
        let handle = client.empty(len * dtype.size());
        let dim = CubeDim::new_1d(256);
        let count = interp_runtime::cubecl::calculate_cube_count_elemwise(client, len, dim);
        // SAFETY: the kernel guards its index against the array length.
        unsafe {
            let arg = ArrayArg::from_raw_parts(handle.clone(), len);
            match dtype {
                DType::F32 => kernels::fill_random::launch_unchecked::<f32, DefaultRuntime>(client, count, dim, arg, seed),
                DType::F16 => kernels::fill_random::launch_unchecked::<half::f16, DefaultRuntime>(client, count, dim, arg, seed),
                DType::BF16 => kernels::fill_random::launch_unchecked::<half::bf16, DefaultRuntime>(client, count, dim, arg, seed),
                DType::F64 => kernels::fill_random::launch_unchecked::<f64, DefaultRuntime>(client, count, dim, arg, seed),
            }
        }
        Tensor {
            handle,
            shape,
            strides,
            dtype,
        }
    }
    fn view(&self) -> TensorRef<'_> {
        TensorRef::new(&self.handle, &self.shape, &self.strides, self.dtype)
    }
}

/// Median device time of `f` over `reps` runs, after `warmup` runs.
fn time(client: &Client, warmup: usize, reps: usize, f: impl Fn() + Sync) -> Duration {
    for _ in 0..warmup {
        f();
    }
    block_on(client.sync()).expect("sync");
    let mut samples: Vec<Duration> = (0..reps)
        .map(|_| {
            let (_, duration) = client.profile(&f, "interp-bench").expect("profile");
            block_on(duration.resolve()).duration()
        })
        .collect();
    samples.sort();
    samples[reps / 2]
}

/// A device-to-device copy moving `bytes` in total (half read, half written).
fn time_copy(client: &Client, bytes: usize) -> Duration {
    let words = bytes / 2 / 4 / 4 * 4;
    let src = client.empty(words * 4);
    let dst = client.empty(words * 4);
    let vectors = words / 4;
    let dim = CubeDim::new_1d(256);
    let count = interp_runtime::cubecl::calculate_cube_count_elemwise(client, vectors, dim);
    time(client, 3, 20, || unsafe {
        kernels::copy::launch_unchecked::<DefaultRuntime>(
            client,
            count.clone(),
            dim,
            4,
            // Lengths are in elements (u32 words); the kernel sees them in vectors of 4.
            ArrayArg::from_raw_parts(src.clone(), words),
            ArrayArg::from_raw_parts(dst.clone(), words),
        );
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let quick = args.iter().any(|a| a == "--quick");
    let smoke = args.iter().any(|a| a == "--smoke");
    let strategy = flag("--strategy").map(|s| match s.as_str() {
        "one-pass" => Strategy::OnePass,
        "two-pass" => Strategy::TwoPass,
        "tiled" => Strategy::Tiled,
        other => panic!("--strategy {other}: expected one-pass, two-pass or tiled"),
    });
    let tuning = Tuning {
        strategy,
        ..Tuning::default()
    };
    let pytorch: HashMap<String, report::TorchTimes> = flag("--pytorch").map(|p| report::read_pytorch(&p)).unwrap_or_default();
    let client = DefaultRuntime::client(&Default::default());
    let name = DefaultRuntime::name(&client);
    eprintln!("interp bench on {name}");

    let mut copies: HashMap<usize, Duration> = HashMap::new();
    let mut results = Vec::new();
    for (index, case) in cases(&client, quick, smoke).into_iter().enumerate() {
        let options = Options::size(case.output[0], case.output[1])
            .antialias(case.antialias)
            .tuning(tuning);
        let seed = index as u32 * 2;
        let x = Tensor::random(&client, case.input, case.layout, case.dtype, seed);
        let y = Tensor::random(&client, case.output_shape(), case.layout, case.dtype, seed + 1);
        let forward = time(&client, 3, 21, || {
            interpolate(&client, case.mode, x.view(), y.view(), &options).expect("forward");
        });
        let backward = time(&client, 3, 21, || {
            interpolate_backward(&client, case.mode, y.view(), x.view(), &options).expect("backward");
        });
        let copy = *copies.entry(case.bytes()).or_insert_with(|| time_copy(&client, case.bytes()));
        let m = Measured {
            case,
            forward,
            backward,
            copy,
        };
        eprintln!("{}", report::line(&m, pytorch.get(&m.case.key())));
        results.push(m);
        block_on(client.sync()).expect("sync");
    }
    let out_dir = flag("--out");
    report::summary(&results, &pytorch, name, out_dir.as_deref());
}
