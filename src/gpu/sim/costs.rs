//! What each operation costs in the model, read from the [`Profile`].
//!
//! Bandwidths become bytes per microsecond (1 GB/s = 1e3 B/µs); per-GiB costs scale linearly
//! with size. Small copies are slow only through the fixed latency, as on the real GPU.

use crate::gpu::Kernel;
use crate::gpu::profile::Profile;
use crate::report::HostMemKind;

/// A copy's direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dir {
    H2d,
    D2h,
}

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// `bytes` in GiB.
pub(super) fn gib(bytes: u64) -> f64 {
    bytes as f64 / GIB
}

/// Bytes per microsecond of one copy running alone.
pub(super) fn copy_bytes_per_us(p: &Profile, kind: HostMemKind, dir: Dir) -> f64 {
    let gbps = match (kind, dir) {
        (HostMemKind::Pinned, Dir::H2d) => p.pinned_h2d_gbps,
        (HostMemKind::Pinned, Dir::D2h) => p.pinned_d2h_gbps,
        (HostMemKind::Pageable, Dir::H2d) => p.pageable_h2d_gbps,
        (HostMemKind::Pageable, Dir::D2h) => p.pageable_d2h_gbps,
        (HostMemKind::WriteCombined, Dir::H2d) => p.write_combined_h2d_gbps,
        (HostMemKind::WriteCombined, Dir::D2h) => p.write_combined_d2h_gbps,
        (HostMemKind::Registered, Dir::H2d) => p.registered_h2d_gbps,
        (HostMemKind::Registered, Dir::D2h) => p.registered_d2h_gbps,
    };
    gbps * 1e3
}

/// Device time before a copy's bytes start to flow.
pub(super) fn copy_latency_us(p: &Profile, kind: HostMemKind) -> f64 {
    match kind {
        HostMemKind::Pageable => p.copy_latency_us + p.pageable_copy_latency_us,
        _ => p.copy_latency_us,
    }
}

/// Host time of staging a small pageable H2D copy before the call returns.
pub(super) fn pageable_staging_us(p: &Profile, bytes: u64) -> f64 {
    bytes as f64 / copy_bytes_per_us(p, HostMemKind::Pageable, Dir::H2d)
}

/// Both directions together, bytes per microsecond.
pub(super) fn bidirectional_bytes_per_us(p: &Profile) -> f64 {
    p.bidirectional_gbps * 1e3
}

/// Device time of a kernel over `bytes` of `f32`s. Both kernels pay the launch latency;
/// Transform then streams every byte in and out of device memory, Spin runs its FMA chain.
pub(super) fn kernel_us(p: &Profile, kernel: Kernel, bytes: u64) -> f64 {
    let body = match kernel {
        Kernel::Transform { .. } => 2.0 * bytes as f64 / (p.device_mem_gbps * 1e3),
        Kernel::Spin { iterations } => f64::from(iterations) * p.spin_ns_per_iteration / 1e3,
    };
    p.kernel_launch_latency_us + body
}

/// Host time of allocating `bytes` of host memory of `kind` (first touch not included).
pub(super) fn host_alloc_us(p: &Profile, kind: HostMemKind, bytes: u64) -> f64 {
    match kind {
        HostMemKind::Pinned | HostMemKind::WriteCombined => {
            p.pinned_alloc_fixed_us + p.pinned_alloc_ms_per_gib * 1e3 * gib(bytes)
        }
        HostMemKind::Pageable | HostMemKind::Registered => p.pageable_alloc_us,
    }
}

/// Host time of freeing `bytes` of host memory of `kind` (unregistering first if needed);
/// returning pageable pages to the OS costs only for pages that were touched.
pub(super) fn host_free_us(p: &Profile, kind: HostMemKind, bytes: u64, touched: bool) -> f64 {
    let pages = if touched {
        p.pageable_free_ms_per_gib * 1e3 * gib(bytes)
    } else {
        0.0
    };
    match kind {
        HostMemKind::Pinned | HostMemKind::WriteCombined => {
            p.pinned_free_ms_per_gib * 1e3 * gib(bytes)
        }
        HostMemKind::Pageable => p.pageable_alloc_us + pages,
        HostMemKind::Registered => p.pageable_alloc_us + pages + unregister_us(p, bytes),
    }
}

/// Host time of the first touch of every page of `bytes` of pageable memory.
pub(super) fn first_touch_us(p: &Profile, bytes: u64) -> f64 {
    p.pageable_alloc_ms_per_gib * 1e3 * gib(bytes)
}

/// Host time of `cuMemHostRegister` of `bytes` of touched memory.
pub(super) fn register_us(p: &Profile, bytes: u64) -> f64 {
    p.register_ms_per_gib * 1e3 * gib(bytes)
}

/// Host time of `cuMemHostUnregister` of `bytes`.
pub(super) fn unregister_us(p: &Profile, bytes: u64) -> f64 {
    p.unregister_ms_per_gib * 1e3 * gib(bytes)
}

/// SM clock the exercises' `spin(cycles)` counts, in cycles per µs. Not yet a profile field:
/// 1980 MHz is the H200 SXM's maximum SM clock (what `nvidia-smi -q -d CLOCK` reports as max);
/// `calibrate` should measure it (`CU_DEVICE_ATTRIBUTE_CLOCK_RATE` on the live side).
const SPIN_CYCLES_PER_US: f64 = 1980.0;

/// Device time of the exercises' `spin(cycles)` kernel.
pub(super) fn spin_cycles_us(p: &Profile, cycles: u64) -> f64 {
    p.kernel_launch_latency_us + cycles as f64 / SPIN_CYCLES_PER_US
}

/// Device time of `cuMemsetD8Async` over `bytes`: modelled as a kernel writing every byte once.
pub(super) fn memset_us(p: &Profile, bytes: u64) -> f64 {
    p.kernel_launch_latency_us + bytes as f64 / (p.device_mem_gbps * 1e3)
}

/// Device time of a device-to-device copy of `bytes`: modelled as a kernel reading and writing
/// every byte, like the transform.
pub(super) fn d2d_us(p: &Profile, bytes: u64) -> f64 {
    p.kernel_launch_latency_us + 2.0 * bytes as f64 / (p.device_mem_gbps * 1e3)
}
