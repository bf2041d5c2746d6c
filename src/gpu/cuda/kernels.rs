//! The kernels in `kernels/`: compiled at run time with NVRTC for the device's own architecture,
//! once per process, loaded per context with `cuModuleLoadData`, launched with `cuLaunchKernel`.
//!
//! We ask NVRTC for a CUBIN for `sm_XY` (real machine code) rather than PTX: PTX from a toolkit
//! newer than the driver cannot be JIT-compiled by that driver, while machine code loads. Only if
//! NVRTC cannot produce a CUBIN for this architecture do we fall back to `compute_XY` PTX.
#![allow(unsafe_code)]

use std::ffi::CString;
use std::sync::Mutex;

use cudarc::nvrtc::{result as nvrtc, sys as nvrtc_sys};

const TRANSFORM_SRC: &str = include_str!("../../../kernels/transform.cu");
const SPIN_SRC: &str = include_str!("../../../kernels/spin.cu");
const TRANSFORM_INTO_SRC: &str = include_str!("../../../kernels/transform_into.cu");
const SPIN_CYCLES_SRC: &str = include_str!("../../../kernels/spin_cycles.cu");
const STRIDED_SRC: &str = include_str!("../../../kernels/strided.cu");

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
    let src = [
        TRANSFORM_SRC,
        SPIN_SRC,
        TRANSFORM_INTO_SRC,
        SPIN_CYCLES_SRC,
        STRIDED_SRC,
    ]
    .join("\n");
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

mod loaded;
pub use loaded::Loaded;
