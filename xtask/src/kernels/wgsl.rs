//! naga's WGSL front end and validator, as wgpu runs them before creating a pipeline.

use naga::valid::{Capabilities, ValidationFlags, Validator};

/// Ok when `source` parses and validates (f16 allowed: `enable f16;` kernels need it).
pub fn validate(source: &str) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    Validator::new(ValidationFlags::all(), Capabilities::SHADER_FLOAT16)
        .validate(&module)
        .map(|_| ())
        .map_err(|e| e.emit_to_string(source))
}
