//! What managed and mapped memory cost in the model, computed from sizes, strides, the link and
//! the page faults (the [`Profile`]'s fields under "alternatives to copying"): pure functions,
//! so the tests can move one parameter and watch the time move.
//!
//! Managed memory moves in fault blocks (`managed_fault_bytes`): a touch of any float of a block
//! that lies on the other side faults it over, paying the fault and the block's migration.
//! Mapped memory never moves: every pass of a kernel reads and writes it across the link, at
//! `mapped_gbps` per direction when neighbouring threads read neighbouring floats, and at one
//! round trip (`mapped_scattered_access_ns`) per float when each float lies alone in its
//! 128-byte line.

use crate::gpu::Access;
use crate::gpu::profile::Profile;

/// Bytes of one line of the GPU's memory system: a float alone in one is a scattered access.
const LINE_BYTES: u64 = 128;
/// Bytes a scattered access moves in device memory (one 32-byte sector).
const SECTOR_BYTES: u64 = 32;

/// Whether `access` reads each float alone in its line.
pub(in crate::gpu::sim) fn scattered(access: Access) -> bool {
    access.stride * 4 >= LINE_BYTES
}

/// The fault blocks of a `bytes`-long buffer that `access` touches, in order.
pub(in crate::gpu::sim) fn blocks_touched(p: &Profile, bytes: u64, access: Access) -> Vec<u64> {
    let block = p.managed_fault_bytes.max(4);
    let step = access.stride.max(1) * 4;
    if step <= block {
        return (0..bytes.div_ceil(block)).collect();
    }
    let mut v: Vec<u64> = (0..access.touched(bytes))
        .map(|k| k * step / block)
        .collect();
    v.dedup();
    v
}

/// Time of `faults` page faults on managed memory, each migrating one block, on top of
/// `fault_us` each: GPU faults (device time) and host faults (host time) alike.
pub(in crate::gpu::sim) fn faults_us(p: &Profile, faults: u64, fault_us: f64) -> f64 {
    let migrate = p.managed_fault_bytes as f64 / (p.managed_migrate_gbps * 1e3);
    faults as f64 * (fault_us + migrate)
}

/// Device time of `cuMemPrefetchAsync` moving `bytes`.
pub(in crate::gpu::sim) fn migrate_bytes_per_us(p: &Profile) -> f64 {
    p.managed_migrate_gbps * 1e3
}

/// Where one operand of the strided kernel lives while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::gpu::sim) enum Place {
    /// Device memory, or managed pages already on the device.
    DeviceMemory,
    /// Mapped host memory, read or written across the link.
    Mapped,
}

/// Device time of the strided kernel over `bytes`, its input and output where `places` say,
/// once any faults are paid: per pass, the slowest of device memory and each link direction,
/// plus the scattered round trips across the link.
pub(in crate::gpu::sim) fn strided_kernel_us(
    p: &Profile,
    bytes: u64,
    access: Access,
    places: [Place; 2],
) -> f64 {
    let touched = access.touched(bytes);
    let moved = if scattered(access) {
        touched * SECTOR_BYTES
    } else {
        touched * 4
    };
    let (mut hbm, mut link, mut round_trips) = (0u64, 0.0f64, 0u64);
    for place in places {
        match place {
            Place::DeviceMemory => hbm += moved,
            Place::Mapped if scattered(access) => round_trips += touched,
            // Reads and writes cross in opposite directions, at once: the slower one counts.
            Place::Mapped => link = link.max(moved as f64 / (p.mapped_gbps * 1e3)),
        }
    }
    let hbm_us = hbm as f64 / (p.device_mem_gbps * 1e3);
    let pass = hbm_us.max(link) + round_trips as f64 * p.mapped_scattered_access_ns / 1e3;
    p.kernel_launch_latency_us + f64::from(access.passes) * pass
}

/// Host time of the host's checksum of `touched` floats (faults not included).
pub(in crate::gpu::sim) fn host_sum_us(p: &Profile, touched: u64) -> f64 {
    touched as f64 * p.host_sum_ns_per_float / 1e3
}

/// The fields a profile needs before the model can run managed or mapped memory: each name and
/// whether it is set (profiles older than them have zeros).
pub(in crate::gpu::sim) fn missing_fields(p: &Profile) -> Vec<&'static str> {
    [
        ("host_sum_ns_per_float", p.host_sum_ns_per_float),
        ("managed_migrate_gbps", p.managed_migrate_gbps),
        ("managed_fault_bytes", p.managed_fault_bytes as f64),
        ("mapped_gbps", p.mapped_gbps),
    ]
    .into_iter()
    .filter(|(_, v)| *v <= 0.0)
    .map(|(n, _)| n)
    .collect()
}

#[cfg(test)]
mod tests;
