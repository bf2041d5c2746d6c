//! CUDA calls that fail without ending the program: the call returns its error code (as the
//! runtime does), `cudaGetLastError` returns and clears it, and the run goes on so what follows
//! is still checked. Only what the real program could not survive stops a run.

use super::args::Args;
use super::value::Value;
use super::{Interp, Res};

/// `cudaErrorInvalidValue`: e.g. `cudaFree` of memory from `cudaMallocHost`.
pub(super) const INVALID_VALUE: i64 = 1;
/// `cudaErrorInvalidResourceHandle`: e.g. the elapsed time of an event never recorded.
pub(super) const INVALID_HANDLE: i64 = 400;
/// `cudaErrorNotReady`: a query of unfinished work, or the elapsed time of an event not yet
/// complete.
pub(super) const NOT_READY: i64 = 600;

/// The error codes the subset knows: value, name, and `cudaGetErrorString`'s text (CUDA 12/13
/// runtime).
pub(crate) const CODES: &[(i64, &str, &str)] = &[
    (0, "cudaSuccess", "no error"),
    (1, "cudaErrorInvalidValue", "invalid argument"),
    (2, "cudaErrorMemoryAllocation", "out of memory"),
    (
        17,
        "cudaErrorInvalidDevicePointer",
        "invalid device pointer",
    ),
    (
        21,
        "cudaErrorInvalidMemcpyDirection",
        "invalid copy direction for memcpy",
    ),
    (
        400,
        "cudaErrorInvalidResourceHandle",
        "invalid resource handle",
    ),
    (600, "cudaErrorNotReady", "device not ready"),
];

/// The name of error `code` (`cudaGetErrorName`), or CUDA's answer for a code it does not know.
pub(super) fn name(code: i64) -> &'static str {
    CODES
        .iter()
        .find(|c| c.0 == code)
        .map_or("cudaErrorUnknown", |c| c.1)
}

/// `cudaGetErrorName(err)` when `name_of`, else `cudaGetErrorString(err)`.
pub(super) fn error_text(a: &Args, name_of: bool) -> Res<Value> {
    let code = a.int(0)?;
    let text = if name_of { name(code) } else { text(code) };
    Ok(Value::Str(text.into()))
}

/// `cudaGetErrorString` of `code`.
pub(super) fn text(code: i64) -> &'static str {
    CODES
        .iter()
        .find(|c| c.0 == code)
        .map_or("unrecognized error code", |c| c.2)
}

/// A CUDA call that returned an error code; the run went on.
#[derive(Debug, Clone, PartialEq)]
pub struct CudaError {
    pub line: u32,
    /// The call, e.g. `cudaFree`.
    pub call: String,
    pub code: i64,
    /// The code's name, e.g. `cudaErrorInvalidValue`.
    pub name: &'static str,
    /// Why it failed and what to do.
    pub message: String,
}

impl std::fmt::Display for CudaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CUDA error: `{}` returned {} ({}): {}",
            self.call, self.name, self.code, self.message
        )
    }
}

impl Interp<'_> {
    /// `call` fails with `code`: remember it for `cudaGetLastError` and the verdict, and give
    /// the code as the call's value.
    pub(super) fn cuda_error(
        &mut self,
        call: &str,
        code: i64,
        message: impl Into<String>,
    ) -> Value {
        self.last_error = code;
        self.out.cuda_errors.push(CudaError {
            line: self.line,
            call: call.to_string(),
            code,
            name: name(code),
            message: message.into(),
        });
        Value::Int(code)
    }

    /// `cudaGetLastError()` (`clear`) or `cudaPeekAtLastError()`: the last error code.
    pub(super) fn last_error(&mut self, clear: bool) -> Value {
        let code = self.last_error;
        if clear {
            self.last_error = 0;
        }
        Value::Int(code)
    }
}
