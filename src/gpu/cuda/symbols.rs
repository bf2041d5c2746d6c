//! Which driver entry points the loaded libcuda exports, asked before they are called.
//!
//! cudarc (`fallback-dynamic-loading`) binds an entry point on its first call and **panics**
//! ("Missing symbol ...") when the loaded library lacks it: an old driver (`cuEventElapsedTime_v2`
//! exists only from CUDA 12.8), a partial or hand-made library. A panic caught around a call
//! still unwinds through the backend's `Drop`, whose own clean-up calls would panic again and
//! abort the process. So nothing here relies on catching: [`require`] refuses a driver that lacks
//! any entry point of [`PROBE`] (before `cuInit`) or [`BACKEND`] (before a context is retained),
//! with a message naming them, and the clean-up paths ask [`present`] again before each call.
#![allow(unsafe_code)]

use std::ffi::CStr;
use std::sync::OnceLock;

use cudarc::driver::sys::{self, CUevent, CUresult};

use crate::gpu::GpuError;
use crate::gpu::quiet::catch_quietly;

/// What finding the device and reading its properties calls (`info`'s probe), error strings
/// included (every error message asks for them).
pub const PROBE: &[&CStr] = &[
    c"cuInit",
    c"cuDriverGetVersion",
    c"cuDeviceGetCount",
    c"cuDeviceGet",
    c"cuDeviceGetName",
    c"cuDeviceGetAttribute",
    c"cuDeviceTotalMem_v2",
    c"cuDeviceGetPCIBusId",
    c"cuGetErrorName",
    c"cuGetErrorString",
];

/// Every other entry point the backend may call once it has a context, clean-up included.
/// `cuEventElapsedTime` is not here: either of its two names does ([`ELAPSED`]).
pub const BACKEND: &[&CStr] = &[
    c"cuDevicePrimaryCtxRetain",
    c"cuDevicePrimaryCtxRelease_v2",
    c"cuCtxSetCurrent",
    c"cuCtxSynchronize",
    c"cuMemGetInfo_v2",
    c"cuMemHostAlloc",
    c"cuMemFreeHost",
    c"cuMemHostRegister_v2",
    c"cuMemHostUnregister",
    c"cuMemAlloc_v2",
    c"cuMemFree_v2",
    c"cuMemAllocAsync",
    c"cuMemFreeAsync",
    c"cuMemcpyHtoDAsync_v2",
    c"cuMemcpyDtoHAsync_v2",
    c"cuMemcpyDtoDAsync_v2",
    c"cuMemsetD8Async",
    c"cuStreamCreate",
    c"cuStreamDestroy_v2",
    c"cuStreamQuery",
    c"cuStreamSynchronize",
    c"cuStreamWaitEvent",
    c"cuEventCreate",
    c"cuEventDestroy_v2",
    c"cuEventRecord",
    c"cuEventQuery",
    c"cuEventSynchronize",
    c"cuModuleLoadData",
    c"cuModuleGetFunction",
    c"cuModuleUnload",
    c"cuLaunchKernel",
];

/// `cuMemcpyBatchAsync`'s CUDA 13.0 prototype (batched copies): not required to open the
/// backend, since a CUDA 12 driver runs everything else; asked for with [`present`] before each
/// batched copy, whose error then says which driver it needs.
pub const BATCH_COPY: &CStr = c"cuMemcpyBatchAsync_v2";

/// Managed and mapped memory (the `alternatives` experiment): not required to open the backend;
/// asked for with [`require`] before the first managed or mapped allocation. `cuMemFree_v2` and
/// `cuMemFreeHost` free them, as for the other kinds.
pub const UNIFIED: &[&CStr] = &[
    c"cuMemAllocManaged",
    c"cuMemPrefetchAsync_v2",
    c"cuMemHostGetDevicePointer_v2",
];

/// The two names of `cuEventElapsedTime`, in the order they are tried: `_v2` (what the CUDA 13
/// headers call; from CUDA 12.8), then the plain one, which every driver before 13 exports and
/// which computes the same time (the Driver API reference: `_v2` differs only in not reporting
/// errors of earlier, pending work).
pub const ELAPSED: [&CStr; 2] = [c"cuEventElapsedTime_v2", c"cuEventElapsedTime"];

/// Whether the loaded libcuda exports `name`. Never panics and calls nothing in the driver (a
/// `dlsym`); `false` when no libcuda is loaded.
pub fn present(name: &CStr) -> bool {
    catch_quietly(|| {
        // SAFETY: `culib` is the library cudarc loaded (it panics, caught here, when none
        // loads); `get` only looks the name up and the symbol is not called.
        unsafe {
            sys::culib()
                .get::<unsafe extern "C" fn()>(name.to_bytes_with_nul())
                .is_ok()
        }
    })
    .unwrap_or(false)
}

/// The names of `names` that the loaded libcuda lacks.
pub fn missing(names: &[&CStr]) -> Vec<String> {
    names
        .iter()
        .filter(|n| !present(n))
        .map(|n| n.to_string_lossy().into_owned())
        .collect()
}

/// Most missing names a message lists (a library lacking most of them is not a driver at all).
const SHOWN: usize = 6;

