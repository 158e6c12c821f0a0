//! The workload suite (`bench/workloads.json`, shared with `bench/pytorch_interpolate.py`):
//! named resizes where real models run them, expanded into one case per mode, layout and dtype.

use interp_runtime::testing::Layout;
use interp_runtime::{DType, Mode};
use serde_json::Value;

/// One benchmark case.
#[derive(Clone, Debug)]
pub struct Case {
    /// The workload's name (unique in the suite).
    pub name: String,
    /// Input shape: (N, C, L), (N, C, H, W) or (N, C, D, H, W).
    pub input: Vec<usize>,
    /// Output lengths of the spatial axes.
    pub size: Vec<usize>,
    pub layout: Layout,
    pub dtype: DType,
    pub mode: Mode,
    pub antialias: bool,
    pub align_corners: bool,
}

impl Case {
    /// The key shared with the PyTorch script: `name layout dtype mode`.
    pub fn key(&self) -> String {
        let layout = if self.layout == Layout::Nhwc { "nhwc" } else { "nchw" };
        format!("{} {layout} {} {}", self.name, self.dtype, self.label())
    }

    /// The mode as the suite names it (`-aa` for antialias).
    pub fn label(&self) -> String {
        format!("{}{}", self.mode, if self.antialias { "-aa" } else { "" })
    }

    pub fn output_shape(&self) -> Vec<usize> {
        self.input[..2].iter().chain(&self.size).copied().collect()
    }

    /// Bytes a pass must move at least: every input element read once, every output written
    /// once (grad_out read + grad_in written for the backward: the same count).
    pub fn bytes(&self) -> usize {
        let e = self.dtype.size();
        (self.input.iter().product::<usize>() + self.output_shape().iter().product::<usize>()) * e
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn numbers(v: &Value, what: &str) -> Vec<usize> {
    v.as_array()
        .unwrap_or_else(|| panic!("{what}: a list of numbers"))
        .iter()
        .map(|n| n.as_u64().unwrap_or_else(|| panic!("{what}: {n} is not a length")) as usize)
        .collect()
}

/// Every case of the suite in `text`, for the dtypes `keep` allows.
pub fn cases(text: &str, keep: impl Fn(DType) -> bool) -> Vec<Case> {
    let suite: Value = serde_json::from_str(text).expect("workloads: valid JSON");
    let defaults = &suite["defaults"];
    let mut out = Vec::new();
    for w in suite["workloads"].as_array().expect("workloads: a list") {
        let name = w["name"].as_str().expect("a workload name").to_string();
        let pick = |key: &str| {
            if w[key].is_array() {
                strings(&w[key])
            } else {
                strings(&defaults[key])
            }
        };
        let (input, size) = (numbers(&w["input"], &name), numbers(&w["size"], &name));
        assert_eq!(input.len(), size.len() + 2, "{name}: one size per spatial axis");
        for layout in pick("layouts") {
            let layout = match layout.as_str() {
                "nchw" => Layout::Nchw,
                "nhwc" => Layout::Nhwc,
                other => panic!("{name}: layout {other}"),
            };
            for dtype in pick("dtypes") {
                let dtype = *DType::ALL
                    .iter()
                    .find(|d| d.to_string() == dtype)
                    .unwrap_or_else(|| panic!("{name}: dtype {dtype}"));
                if !keep(dtype) {
                    continue;
                }
                for label in strings(&w["modes"]) {
                    let (mode_name, antialias) = match label.strip_suffix("-aa") {
                        Some(m) => (m, true),
                        None => (label.as_str(), false),
                    };
                    let mode = *Mode::ALL
                        .iter()
                        .find(|m| m.name() == mode_name)
                        .unwrap_or_else(|| panic!("{name}: mode {label}"));
                    out.push(Case {
                        name: name.clone(),
                        input: input.clone(),
                        size: size.clone(),
                        layout,
                        dtype,
                        mode,
                        antialias,
                        align_corners: w["align_corners"].as_bool().unwrap_or(false),
                    });
                }
            }
        }
    }
    out
}
