//! Data verification: compare what came back with the host's expectation. On a backend whose
//! host memory can be read in bulk (the real GPU) every float is compared; on the simulator, a
//! spread of floats (first, last, evenly spaced ones and every chunk's edges), which keeps a
//! 256 MiB check cheap while still catching a wrong offset, a missing chunk or a skipped kernel.
//! The check's detail says which was done.

use crate::gpu::{Gpu, GpuError, HostBuf, Kernel};
use crate::report::Check;

/// How many `f32`s a check reads at most.
pub const SAMPLES: u64 = 4096;

/// Indices to check in a buffer of `n` floats: both ends and evenly spaced ones between, plus
/// the first and last float of each of `chunks` equal chunks (where chunk bugs show).
pub fn sample_indices(n: u64, chunks: u64) -> Vec<u64> {
    if n == 0 {
        return Vec::new();
    }
    let k = SAMPLES.min(n).max(2);
    let mut idx: Vec<u64> = (0..k).map(|i| i * (n - 1) / (k - 1)).collect();
    for c in 0..chunks.min(SAMPLES) {
        let lo = c * n / chunks.max(1);
        let hi = ((c + 1) * n / chunks.max(1)).saturating_sub(1);
        idx.extend([lo, hi.min(n - 1)]);
    }
    idx.push(n - 1);
    idx.sort_unstable();
    idx.dedup();
    idx
}

fn same(a: f32, b: f32, rel: f32) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-30)
}

/// Check that `dst` holds `expect(src[i])` at the sampled indices of `bytes / 4` floats.
fn compare(
    gpu: &mut dyn Gpu,
    name: &str,
    (src, dst): (HostBuf, HostBuf),
    bytes: u64,
    chunks: u64,
    expect: impl Fn(f32) -> f32,
    rel: f32,
) -> Result<Check, GpuError> {
    let n = bytes / 4;
    if gpu.bulk_reads() {
        return compare_all(gpu, name, (src, dst), n, expect, rel);
    }
    let idx = sample_indices(n, chunks);
    for &i in &idx {
        let want = expect(gpu.host_read_f32(src, i)?);
        let got = gpu.host_read_f32(dst, i)?;
        if !same(want, got, rel) {
            return Ok(Check {
                name: name.to_string(),
                passed: false,
                detail: format!("float {i} of {n}: expected {want}, got {got}"),
            });
        }
    }
    Ok(Check {
        name: name.to_string(),
        passed: true,
        detail: format!("{} of {n} floats compared, sampled", idx.len()),
    })
}

/// Compare every one of the `n` floats, a block at a time.
fn compare_all(
    gpu: &mut dyn Gpu,
    name: &str,
    (src, dst): (HostBuf, HostBuf),
    n: u64,
    expect: impl Fn(f32) -> f32,
    rel: f32,
) -> Result<Check, GpuError> {
    const BLOCK: u64 = 1 << 20;
    let (mut a, mut b) = (vec![0f32; BLOCK as usize], vec![0f32; BLOCK as usize]);
    let mut start = 0;
    while start < n {
        let len = (n - start).min(BLOCK) as usize;
        gpu.host_read_f32s(src, start, &mut a[..len])?;
        gpu.host_read_f32s(dst, start, &mut b[..len])?;
        let bad = a[..len]
            .iter()
            .zip(&b[..len])
            .position(|(x, y)| !same(expect(*x), *y, rel));
        if let Some(k) = bad {
            let i = start + k as u64;
            return Ok(Check {
                name: name.to_string(),
                passed: false,
                detail: format!("float {i} of {n}: expected {}, got {}", expect(a[k]), b[k]),
            });
        }
        start += len as u64;
    }
    Ok(Check {
        name: name.to_string(),
        passed: true,
        detail: format!("all {n} floats compared"),
    })
}

/// `dst` must equal `src` exactly (a copy round trip).
pub fn copy_matches(
    gpu: &mut dyn Gpu,
    name: &str,
    src: HostBuf,
    dst: HostBuf,
    bytes: u64,
) -> Result<Check, GpuError> {
    compare(gpu, name, (src, dst), bytes, 1, |x| x, 0.0)
}

/// `dst` must equal the Transform kernel applied to `src` (within float rounding: the device
/// may fuse the multiply-add).
pub fn transform_matches(
    gpu: &mut dyn Gpu,
    name: &str,
    (src, dst): (HostBuf, HostBuf),
    bytes: u64,
    chunks: u64,
    kernel: Kernel,
) -> Result<Check, GpuError> {
    let (a, b) = match kernel {
        Kernel::Transform { a, b } => (a, b),
        Kernel::Spin { .. } => (1.0, 0.0),
    };
    compare(
        gpu,
        name,
        (src, dst),
        bytes,
        chunks,
        |x| Kernel::transform_host(x, a, b),
        1e-5,
    )
}

#[cfg(test)]
#[path = "verify/bulk_tests.rs"]
mod bulk_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_cover_ends_and_chunk_edges() {
        let idx = sample_indices(1 << 20, 4);
        assert_eq!(idx[0], 0);
        assert_eq!(*idx.last().unwrap(), (1 << 20) - 1);
        for edge in [1 << 18, (1 << 18) - 1, 3 << 18] {
            assert!(idx.contains(&edge), "missing chunk edge {edge}");
        }
        assert_eq!(sample_indices(3, 1), vec![0, 1, 2]);
        assert!(sample_indices(0, 1).is_empty());
    }

    #[test]
    fn fused_multiply_add_rounding_is_tolerated_but_errors_are_not() {
        assert!(same(1.0, 1.0 + 1e-7, 1e-5));
        assert!(!same(1.0, 1.01, 1e-5));
        assert!(same(f32::NAN, f32::NAN, 0.0));
    }
}