/// The error for a driver that lacks `missing` (non-empty): what, and what to do.
pub fn missing_error(missing: &[String]) -> GpuError {
    let mut list = missing
        .iter()
        .take(SHOWN)
        .map(|m| format!("`{m}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if missing.len() > SHOWN {
        list += &format!(" and {} more", missing.len() - SHOWN);
    }
    let what = if missing.len() == 1 {
        "entry point"
    } else {
        "entry points"
    };
    GpuError::Driver {
        call: "libcuda".into(),
        message: format!(
            "the loaded CUDA driver library lacks the {what} {list}, which cuda-academy \
             calls (the driver is older than, or incomplete for, the CUDA 13.0 driver API this \
             build uses); update the NVIDIA driver, or use --backend sim"
        ),
    }
}

/// `Ok` when the loaded libcuda exports every name of `names`, else [`missing_error`].
pub fn require(names: &[&CStr]) -> Result<(), GpuError> {
    let gone = missing(names);
    if gone.is_empty() {
        Ok(())
    } else {
        Err(missing_error(&gone))
    }
}

/// What a backend calls, [`BACKEND`] and one of the [`ELAPSED`] names: checked before a context
/// is retained, so that no later call (and no clean-up) meets a missing symbol.
pub fn require_backend() -> Result<(), GpuError> {
    let mut gone = missing(BACKEND);
    if elapsed_fn().is_err() {
        gone.push(format!("{} (or {})", name(ELAPSED[0]), name(ELAPSED[1])));
    }
    if gone.is_empty() {
        Ok(())
    } else {
        Err(missing_error(&gone))
    }
}

fn name(n: &CStr) -> String {
    n.to_string_lossy().into_owned()
}

pub(super) type ElapsedFn = unsafe extern "C" fn(*mut f32, CUevent, CUevent) -> CUresult;

/// The driver's `cuEventElapsedTime`, under the first of the [`ELAPSED`] names it exports
/// (looked up once: the library is the process's for good). Called through
/// `events::elapsed_between`, which the learner's `cudaEventElapsedTime` and the event-timed
/// timeline share.
pub(super) fn elapsed_fn() -> Result<ElapsedFn, GpuError> {
    static FOUND: OnceLock<Option<ElapsedFn>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        ELAPSED.iter().find_map(|n| {
            catch_quietly(|| {
                // SAFETY: `culib` is the library cudarc loaded; both names have this C
                // signature (`CUresult (float*, CUevent, CUevent)`), and the pointer is only
                // copied out of the 'static library.
                unsafe {
                    sys::culib()
                        .get::<ElapsedFn>(n.to_bytes_with_nul())
                        .ok()
                        .map(|f| *f)
                }
            })
            .ok()
            .flatten()
        })
    });
    found.ok_or_else(|| missing_error(&[format!("{} (or {})", name(ELAPSED[0]), name(ELAPSED[1]))]))
}

/// Run a clean-up call only when the driver exports `name` (clean-up ignores errors; a symbol
/// the library lacks is one more reason it could not run, never a panic).
pub fn cleanup(name: &CStr, call: impl FnOnce() -> CUresult) {
    if present(name) {
        let _ = call();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `sys::cu…` the backend calls is in one of the lists, so [`require_backend`] and
    /// [`PROBE`] cover each call a driver could lack (a new call must be added to a list).
    #[test]
    fn every_driver_call_of_the_backend_is_listed() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gpu/cuda");
        let mut files = vec![root.with_extension("rs")];
        let mut dirs = vec![root];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    files.push(p);
                }
            }
        }
        assert!(files.len() > 10, "found {} files", files.len());
        let listed: Vec<String> = PROBE
            .iter()
            .chain(BACKEND)
            .chain(ELAPSED.iter())
            .chain([&BATCH_COPY])
            .chain(UNIFIED)
            .map(|n| name(n))
            .collect();
        let mut seen = 0;
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            for (i, _) in text.match_indices("sys::cu") {
                let rest = &text[i + 5..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                let call = &rest[..end];
                if call == "culib" || !rest[end..].starts_with('(') {
                    continue;
                }
                seen += 1;
                assert!(
                    listed.iter().any(|l| l == call),
                    "{} calls {call}, which no list holds",
                    f.display()
                );
            }
        }
        assert!(seen > 20, "only {seen} calls found: the scan is broken");
    }

    #[test]
    fn the_message_names_each_missing_symbol_and_says_what_to_do() {
        let e = missing_error(&["cuCtxSynchronize".into()]).to_string();
        assert!(e.contains("`cuCtxSynchronize`"), "{e}");
        assert!(e.contains("update the NVIDIA driver"), "{e}");
        assert!(e.contains("entry point `"), "{e}");
        let e = missing_error(&["a".into(), "b".into()]).to_string();
        assert!(e.contains("entry points `a`, `b`, which"), "{e}");
        let many: Vec<String> = (0..10).map(|i| format!("s{i}")).collect();
        let e = missing_error(&many).to_string();
        assert!(e.contains("`s5` and 4 more"), "{e}");
        assert!(!e.contains("`s6`"), "{e}");
    }
}
