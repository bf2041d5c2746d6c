//! The kernels in `kernels/`: compiled at run time with NVRTC for the device's own architecture,
//! once per process, loaded per context with `cuModuleLoadData`, launched with `cuLaunchKernel`.
//!
//! We ask NVRTC for a CUBIN for `sm_XY` (real machine code) rather than PTX: PTX from a toolkit
//! newer than the driver cannot be JIT-compiled by that driver, while machine code loads. Only if
//! NVRTC cannot produce a CUBIN for this architecture do we fall back to `compute_XY` PTX.
#![allow(unsafe_code)]

use std::ffi::{CString, c_void};
use std::sync::Mutex;

use cudarc::driver::sys::{self, CUfunction, CUmodule, CUstream};
use cudarc::nvrtc::{result as nvrtc, sys as nvrtc_sys};

use super::error::check;
use crate::gpu::{GpuError, Kernel};

const TRANSFORM_SRC: &str = include_str!("../../../kernels/transform.cu");
const SPIN_SRC: &str = include_str!("../../../kernels/spin.cu");
const TRANSFORM_INTO_SRC: &str = include_str!("../../../kernels/transform_into.cu");
const SPIN_CYCLES_SRC: &str = include_str!("../../../kernels/spin_cycles.cu");

/// A compiled module image and how it was made.
#[derive(Debug, Clone)]
pub struct Image {
    /// CUBIN bytes, or NUL-terminated PTX text.
    pub bytes: Vec<u8>,
    /// e.g. `cubin sm_90` or `ptx compute_90 (NVRTC could not make sm_90 cubin: ...)`.
    pub format: String,
}

type Cache = Vec<((u32, u32), Result<Image, String>)>;
static CACHE: Mutex<Cache> = Mutex::new(Vec::new());

/// Whether libnvrtc can be loaded (never panics).
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries `dlopen` on candidate names, as for the driver.
    unsafe { nvrtc_sys::is_culib_present() }
}

/// The kernels compiled for compute capability `cc`, compiled at most once per process.
pub fn image_for(cc: (u32, u32)) -> Result<Image, String> {
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, r)) = cache.iter().find(|(k, _)| *k == cc) {
        return r.clone();
    }
    let r = compile(cc);
    cache.push((cc, r.clone()));
    r
}

fn compile(cc: (u32, u32)) -> Result<Image, String> {
    if !nvrtc_present() {
        return Err(
            "NVRTC not found (libnvrtc.so could not be loaded); install the CUDA \
                    toolkit's NVRTC or put it on LD_LIBRARY_PATH"
                .into(),
        );
    }
    let arch = format!("{}{}", cc.0, cc.1);
    match compile_with(&format!("--gpu-architecture=sm_{arch}"), true) {
        Ok(bytes) => Ok(Image {
            bytes,
            format: format!("cubin sm_{arch}"),
        }),
        Err(cubin_err) => {
            let bytes = compile_with(&format!("--gpu-architecture=compute_{arch}"), false)
                .map_err(|e| format!("NVRTC failed: {e}"))?;
            Ok(Image {
                bytes,
                format: format!("ptx compute_{arch} (no sm_{arch} cubin: {cubin_err})"),
            })
        }
    }
}

fn compile_with(arch_opt: &str, cubin: bool) -> Result<Vec<u8>, String> {
    let src = [TRANSFORM_SRC, SPIN_SRC, TRANSFORM_INTO_SRC, SPIN_CYCLES_SRC].join("\n");
    let src = CString::new(src).map_err(|_| "kernel source contains NUL".to_string())?;
    let prog = nvrtc::create_program(&src, Some(c"cuda_academy.cu"))
        .map_err(|e| format!("nvrtcCreateProgram: {e:?}"))?;
    // SAFETY: `prog` is live until `destroy_program` below; `src` outlives it.
    let out = unsafe { compile_and_get(prog, arch_opt, cubin) };
    // SAFETY: created above, destroyed once.
    let _ = unsafe { nvrtc::destroy_program(prog) };
    out
}

