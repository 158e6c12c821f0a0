//! interp's forward and backward on the default runtime (build with `--features cuda` for the
//! H200) over the workload suite (`bench/workloads.json`), timed on the device after an L2
//! flush, beside a device-to-device copy of the same bytes and, when given, PyTorch's numbers
//! from `bench/pytorch_interpolate.py` for the same cases.
//!
//! `resample [--workloads FILE] [--only TEXT] [--pytorch FILE.jsonl] [--out DIR] [--quick] [--smoke] [--strategy one-pass|two-pass|tiled|planes|teams|blocks|cells|runs] [--max-plane-taps N] [--planes N] [--least-planes N] [--min-team N] [--block-full-rows] [--block-guarded] [--strips-looped] [--row-scalar] [--plane-single] [--passes-when-shrinking] [--tiles-when-shrinking] [--cell-scalar-loads] [--cell-vector-loads] [--channel-blocks] [--channel-gather] [--tables-tap-major] [--tables-row-major] [--plane-loops] [--no-plane-loops] [--plane-loop-min-pairs N] [--indexed-rows] [--window-vectors] [--value-loads] [--channel-strip N] [--volume-product on|off] [--pool-splits N] [--versus NAME=VALUE]`
//!
//! `--versus NAME=VALUE` times every case under the flags' tuning and under that one override
//! too (e.g. `channel-strip=4`), interleaved, twice each, and reports the ratios (`versus.csv`)
//! instead of the suite's report.

mod kernels;
mod report;
mod tuning_flags;
mod versus;
mod workloads;

use std::collections::HashMap;
use std::time::Duration;

use interp_runtime::cubecl::future::block_on;
use interp_runtime::cubecl::prelude::*;
use interp_runtime::cubecl::server::Handle;
use interp_runtime::testing::Layout;
use interp_runtime::{DType, DefaultRuntime, Options, Resampler, Spatial, TensorRef, Tuning};
pub use workloads::Case;

type Client = ComputeClient<DefaultRuntime>;

/// Measured times of one case.
#[derive(Clone, Debug)]
pub struct Measured {
    pub case: Case,
    pub forward: Duration,
    pub backward: Duration,
    pub copy: Duration,
    /// Host time of one forward call (see [`host_time`]).
    pub host: Duration,
}

/// A CPU-sized smoke run of the same code paths (`--smoke`): one workload of each rank.
const SMOKE: &str = r#"{"defaults": {"layouts": ["nchw", "nhwc"], "dtypes": ["f32", "f16"]}, "workloads": [
  {"name": "smoke-2d", "input": [2, 8, 16, 16], "size": [32, 24], "modes": ["nearest", "bilinear", "bicubic-aa"]},
  {"name": "smoke-1d", "input": [2, 4, 40], "size": [13], "modes": ["bilinear", "area"]},
  {"name": "smoke-3d", "input": [1, 4, 6, 8, 8], "size": [12, 4, 5], "modes": ["bilinear", "lanczos3-aa"]}]}"#;

struct Tensor {
    handle: Handle,
    shape: Vec<usize>,
    strides: Vec<usize>,
    dtype: DType,
}

impl Tensor {
    fn random(client: &Client, shape: &[usize], layout: Layout, dtype: DType, seed: u32) -> Self {
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
            shape: shape.to_vec(),
            strides,
            dtype,
        }
    }
    fn view(&self) -> TensorRef<'_> {
        TensorRef::new(&self.handle, &self.shape, &self.strides, self.dtype)
    }
}

/// Writes 256 MiB, more than the H200's 50 MiB L2, so that a timed run starts with a cold
/// cache as `triton.testing.do_bench` makes PyTorch's (inputs already in L2 would flatter
/// small cases).
struct Flush {
    src: Handle,
    dst: Handle,
    words: usize,
}

impl Flush {
    fn new(client: &Client) -> Self {
        let words = 32 << 20;
        Flush {
            src: client.empty(words * 4),
            dst: client.empty(words * 4),
            words,
        }
    }

