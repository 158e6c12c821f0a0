//! The summary of the generated-source checks: one line per (backend, group of kernels), the
//! skips with their reasons, and a table printed at the end of `verify`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::sources::Backend;
use super::Checked;

/// One group of kernels on one backend.
pub struct Line {
    pub backend: Backend,
    pub group: String,
    pub compiled: usize,
    /// Kernels with a ptxas report (CUDA with the tools).
    pub assembled: usize,
    pub max_registers: u32,
    pub max_scalar_registers: u32,
    pub spill_bytes: u32,
    pub max_shared_bytes: u32,
    pub max_stack_bytes: u32,
    pub failures: Vec<String>,
}

impl Line {
    pub fn new(backend: Backend, group: &str) -> Self {
        Line {
            backend,
            group: group.to_string(),
            compiled: 0,
            assembled: 0,
            max_registers: 0,
            max_scalar_registers: 0,
            spill_bytes: 0,
            max_shared_bytes: 0,
            max_stack_bytes: 0,
            failures: Vec::new(),
        }
    }

    pub fn record(&mut self, kernel: &str, checked: Checked) {
        match checked {
            Checked::Ok(resources) => {
                self.compiled += 1;
                if let Some(r) = resources {
                    self.assembled += 1;
                    self.max_registers = self.max_registers.max(r.registers);
                    self.max_scalar_registers = self.max_scalar_registers.max(r.scalar_registers);
                    self.max_shared_bytes = self.max_shared_bytes.max(r.shared_bytes);
                    self.max_stack_bytes = self.max_stack_bytes.max(r.stack_bytes);
                    self.spill_bytes += r.spills();
                    if r.spills() > 0 {
                        self.failures.push(format!(
                            "{} {kernel}: spills registers ({} bytes stored, {} loaded; {} registers)",
                            self.backend.label(),
                            r.spill_stores,
                            r.spill_loads,
                            r.registers
                        ));
                    }
                }
            }
            Checked::Failed(message) => self.failures.push(format!("{} {kernel}: {message}", self.backend.label())),
        }
    }

    fn cell(&self) -> String {
        let mut cell = format!("{} ok", self.compiled);
        if !self.failures.is_empty() {
            write!(cell, ", {} FAILED", self.failures.len()).unwrap();
        }
        if self.assembled > 0 && self.backend == Backend::Hip {
            write!(
                cell,
                ", {} vgprs, {} sgprs, {} spill",
                self.max_registers, self.max_scalar_registers, self.spill_bytes
            )
            .unwrap();
            if self.max_shared_bytes > 0 {
                write!(cell, ", {} B lds", self.max_shared_bytes).unwrap();
            }
            if self.max_stack_bytes > 0 {
                write!(cell, ", {} B scratch", self.max_stack_bytes).unwrap();
            }
        } else if self.assembled > 0 {
            write!(cell, ", {} regs, {} spill", self.max_registers, self.spill_bytes).unwrap();
            if self.max_shared_bytes > 0 {
                write!(cell, ", {} B smem", self.max_shared_bytes).unwrap();
            }
            if self.max_stack_bytes > 0 {
                write!(cell, ", {} B stack", self.max_stack_bytes).unwrap();
            }
        }
        cell
    }
}

/// Something not checked, and why.
pub struct Skip {
    pub what: String,
    pub reason: String,
}

impl Skip {
    pub fn new(what: &str, reason: String) -> Self {
        Skip {
            what: what.to_string(),
            reason,
        }
    }
}

#[derive(Default)]
pub struct Report {
    pub lines: Vec<Line>,
    pub skips: Vec<Skip>,
    /// Toolchains used, printed under the table.
    pub notes: Vec<String>,
}

impl Report {
    pub fn failures(&self) -> Vec<&str> {
        self.lines.iter().flat_map(|l| l.failures.iter().map(String::as_str)).collect()
    }

    pub fn kernels(&self, backend: Backend) -> usize {
        self.lines.iter().filter(|l| l.backend == backend).map(|l| l.compiled).sum()
    }

    /// Groups down, backends across; a cell is kernels compiled and, for CUDA, the worst
    /// ptxas figures of the group.
    pub fn table(&self) -> String {
        // Groups in first-seen order, each with its cell per backend.
        let mut rows: Vec<(&str, BTreeMap<Backend, String>)> = Vec::new();
        for line in &self.lines {
            match rows.iter_mut().find(|(group, _)| *group == line.group) {
                Some((_, cells)) => {
                    cells.insert(line.backend, line.cell());
                }
                None => rows.push((&line.group, BTreeMap::from([(line.backend, line.cell())]))),
            }
        }
        let header: Vec<String> = Backend::ALL
            .iter()
            .map(|b| match b {
                Backend::Cuda => "CUDA sm_90a (NVRTC + ptxas)".to_string(),
                Backend::Hip => "HIP gfx942 + gfx90a (clang 19)".to_string(),
                Backend::Wgsl => "WGSL (naga)".to_string(),
            })
            .collect();
        let mut cells: Vec<Vec<String>> = vec![std::iter::once("kernels of".to_string()).chain(header).collect()];
        for (group, by_backend) in &rows {
            let mut row = vec![group.to_string()];
            row.extend(
                Backend::ALL
                    .iter()
                    .map(|b| by_backend.get(b).cloned().unwrap_or_else(|| "skipped".into())),
            );
            cells.push(row);
        }
        let mut total = vec!["total".to_string()];
        total.extend(Backend::ALL.iter().map(|&b| format!("{} kernels", self.kernels(b))));
        cells.push(total);
        let widths: Vec<usize> = (0..cells[0].len())
            .map(|c| cells.iter().map(|r| r[c].len()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for row in &cells {
            let padded: Vec<String> = row.iter().zip(&widths).map(|(cell, w)| format!("{cell:<w$}")).collect();
            writeln!(out, "  {}", padded.join("  ").trim_end()).unwrap();
        }
        writeln!(
            out,
            "  (a mode's tables are built in f32 whatever the tensors' dtype; a call in dtype D runs them and the gathers of D;\n   \
             regs: most registers per thread of the group; spill: bytes spilled; stack: local memory without spills, e.g. sin/cos range reduction)"
        )
        .unwrap();
        for note in &self.notes {
            writeln!(out, "  {note}").unwrap();
        }
        for skip in &self.skips {
            writeln!(out, "  skipped: {}: {}", skip.what, skip.reason).unwrap();
        }
        out
    }
}