unsafe fn compile_and_get(
    prog: nvrtc_sys::nvrtcProgram,
    arch_opt: &str,
    cubin: bool,
) -> Result<Vec<u8>, String> {
    let opts = [arch_opt.to_string(), "--std=c++14".to_string()];
    // SAFETY (whole fn): the caller keeps `prog` alive; the buffers are sized from NVRTC's answer.
    if let Err(e) = unsafe { nvrtc::compile_program(prog, &opts) } {
        let log = unsafe { nvrtc::get_program_log(prog) }.unwrap_or_default();
        let log: Vec<u8> = log
            .iter()
            .map(|&c| c as u8)
            .take_while(|&c| c != 0)
            .collect();
        return Err(format!("{e:?}: {}", String::from_utf8_lossy(&log).trim()));
    }
    if !cubin {
        let ptx = unsafe { nvrtc::get_ptx(prog) }.map_err(|e| format!("nvrtcGetPTX: {e:?}"))?;
        let mut bytes: Vec<u8> = ptx.iter().map(|&c| c as u8).collect();
        if bytes.last() != Some(&0) {
            bytes.push(0);
        }
        return Ok(bytes);
    }
    let mut size = 0usize;
    unsafe { nvrtc_sys::nvrtcGetCUBINSize(prog, &mut size) }
        .result()
        .map_err(|e| format!("nvrtcGetCUBINSize: {e:?}"))?;
    if size == 0 {
        return Err("NVRTC produced an empty cubin".into());
    }
    let mut bytes = vec![0u8; size];
    unsafe { nvrtc_sys::nvrtcGetCUBIN(prog, bytes.as_mut_ptr().cast()) }
        .result()
        .map_err(|e| format!("nvrtcGetCUBIN: {e:?}"))?;
    Ok(bytes)
}

/// The loaded module of one context.
#[derive(Debug)]
pub struct Loaded {
    module: CUmodule,
    transform: CUfunction,
    spin: CUfunction,
    transform_into: CUfunction,
    spin_cycles: CUfunction,
    /// How the image was made (for `info`).
    pub format: String,
    blocks_cap: u32,
}

impl Loaded {
    /// Load `image` into the current context.
    pub fn load(image: &Image, multiprocessors: u32) -> Result<Loaded, GpuError> {
        let mut module: CUmodule = std::ptr::null_mut();
        // SAFETY: `image.bytes` is a complete CUBIN or NUL-terminated PTX, alive for the call.
        check("cuModuleLoadData", unsafe {
            sys::cuModuleLoadData(&mut module, image.bytes.as_ptr().cast())
        })?;
        let mut loaded = Loaded {
            module,
            transform: std::ptr::null_mut(),
            spin: std::ptr::null_mut(),
            transform_into: std::ptr::null_mut(),
            spin_cycles: std::ptr::null_mut(),
            format: image.format.clone(),
            // Enough blocks to fill every SM several times; the grid-stride loop covers the rest.
            blocks_cap: multiprocessors.max(1) * 16,
        };
        loaded.transform = loaded.function(c"transform")?;
        loaded.spin = loaded.function(c"spin")?;
        loaded.transform_into = loaded.function(c"transform_into")?;
        loaded.spin_cycles = loaded.function(c"spin_cycles")?;
        Ok(loaded)
    }

    fn function(&self, name: &std::ffi::CStr) -> Result<CUfunction, GpuError> {
        let mut f: CUfunction = std::ptr::null_mut();
        // SAFETY: `self.module` is loaded; `name` is NUL-terminated.
        check("cuModuleGetFunction", unsafe {
            sys::cuModuleGetFunction(&mut f, self.module, name.as_ptr())
        })?;
        Ok(f)
    }

    /// Enough blocks of [`THREADS`] for `n` elements, capped (the loops are grid-stride).
    fn blocks(&self, n: u64) -> u32 {
        u32::try_from(n.div_ceil(u64::from(THREADS)))
            .unwrap_or(u32::MAX)
            .clamp(1, self.blocks_cap)
    }

