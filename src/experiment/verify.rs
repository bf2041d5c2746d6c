//! Data verification: ask the backend whether a destination holds what the host expects, every
//! float, exactly. The real GPU's backend reads the bytes; the simulator compares descriptions
//! of the contents (which fill, which copies and kernels), so both answers are exact at any
//! size. A failure names the first differing float and, on the simulator, what that range holds
//! instead (never written, another chunk's data, the kernel applied twice, ...).

use crate::gpu::{Expect, Gpu, GpuError, HostBuf, Kernel, Mismatch};
use crate::report::Check;

/// A check of the first `bytes / 4` floats of `dst` against `expect` applied to `src`.
fn compare(
    gpu: &mut dyn Gpu,
    name: &str,
    (src, dst): (HostBuf, HostBuf),
    bytes: u64,
    expect: Expect,
) -> Result<Check, GpuError> {
    let n = bytes / 4;
    let (passed, detail) = match gpu.host_compare(src, dst, bytes, expect)? {
        None => (true, format!("all {n} floats match")),
        Some(m) => (false, describe(&m, n)),
    };
    Ok(Check {
        name: name.to_string(),
        passed,
        detail,
    })
}

/// `float 12 of 1024: expected 3.5, got 0 (there it holds bytes never written; ...)`.
fn describe(m: &Mismatch, n: u64) -> String {
    let got = m.got.map_or_else(
        || "a value the simulator does not model".to_string(),
        |g| g.to_string(),
    );
    let mut s = format!(
        "float {} of {n}: expected {}, got {got}",
        m.index, m.expected
    );
    if let Some(note) = &m.note {
        s.push_str(&format!(" ({note})"));
    }
    s
}

/// `dst` must equal `src` exactly (a copy round trip).
pub fn copy_matches(
    gpu: &mut dyn Gpu,
    name: &str,
    src: HostBuf,
    dst: HostBuf,
    bytes: u64,
) -> Result<Check, GpuError> {
    compare(gpu, name, (src, dst), bytes, Expect::Copy)
}

/// `dst` must equal the Transform kernel applied once to `src`, exactly (the fill pattern makes
/// the result exact whether or not the device fuses the multiply-add).
pub fn transform_matches(
    gpu: &mut dyn Gpu,
    name: &str,
    (src, dst): (HostBuf, HostBuf),
    bytes: u64,
    kernel: Kernel,
) -> Result<Check, GpuError> {
    let Kernel::Transform { a, b } = kernel else {
        return Err(GpuError::Invalid(
            "only the transform kernel's output can be verified; the spin kernel's values are \
             not a contract"
                .to_string(),
        ));
    };
    compare(gpu, name, (src, dst), bytes, Expect::Transform { a, b })
}

#[cfg(test)]
mod tests;
