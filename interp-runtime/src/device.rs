//! The default runtime's client, with a typed error instead of cubecl's panic when the machine
//! has no device for it (e.g. wgpu on a machine without any Vulkan driver).

use cubecl::prelude::*;

use crate::error::InterpError;
use crate::DefaultRuntime;

/// A client of [`DefaultRuntime`] on its default device.
///
/// ```
/// let client = interp_runtime::default_client()?;
/// # Ok::<(), interp_runtime::InterpError>(())
/// ```
///
/// # Errors
/// [`InterpError::NoDevice`] when wgpu finds no adapter, with the packages that provide the
/// software Vulkan driver on Debian/Ubuntu, or when a HIP build cannot load ROCm's libraries.
/// The CUDA runtime is asked directly (its client panics inside cubecl when no GPU or driver is
/// present).
pub fn default_client() -> Result<ComputeClient<DefaultRuntime>, InterpError> {
    #[cfg(all(not(feature = "cuda"), not(feature = "hip")))]
    wgpu_adapter()?;
    #[cfg(all(not(feature = "cuda"), feature = "hip"))]
    hip_libraries()?;
    Ok(DefaultRuntime::client(&Default::default()))
}

/// cubecl-hip loads `libamdhip64` and `libhiprtc` when a client starts and panics (across a
/// thread boundary: an abort) when they are missing; ask the same loader first.
#[cfg(all(not(feature = "cuda"), feature = "hip"))]
fn hip_libraries() -> Result<(), InterpError> {
    if cubecl_hip_sys::is_available() {
        return Ok(());
    }
    Err(InterpError::NoDevice {
        runtime: "hip",
        reason: "ROCm's libamdhip64 and libhiprtc cannot be loaded".into(),
        hint: "Install ROCm 7 (the version cubecl-hip-sys 7.x binds) or point ROCM_PATH / HIP_PATH at it",
    })
}

/// Asks wgpu for an adapter the way cubecl's default device does (same graphics API, high
/// performance preference), so a `client` call after it cannot hit cubecl's panic.
#[cfg(all(not(feature = "cuda"), not(feature = "hip")))]
fn wgpu_adapter() -> Result<(), InterpError> {
    use cubecl::wgpu::{AutoGraphicsApi, GraphicsApi};

    let backend = AutoGraphicsApi::backend();
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: backend.into(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let options = wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: None,
    };
    match cubecl::future::block_on(instance.request_adapter(&options)) {
        Ok(_) => Ok(()),
        Err(error) => Err(InterpError::NoDevice {
            runtime: "wgpu",
            reason: format!("no {backend:?} adapter ({error})"),
            hint: "Without a GPU, install the software Vulkan driver: \
                   `apt-get install -y mesa-vulkan-drivers libvulkan1` (Debian/Ubuntu), \
                   or build with `--features cuda` on an NVIDIA GPU",
        }),
    }
}