    /// Launch `kernel` over `n` f32s at `ptr` in `stream` (asynchronous).
    pub(crate) fn launch(
        &self,
        stream: CUstream,
        kernel: Kernel,
        ptr: sys::CUdeviceptr,
        n: u64,
    ) -> Result<(), GpuError> {
        let mut x = ptr;
        let mut n_arg = n;
        let (f, mut p2, mut p3) = match kernel {
            Kernel::Transform { a, b } => (self.transform, a.to_bits(), b.to_bits()),
            Kernel::Spin { iterations } => (self.spin, iterations, 0),
        };
        // The f32 parameters are passed as their bits: the kernel reads 4 bytes either way.
        let mut params: [*mut c_void; 4] = [
            (&mut x as *mut u64).cast(),
            (&mut n_arg as *mut u64).cast(),
            (&mut p2 as *mut u32).cast(),
            (&mut p3 as *mut u32).cast(),
        ];
        // SAFETY: `params` matches the kernel's parameter list (spin ignores the 4th) and lives
        // until the call returns.
        unsafe { self.launch_raw(f, self.blocks(n), stream, &mut params) }
    }

    /// `transform_into(in, out, n, a, b)` over `n` f32s (asynchronous).
    pub(crate) fn launch_transform_into(
        &self,
        stream: CUstream,
        (src, dst): (sys::CUdeviceptr, sys::CUdeviceptr),
        n: u64,
        (a, b): (f32, f32),
    ) -> Result<(), GpuError> {
        let (mut src, mut dst, mut n_arg, mut a, mut b) = (src, dst, n, a, b);
        let mut params: [*mut c_void; 5] = [
            (&mut src as *mut u64).cast(),
            (&mut dst as *mut u64).cast(),
            (&mut n_arg as *mut u64).cast(),
            (&mut a as *mut f32).cast(),
            (&mut b as *mut f32).cast(),
        ];
        // SAFETY: `params` matches `transform_into`'s parameter list and lives until the call
        // returns.
        let f = self.transform_into;
        unsafe { self.launch_raw(f, self.blocks(n), stream, &mut params) }
    }

    /// `spin_cycles(cycles)` on one thread (asynchronous).
    pub(crate) fn launch_spin_cycles(&self, stream: CUstream, cycles: u64) -> Result<(), GpuError> {
        let mut cycles = i64::try_from(cycles).unwrap_or(i64::MAX);
        let mut params: [*mut c_void; 1] = [(&mut cycles as *mut i64).cast()];
        // SAFETY: `params` matches `spin_cycles(long long)` and lives until the call returns.
        let f = self.spin_cycles;
        unsafe { self.launch_raw_threads(f, (1, 1), stream, &mut params) }
    }

    /// # Safety
    /// `params` must match `f`'s parameter list and stay alive until this returns.
    unsafe fn launch_raw(
        &self,
        f: CUfunction,
        blocks: u32,
        stream: CUstream,
        params: &mut [*mut c_void],
    ) -> Result<(), GpuError> {
        // SAFETY: forwarded from the caller.
        unsafe { self.launch_raw_threads(f, (blocks, THREADS), stream, params) }
    }

    /// # Safety
    /// As [`Loaded::launch_raw`].
    unsafe fn launch_raw_threads(
        &self,
        f: CUfunction,
        (blocks, threads): (u32, u32),
        stream: CUstream,
        params: &mut [*mut c_void],
    ) -> Result<(), GpuError> {
        // SAFETY: `f` belongs to the loaded module; the caller guarantees `params`; the driver
        // copies the values before returning.
        check("cuLaunchKernel", unsafe {
            sys::cuLaunchKernel(
                f,
                blocks,
                1,
                1,
                threads,
                1,
                1,
                0,
                stream,
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        })
    }
}

/// Threads per block of the element-wise kernels.
const THREADS: u32 = 256;

impl Drop for Loaded {
    fn drop(&mut self) {
        // SAFETY: loaded in `load`, unloaded once; errors are ignored in Drop.
        let _ = unsafe { sys::cuModuleUnload(self.module) };
    }
}
