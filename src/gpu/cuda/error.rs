//! Turning driver results into [`GpuError`]s, and the sticky-error ("poisoned context") policy.
//!
//! Some CUDA errors leave the context unusable for the rest of the process: every later call
//! fails. Those map to [`GpuError::ContextPoisoned`], and [`Poison`] remembers the first one so
//! that the backend refuses all further work with the same message instead of issuing calls that
//! can only fail (or hang).

use cudarc::driver::result::DriverError;
use cudarc::driver::sys::CUresult;

use crate::gpu::GpuError;

/// Whether an error leaves the context unusable. The list follows the driver API reference:
/// the errors documented as "the context cannot be used ... the process must be terminated".
pub fn is_sticky(code: CUresult) -> bool {
    matches!(
        code,
        CUresult::CUDA_ERROR_ILLEGAL_ADDRESS
            | CUresult::CUDA_ERROR_LAUNCH_FAILED
            | CUresult::CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUresult::CUDA_ERROR_MISALIGNED_ADDRESS
            | CUresult::CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUresult::CUDA_ERROR_INVALID_PC
            | CUresult::CUDA_ERROR_ASSERT
            | CUresult::CUDA_ERROR_ECC_UNCORRECTABLE
            | CUresult::CUDA_ERROR_CONTEXT_IS_DESTROYED
            | CUresult::CUDA_ERROR_EXTERNAL_DEVICE
    )
}

/// What to say for `CUDA_ERROR_STUB_LIBRARY`: the usual cause is the toolkit's
/// `.../lib64/stubs` folder on `LD_LIBRARY_PATH`, whose libcuda only links, never runs.
pub const STUB_LIBRARY_MESSAGE: &str = "CUDA_ERROR_STUB_LIBRARY: the libcuda.so that was loaded \
     is the CUDA toolkit's stub, not the driver; remove the `stubs` folder (e.g. \
     /usr/local/cuda/lib64/stubs) from LD_LIBRARY_PATH, or install the NVIDIA driver";

/// `CUDA_ERROR_NAME: description`, e.g. `CUDA_ERROR_OUT_OF_MEMORY: out of memory`.
pub fn describe(err: DriverError) -> String {
    // A stub answers every call, `cuGetErrorName` included, with this very error.
    if err.0 == CUresult::CUDA_ERROR_STUB_LIBRARY {
        return STUB_LIBRARY_MESSAGE.to_string();
    }
    // A partial library may lack the two error-string calls (cudarc would panic in them).
    if !super::symbols::present(c"cuGetErrorName") {
        return format!("CUresult {}", err.0 as u32);
    }
    let name = err
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("CUresult {}", err.0 as u32));
    if !super::symbols::present(c"cuGetErrorString") {
        return name;
    }
    match err.error_string() {
        Ok(s) => format!("{name}: {}", s.to_string_lossy()),
        Err(_) => name,
    }
}

/// Map a driver error from `call` to a [`GpuError`] (sticky ones to `ContextPoisoned`).
pub fn map(call: &str, err: DriverError) -> GpuError {
    let message = describe(err);
    if is_sticky(err.0) {
        GpuError::ContextPoisoned {
            call: call.to_string(),
            message,
        }
    } else {
        GpuError::Driver {
            call: call.to_string(),
            message,
        }
    }
}

/// Remembers the first sticky error; once set, every backend call returns it.
#[derive(Debug, Default)]
pub struct Poison(Option<GpuError>);

impl Poison {
    /// `Err` with the remembered error if the context is poisoned.
    pub fn check(&self) -> Result<(), GpuError> {
        match &self.0 {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// Whether a sticky error has been seen.
    pub fn is_poisoned(&self) -> bool {
        self.0.is_some()
    }

    /// Pass `result` through, remembering it if it poisons the context.
    pub fn track<T>(&mut self, result: Result<T, GpuError>) -> Result<T, GpuError> {
        if let Err(e @ GpuError::ContextPoisoned { .. }) = &result
            && self.0.is_none()
        {
            self.0 = Some(e.clone());
        }
        result
    }
}

/// `Ok(())` or the mapped error, for raw `sys` calls.
pub fn check(call: &str, code: CUresult) -> Result<(), GpuError> {
    code.result().map_err(|e| map(call, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sticky_errors_poison_and_oom_does_not() {
        assert!(is_sticky(CUresult::CUDA_ERROR_ILLEGAL_ADDRESS));
        assert!(!is_sticky(CUresult::CUDA_ERROR_OUT_OF_MEMORY));
        let mut p = Poison::default();
        let e = GpuError::ContextPoisoned {
            call: "cuStreamSynchronize".into(),
            message: "x".into(),
        };
        let _ = p.track::<()>(Err(GpuError::Invalid("not sticky".into())));
        assert!(p.check().is_ok());
        let _ = p.track::<()>(Err(e.clone()));
        assert_eq!(p.check(), Err(e));
    }
}
