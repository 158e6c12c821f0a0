//! NVRTC, loaded from the CUDA tools folder: CUDA C++ source to PTX, as cubecl-cuda compiles
//! at run time, here without a GPU or a driver.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;

use libloading::{Library, Symbol};

type Program = *mut c_void;

/// The loaded library.
pub struct Nvrtc {
    lib: Library,
    /// NVRTC opens its builtins by name at compile time; loaded first, they are found
    /// without `LD_LIBRARY_PATH`.
    _builtins: Library,
    options: Vec<CString>,
}

impl Nvrtc {
    /// Loads `libnvrtc` from `lib_dir`, to compile for `arch` (e.g. `sm_90a`) with the CUDA
    /// headers of `include_dir`.
    pub fn load(lib_dir: &Path, include_dir: &Path, arch: &str) -> Result<Self, String> {
        // SAFETY: loading NVRTC runs only its initializers; the symbols are used with the
        // signatures of its documented C API.
        let _builtins = unsafe { open(lib_dir, "libnvrtc-builtins.so")? };
        let lib = unsafe { open(lib_dir, "libnvrtc.so")? };
        let options = [
            format!("--gpu-architecture={arch}"),
            format!("--include-path={}", include_dir.display()),
            "-lineinfo".to_string(),
        ];
        let options = options.into_iter().map(|o| CString::new(o).expect("no NUL in options")).collect();
        Ok(Self { lib, _builtins, options })
    }

    /// PTX of `source`, or NVRTC's log.
    pub fn compile(&self, source: &str, name: &str) -> Result<String, String> {
        let source = CString::new(source).map_err(|_| "source contains NUL".to_string())?;
        let name = CString::new(name).map_err(|_| "name contains NUL".to_string())?;
        let options: Vec<*const c_char> = self.options.iter().map(|o| o.as_ptr()).collect();
        // SAFETY: each call matches NVRTC's C signature; every pointer passed outlives the
        // call, and the program is destroyed on every path once created.
        unsafe {
            type Create = unsafe extern "C" fn(
                *mut Program,
                *const c_char,
                *const c_char,
                c_int,
                *const *const c_char,
                *const *const c_char,
            ) -> c_int;
            type CompileFn = unsafe extern "C" fn(Program, c_int, *const *const c_char) -> c_int;
            type Size = unsafe extern "C" fn(Program, *mut usize) -> c_int;
            type Read = unsafe extern "C" fn(Program, *mut c_char) -> c_int;
            type Destroy = unsafe extern "C" fn(*mut Program) -> c_int;
            let create: Symbol<Create> = self.symbol(b"nvrtcCreateProgram\0")?;
            let compile: Symbol<CompileFn> = self.symbol(b"nvrtcCompileProgram\0")?;
            let log_size: Symbol<Size> = self.symbol(b"nvrtcGetProgramLogSize\0")?;
            let log: Symbol<Read> = self.symbol(b"nvrtcGetProgramLog\0")?;
            let ptx_size: Symbol<Size> = self.symbol(b"nvrtcGetPTXSize\0")?;
            let ptx: Symbol<Read> = self.symbol(b"nvrtcGetPTX\0")?;
            let destroy: Symbol<Destroy> = self.symbol(b"nvrtcDestroyProgram\0")?;

            let mut program: Program = std::ptr::null_mut();
            check(
                create(&mut program, source.as_ptr(), name.as_ptr(), 0, std::ptr::null(), std::ptr::null()),
                "create",
            )?;
            let compiled = compile(program, options.len() as c_int, options.as_ptr());
            let result = if compiled == 0 {
                read(program, &ptx_size, &ptx)
            } else {
                Err(format!("NVRTC error {compiled}:\n{}", read(program, &log_size, &log)?))
            };
            destroy(&mut program);
            result
        }
    }

    unsafe fn symbol<T>(&self, name: &[u8]) -> Result<Symbol<'_, T>, String> {
        // SAFETY: the caller names the symbol's true type.
        unsafe { self.lib.get(name) }.map_err(|e| format!("NVRTC symbol {}: {e}", String::from_utf8_lossy(name)))
    }
}

/// Loads the first library in `dir` whose name starts with `prefix`.
unsafe fn open(dir: &Path, prefix: &str) -> Result<Library, String> {
    let path = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix)))
        .ok_or_else(|| format!("no {prefix}* in {}", dir.display()))?;
    // SAFETY: as in `Nvrtc::load`.
    unsafe { Library::new(&path) }.map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a NUL-terminated string whose size `size` reports.
unsafe fn read(
    program: Program,
    size: &unsafe extern "C" fn(Program, *mut usize) -> c_int,
    read: &unsafe extern "C" fn(Program, *mut c_char) -> c_int,
) -> Result<String, String> {
    let mut len = 0usize;
    // SAFETY: `program` is live; the buffer holds the `len` bytes NVRTC reported.
    unsafe {
        check(size(program, &mut len), "size")?;
        let mut buffer = vec![0 as c_char; len.max(1)];
        check(read(program, buffer.as_mut_ptr()), "read")?;
        Ok(CStr::from_ptr(buffer.as_ptr()).to_string_lossy().into_owned())
    }
}

fn check(code: c_int, what: &str) -> Result<(), String> {
    if code == 0 {
        Ok(())
    } else {
        Err(format!("NVRTC {what} failed with code {code}"))
    }
}