    fn run(&self, client: &Client) {
        copy_words(client, &self.src, &self.dst, self.words);
    }
}

/// Median device time of `f` over `reps` runs, each right behind an L2 flush, after `warmup`
/// runs.
///
/// cubecl 0.10's `profile` on CUDA is a host clock between two stream synchronizations
/// (`TimingMethod::System`), so timing `f` alone would add the launch path and the wake-up
/// after the sync (15-20 us on the H200 machine) to every run: for a 20 us kernel, half the
/// figure. Each run here times the flush alone and the flush followed by `f`, back to back, and
/// keeps the difference: `f` is enqueued while the flush still runs (as in
/// `triton.testing.do_bench`, whose CUDA events start when the flush ends), so what remains is
/// `f`'s device time, as PyTorch's is measured. The host cost of a call is [`host_time`].
fn time(client: &Client, flush: &Flush, warmup: usize, reps: usize, f: impl Fn() + Sync) -> Duration {
    for _ in 0..warmup {
        f();
    }
    block_on(client.sync()).expect("sync");
    let wall = |g: &(dyn Fn() + Sync)| {
        let (_, duration) = client.profile(g, "interp-bench").expect("profile");
        block_on(duration.resolve()).duration()
    };
    let samples = (0..reps)
        .map(|_| {
            let flush_alone = wall(&|| flush.run(client));
            let flush_then_f = wall(&|| {
                flush.run(client);
                f();
            });
            flush_then_f.saturating_sub(flush_alone)
        })
        .collect();
    median(samples)
}

