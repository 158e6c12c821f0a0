//! ptxas's resource report of one kernel's PTX for sm_90: registers, spills, shared memory,
//! stack (the same figures serve the HIP check's clang remarks).

use std::path::Path;
use std::process::Command;

/// What ptxas reports for one entry function.
#[derive(Clone, Copy, Debug, Default)]
pub struct Resources {
    /// Registers per thread (CUDA), vector registers per lane (AMDGPU VGPRs).
    pub registers: u32,
    /// AMDGPU scalar registers (SGPRs) per wave; 0 for CUDA.
    pub scalar_registers: u32,
    pub spill_stores: u32,
    pub spill_loads: u32,
    pub shared_bytes: u32,
    /// Local memory per thread: spills plus local arrays (e.g. `sinf`'s slow-path reduction).
    pub stack_bytes: u32,
}

impl Resources {
    pub fn spills(&self) -> u32 {
        self.spill_stores + self.spill_loads
    }

    /// The worst of each figure of two reports (one kernel on two architectures).
    pub fn max(self, other: Resources) -> Resources {
        Resources {
            registers: self.registers.max(other.registers),
            scalar_registers: self.scalar_registers.max(other.scalar_registers),
            spill_stores: self.spill_stores.max(other.spill_stores),
            spill_loads: self.spill_loads.max(other.spill_loads),
            shared_bytes: self.shared_bytes.max(other.shared_bytes),
            stack_bytes: self.stack_bytes.max(other.stack_bytes),
        }
    }
}

/// Assembles `ptx_file` for `arch` and parses `-v`'s report.
pub fn resources(ptxas: &Path, ptx_file: &Path, arch: &str) -> Result<Resources, String> {
    let output = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg(ptx_file)
        .args(["-o", "/dev/null"])
        .output()
        .map_err(|e| format!("could not run {}: {e}", ptxas.display()))?;
    let report = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("ptxas failed:\n{report}"));
    }
    parse(&report).ok_or_else(|| format!("no resource report in ptxas's output:\n{report}"))
}

/// Reads `Used N registers, ... M bytes smem` and `S bytes spill stores, L bytes spill loads`.
fn parse(report: &str) -> Option<Resources> {
    let mut resources = Resources::default();
    let mut found = false;
    for line in report.lines() {
        if let Some(registers) = number_before(line, " registers") {
            found = true;
            resources.registers = resources.registers.max(registers);
            resources.shared_bytes = resources.shared_bytes.max(number_before(line, " bytes smem").unwrap_or(0));
        }
        if let Some(stack) = number_before(line, " bytes stack frame") {
            resources.stack_bytes = resources.stack_bytes.max(stack);
        }
        if let Some(stores) = number_before(line, " bytes spill stores") {
            resources.spill_stores += stores;
            resources.spill_loads += number_before(line, " bytes spill loads").unwrap_or(0);
        }
    }
    found.then_some(resources)
}

/// The number just before `label` in `text`.
fn number_before(text: &str, label: &str) -> Option<u32> {
    crate::cmd::number_before(text, label).map(|n| n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_ptxas_report() {
        let report = "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n\
                      ptxas info    : Function properties for k\n    \
                      32 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n\
                      ptxas info    : Used 40 registers, used 1 barriers, 8448 bytes smem, 400 bytes cmem[0]\n";
        let r = parse(report).unwrap();
        assert_eq!(
            (r.registers, r.spill_stores, r.spill_loads, r.shared_bytes, r.stack_bytes),
            (40, 8, 4, 8448, 32)
        );
        assert!(parse("ptxas info    : 0 bytes gmem\n").is_none());
    }
}
