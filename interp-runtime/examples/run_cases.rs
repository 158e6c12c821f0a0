//! Runs a list of resize cases read from files, forward and backward, and writes the results,
//! so outside references (PyTorch, Pillow) can judge them: `bench/outside_reference.py` writes
//! the cases, runs this, and compares. `cargo run --release --example run_cases -- DIR`.
//!
//! `DIR/cases.txt` holds one case per line, `key=value` fields: `id`, `mode` (a `Mode` name),
//! `aa` and `align` (0/1), `shape` (N,C,L / N,C,H,W / N,C,D,H,W), `size` or `scale` (one value
//! per spatial axis), `dtype` (f32/f16/bf16/f64), `layout` (nchw: channels first / nhwc: channels
//! last). `DIR/<id>.x` and `DIR/<id>.g` are the input and grad_out as little-endian f32 in
//! row-major (N, C, spatial...) order; this writes `<id>.y` and `<id>.dx` the same way,
//! or `<id>.err` with the refusal. `--strategy NAME` after `DIR` forces a gather strategy
//! (`Strategy::name`; one that does not apply falls back to the default rule), `--channel-strip
//! N` asks for channel strips (`Tuning::channel_strip`), `--volume-product on|off` sets
//! `Tuning::volume_product`, `--pool-splits N` sets `Tuning::pool_splits`, `--plane-loops
//! on|off` sets `Tuning::plane_loops`, `--window-vectors on|off` sets `Tuning::window_vectors`.

use std::collections::HashMap;
use std::path::Path;

use interp_runtime::testing::{download, poisoned, upload, Layout};
use interp_runtime::{interpolate, interpolate_backward, output_shape, DType, InterpError, Mode, Options, Resize, Strategy, Tuning};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage =
        "usage: run_cases DIR [--strategy NAME] [--channel-strip N] [--volume-product on|off] [--pool-splits N] [--plane-loops on|off] [--window-vectors on|off]";
    let dir = Path::new(args.get(1).expect(usage));
    let mut tuning = Tuning::default();
    for pair in args[2..].chunks(2) {
        match pair {
            [flag, name] if flag == "--strategy" => {
                tuning.strategy = Some(Strategy::from_name(name).unwrap_or_else(|| panic!("no strategy `{name}`")))
            }
            [flag, n] if flag == "--channel-strip" => tuning.channel_strip = Some(n.parse().expect("--channel-strip N")),
            [flag, on] if flag == "--volume-product" => tuning.volume_product = Some(on == "on"),
            [flag, n] if flag == "--pool-splits" => tuning.pool_splits = Some(n.parse().expect("--pool-splits N")),
            [flag, on] if flag == "--plane-loops" => tuning.plane_loops = Some(on == "on"),
            [flag, on] if flag == "--window-vectors" => tuning.window_vectors = Some(on == "on"),
            other => panic!("{usage}, got {other:?}"),
        }
    }
    let client = interp_runtime::default_client().unwrap_or_else(|error| panic!("{error}"));
    let cases = std::fs::read_to_string(dir.join("cases.txt")).expect("DIR/cases.txt");
    let (mut ran, mut refused) = (0, 0);
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let mut case = Case::parse(line);
        case.options = case.options.tuning(tuning);
        let read = |ext: &str| -> Vec<f64> {
            let bytes = std::fs::read(dir.join(format!("{}.{ext}", case.id))).expect("case data");
            bytes
                .chunks_exact(4)
                .map(|b| f64::from(f32::from_le_bytes(b.try_into().unwrap())))
                .collect()
        };
        match run(&client, &case, &read("x"), &read("g")) {
            Ok((y, dx)) => {
                write(dir, &case.id, "y", &y);
                write(dir, &case.id, "dx", &dx);
                ran += 1;
            }
            Err(error) => {
                std::fs::write(dir.join(format!("{}.err", case.id)), error.to_string()).unwrap();
                refused += 1;
            }
        }
    }
    println!(
        "run_cases on {}: {ran} ran, {refused} refused",
        <interp_runtime::DefaultRuntime as interp_runtime::cubecl::Runtime>::name(&client)
    );
}

type Client = interp_runtime::cubecl::prelude::ComputeClient<interp_runtime::DefaultRuntime>;

fn run(client: &Client, case: &Case, x: &[f64], g: &[f64]) -> Result<(Vec<f64>, Vec<f64>), InterpError> {
    let out = output_shape(case.mode, &case.shape, &case.options)?;
    let input = upload(client, x, &case.shape, case.layout, case.dtype);
    let output = poisoned(client, &out, case.layout, case.dtype);
    let grad_out = upload(client, g, &out, case.layout, case.dtype);
    let grad_in = poisoned(client, &case.shape, case.layout, case.dtype);
    interpolate(client, case.mode, input.view(), output.view(), &case.options)?;
    interpolate_backward(client, case.mode, grad_out.view(), grad_in.view(), &case.options)?;
    Ok((download(client, &output).0, download(client, &grad_in).0))
}

fn write(dir: &Path, id: &str, ext: &str, values: &[f64]) {
    let bytes: Vec<u8> = values.iter().flat_map(|&v| (v as f32).to_le_bytes()).collect();
    std::fs::write(dir.join(format!("{id}.{ext}")), bytes).unwrap();
}

struct Case {
    id: String,
    mode: Mode,
    shape: Vec<usize>,
    options: Options,
    dtype: DType,
    layout: Layout,
}

impl Case {
    fn parse(line: &str) -> Case {
        let fields: HashMap<&str, &str> = line.split_whitespace().filter_map(|kv| kv.split_once('=')).collect();
        let get = |key: &str| *fields.get(key).unwrap_or_else(|| panic!("case `{line}` lacks `{key}`"));
        let numbers = |key: &str| -> Vec<f64> { get(key).split(',').map(|v| v.parse().expect("a number")).collect() };
        let mode = *Mode::ALL.iter().find(|m| m.name() == get("mode")).expect("a Mode name");
        let s = numbers("shape");
        let resize = if fields.contains_key("size") {
            let v: Vec<usize> = numbers("size").iter().map(|&v| v as usize).collect();
            Resize::Size(match v[..] {
                [l] => [l].into(),
                [h, w] => [h, w].into(),
                [d, h, w] => [d, h, w].into(),
                _ => panic!("case `{line}`: one to three sizes"),
            })
        } else {
            let v = numbers("scale");
            let factors = match v[..] {
                [l] => [l].into(),
                [h, w] => [h, w].into(),
                [d, h, w] => [d, h, w].into(),
                _ => panic!("case `{line}`: one to three factors"),
            };
            Resize::Scale { factors, recompute: false }
        };
        let options = Options::new(resize).antialias(get("aa") == "1").align_corners(get("align") == "1");
        let dtype = *DType::ALL.iter().find(|d| d.to_string() == get("dtype")).expect("a dtype");
        let layout = match get("layout") {
            "nchw" => Layout::Nchw,
            "nhwc" => Layout::Nhwc,
            other => panic!("layout {other}"),
        };
        Case {
            id: get("id").to_string(),
            mode,
            shape: s.iter().map(|&v| v as usize).collect(),
            options,
            dtype,
            layout,
        }
    }
}