/// Median host time of one call of `f` (validation, strategy choice, launches; no sync
/// inside), each call on an idle device.
fn host_time(client: &Client, reps: usize, f: impl Fn()) -> Duration {
    let samples = (0..reps)
        .map(|_| {
            block_on(client.sync()).expect("sync");
            let start = std::time::Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    block_on(client.sync()).expect("sync");
    median(samples)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// `dst = src` over `words` u32 words, 16 bytes per unit.
fn copy_words(client: &Client, src: &Handle, dst: &Handle, words: usize) {
    let dim = CubeDim::new_1d(256);
    let count = interp_runtime::cubecl::calculate_cube_count_elemwise(client, words / 4, dim);
    // SAFETY: both handles hold `words` words; the kernel guards its index.
    unsafe {
        kernels::copy::launch_unchecked::<DefaultRuntime>(
            client,
            count,
            dim,
            4,
            // Lengths are in elements (u32 words); the kernel sees them in vectors of 4.
            ArrayArg::from_raw_parts(src.clone(), words),
            ArrayArg::from_raw_parts(dst.clone(), words),
        );
    }
}

/// A device-to-device copy moving `bytes` in total (half read, half written).
fn time_copy(client: &Client, flush: &Flush, bytes: usize) -> Duration {
    let words = (bytes / 2 / 4 / 4 * 4).max(4);
    let src = client.empty(words * 4);
    let dst = client.empty(words * 4);
    time(client, flush, 3, 20, || copy_words(client, &src, &dst, words))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let quick = args.iter().any(|a| a == "--quick");
    let smoke = args.iter().any(|a| a == "--smoke");
    let mut tuning = Tuning::default();
    for name in tuning_flags::VALUED {
        if let Some(value) = flag(&format!("--{name}")) {
            tuning = tuning_flags::set(tuning, name, &value).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    for flag in [
        "block-full-rows",
        "block-guarded",
        "strips-looped",
        "row-scalar",
        "plane-single",
        "passes-when-shrinking",
        "tiles-when-shrinking",
        "cell-scalar-loads",
        "cell-vector-loads",
        "channel-blocks",
        "channel-gather",
        "tables-tap-major",
        "tables-row-major",
        "plane-loops",
        "no-plane-loops",
        "indexed-rows",
        "window-vectors",
        "value-loads",
    ] {
        if args.iter().any(|a| *a == format!("--{flag}")) {
            tuning = tuning_flags::set(tuning, flag, "").expect("a known flag");
        }
    }
    // `--versus NAME=VALUE`: each case under `tuning` and under that override, interleaved.
    let versus = flag("--versus").map(|spec| {
        let (name, value) = spec.split_once('=').unwrap_or((spec.as_str(), ""));
        tuning_flags::set(tuning, name, value).unwrap_or_else(|e| panic!("--versus {spec}: {e}"))
    });
    let pytorch: HashMap<String, report::TorchTimes> = flag("--pytorch").map(|p| report::read_pytorch(&p)).unwrap_or_default();
    let client = DefaultRuntime::client(&Default::default());
    let name = DefaultRuntime::name(&client);
    eprintln!("interp bench on {name}");
    let suite = if smoke {
        SMOKE.to_string()
    } else {
        let path = flag("--workloads").unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/workloads.json").to_string());
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let only = flag("--only");
    let cases: Vec<_> = workloads::cases(&suite, |d| d.is_supported(&client))
        .into_iter()
        // `--only A|B`: the cases whose key contains A or B.
        .filter(|c| only.as_ref().is_none_or(|o| o.split('|').any(|part| c.key().contains(part))))
        .take(if quick { 12 } else { usize::MAX })
        .collect();

    let flush = Flush::new(&client);
    let mut copies: HashMap<usize, Duration> = HashMap::new();
    let mut results = Vec::new();
    let mut compared = Vec::new();
    for (index, case) in cases.into_iter().enumerate() {
        let options = Options::sizes(Spatial::try_from(&case.size[..]).expect("one to three sizes"))
            .antialias(case.antialias)
            .align_corners(case.align_corners)
            .tuning(tuning);
        let seed = index as u32 * 2;
        let x = Tensor::random(&client, &case.input, case.layout, case.dtype, seed);
        let y = Tensor::random(&client, &case.output_shape(), case.layout, case.dtype, seed + 1);
        // A layer keeps its resampler: tables are built in the warm-up runs, not timed.
        let resampler = Resampler::new(&client, case.mode, &case.input, &options).expect("a valid workload");
        if let Some(alternative) = versus {
            let other = Resampler::new(&client, case.mode, &case.input, &options.tuning(alternative)).expect("a valid workload");
            let times = |r: &Resampler<DefaultRuntime>| {
                let forward = time(&client, &flush, 3, 21, || r.forward(x.view(), y.view()).expect("forward"));
                let backward = time(&client, &flush, 3, 21, || r.backward(y.view(), x.view()).expect("backward"));
                [forward, backward]
            };
            let pair = versus::interleaved(|| times(&resampler), || times(&other));
            eprintln!("{}", versus::line(&case.key(), &pair));
            compared.push((case.key(), pair));
            block_on(client.sync()).expect("sync");
            continue;
        }
        let forward = time(&client, &flush, 3, 21, || {
            resampler.forward(x.view(), y.view()).expect("forward");
        });
        let backward = time(&client, &flush, 3, 21, || {
            resampler.backward(y.view(), x.view()).expect("backward");
        });
        let host = host_time(&client, 21, || {
            resampler.forward(x.view(), y.view()).expect("forward");
        });
        let copy = *copies
            .entry(case.bytes())
            .or_insert_with(|| time_copy(&client, &flush, case.bytes()));
        let m = Measured {
            case,
            forward,
            backward,
            copy,
            host,
        };
        eprintln!("{}", report::line(&m, pytorch.get(&m.case.key())));
        results.push(m);
        block_on(client.sync()).expect("sync");
    }
    let out_dir = flag("--out");
    if versus.is_some() {
        versus::summary(&compared, out_dir.as_deref());
        return;
    }
    report::summary(&results, &pytorch, name, out_dir.as_deref());
}
