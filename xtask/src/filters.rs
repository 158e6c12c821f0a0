//! `cargo xtask filters`: a picture of every declared mode (the built-in ones and those of the
//! user's crate `tests/user-mode`): its weight over its support and its frequency response,
//! drawn from the f64 weight each declaration generates, into `docs/filters.svg`. `verify` regenerates it in memory and fails when the file is stale.
//!
//! The SVG is written by hand (lines and text only) so that it is byte-for-byte reproducible.

use std::fmt::Write as _;
use std::fs;

use std::sync::Arc;

use interp_runtime::Filter;

use crate::modes::{self, Origin};

use crate::Action;

const COLUMNS: usize = 5;
const PANEL_W: f64 = 230.0;
const PANEL_H: f64 = 250.0;
const PLOT_W: f64 = 190.0;
const PLOT_H: f64 = 80.0;
const PATH: &str = "docs/filters.svg";
const REGENERATE: &str = "cargo xtask filters";

pub fn run(action: Action) -> Result<(), String> {
    let path = crate::project_root().join(PATH);
    let svg = draw();
    match action {
        Action::Overwrite => {
            fs::write(&path, &svg).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("wrote {PATH}");
            Ok(())
        }
        Action::Check if fs::read_to_string(&path).ok().as_deref() == Some(svg.as_str()) => {
            println!("filters: {PATH} up to date");
            Ok(())
        }
        Action::Check => Err(format!("stale generated file: {PATH}\nrun `{REGENERATE}` to regenerate it")),
    }
}

/// One declared filter's picture.
type Panel = Arc<dyn Filter>;

/// Samples of the kernel over [-support - 0.5, support + 0.5]: the weight inside the support
/// (where taps are taken), zero outside.
fn weight_curve(panel: &Panel) -> Vec<(f64, f64)> {
    let support = panel.support();
    let reach = support + 0.5;
    (0..=200)
        .map(|i| -reach + 2.0 * reach * i as f64 / 200.0)
        .map(|x| (x, if x.abs() <= support { panel.weight(x) } else { 0.0 }))
        .collect()
}

/// |H(f)| / |H(0)| for f in [0, 1.5] cycles per input pixel, by a Riemann sum of the kernel.
fn frequency_response(panel: &Panel) -> Vec<(f64, f64)> {
    let support = panel.support();
    let dx = 1e-3;
    let xs: Vec<f64> = (0..=(2.0 * support / dx) as usize).map(|i| -support + i as f64 * dx).collect();
    let transform = |f: f64| {
        let (re, im) = xs.iter().fold((0.0, 0.0), |(re, im), &x| {
            let w = panel.weight(x);
            let phase = -2.0 * std::f64::consts::PI * f * x;
            (re + w * phase.cos(), im + w * phase.sin())
        });
        (re * re + im * im).sqrt()
    };
    let dc = transform(0.0).max(1e-300);
    (0..=150).map(|i| i as f64 / 100.0).map(|f| (f, transform(f) / dc)).collect()
}

/// A polyline of `points` in a plot box at (`x0`, `y0`) scaled to the ranges given.
fn polyline(
    svg: &mut String,
    points: &[(f64, f64)],
    (x0, y0): (f64, f64),
    (xmin, xmax): (f64, f64),
    (ymin, ymax): (f64, f64),
    color: &str,
) {
    let coords: Vec<String> = points
        .iter()
        .map(|&(x, y)| {
            let px = x0 + (x - xmin) / (xmax - xmin) * PLOT_W;
            let py = y0 + PLOT_H - (y.clamp(ymin, ymax) - ymin) / (ymax - ymin) * PLOT_H;
            format!("{px:.1},{py:.1}")
        })
        .collect();
    let _ = writeln!(
        svg,
        r#"<polyline fill="none" stroke="{color}" stroke-width="1.5" points="{}"/>"#,
        coords.join(" ")
    );
}

/// Axes box with a zero line and labels.
fn frame(svg: &mut String, (x0, y0): (f64, f64), zero_y: Option<f64>, labels: [&str; 3]) {
    let _ = writeln!(
        svg,
        r##"<rect x="{x0}" y="{y0}" width="{PLOT_W}" height="{PLOT_H}" fill="none" stroke="#999"/>"##
    );
    if let Some(zy) = zero_y {
        let _ = writeln!(
            svg,
            r##"<line x1="{x0}" y1="{zy:.1}" x2="{:.1}" y2="{zy:.1}" stroke="#ccc"/>"##,
            x0 + PLOT_W
        );
    }
    let [left, right, title] = labels;
    let _ = writeln!(svg, r#"<text x="{x0}" y="{:.1}" font-size="9">{left}</text>"#, y0 + PLOT_H + 11.0);
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="9" text-anchor="end">{right}</text>"#,
        x0 + PLOT_W,
        y0 + PLOT_H + 11.0
    );
    let _ = writeln!(
        svg,
        r##"<text x="{x0}" y="{:.1}" font-size="9" fill="#555">{title}</text>"##,
        y0 - 3.0
    );
}

fn draw() -> String {
    let panels = modes::all_filters();
    let rows = panels.len().div_ceil(COLUMNS);
    let (width, height) = (COLUMNS as f64 * PANEL_W, rows as f64 * PANEL_H + 30.0);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(svg, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="10" y="20" font-size="13">Every declared filter ("user:" from tests/user-mode): weight w(x) (blue); |H(f)|/|H(0)|, f in [0, 1.5] cycles/pixel (red). `{REGENERATE}`</text>"#
    );
    for (i, (origin, panel)) in panels.iter().enumerate() {
        let origin = if *origin == Origin::User { "user: " } else { "" };
        let (px, py) = ((i % COLUMNS) as f64 * PANEL_W + 20.0, (i / COLUMNS) as f64 * PANEL_H + 50.0);
        let _ = writeln!(
            svg,
            r#"<text x="{px}" y="{py}" font-size="12" font-weight="bold">{origin}{} (support {})</text>"#,
            panel.name(),
            panel.support()
        );
        let curve = weight_curve(panel);
        let reach = panel.support() + 0.5;
        let (ymin, ymax) = (-0.25, 1.1);
        let weights_at = (px, py + 18.0);
        let zero = weights_at.1 + PLOT_H - (0.0 - ymin) / (ymax - ymin) * PLOT_H;
        frame(
            &mut svg,
            weights_at,
            Some(zero),
            [&format!("{:.1}", -reach), &format!("{reach:.1}"), "w(x), y in [-0.25, 1.1]"],
        );
        polyline(&mut svg, &curve, weights_at, (-reach, reach), (ymin, ymax), "#1f77b4");
        let response_at = (px, py + 18.0 + PLOT_H + 32.0);
        frame(&mut svg, response_at, None, ["0", "1.5", "|H(f)|, y in [0, 1.05]; Nyquist 0.5"]);
        let nyquist = response_at.0 + PLOT_W / 3.0;
        let _ = writeln!(
            svg,
            r##"<line x1="{nyquist:.1}" y1="{}" x2="{nyquist:.1}" y2="{}" stroke="#ccc" stroke-dasharray="3,3"/>"##,
            response_at.1,
            response_at.1 + PLOT_H
        );
        polyline(
            &mut svg,
            &frequency_response(panel),
            response_at,
            (0.0, 1.5),
            (0.0, 1.05),
            "#d62728",
        );
    }
    svg.push_str("</svg>\n");
    svg
}
