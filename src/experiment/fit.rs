//! Fitting sizes to the memory that is free, on the device and on the host: defaults shrink
//! (with a note), explicit sizes that do not fit are errors that say what was asked, what is
//! free and the largest size that fits.
//!
//! The host check counts everything the run will hold in this process ([`host_bytes_per_byte`],
//! the one place that turns what a backend says it keeps in host memory into bytes): a live GPU's
//! host buffers are real memory; the simulator holds descriptions, not bytes. A size its profiled
//! host could not hold shrinks a default; an explicit one runs with a note that a live run on the
//! profiled machine would be refused (device-memory and this-process limits still refuse). "Free" is the smaller of `MemAvailable` and
//! the room left under an address-space limit (`ulimit -v`, `prlimit --as`), so a run is
//! refused with a message instead of being OOM-killed or aborted by a failed allocation.

use super::ExperimentError;
use super::options::format_bytes;

/// How many bytes of device and host memory each byte of an experiment's size needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    pub device: u64,
    pub host: u64,
}

/// Host bytes this process holds per byte of size on a backend that does (`holds_host_bytes`,
/// from `DeviceInfo`) or does not keep real host buffers: a live GPU holds its host buffers
/// (device buffers are on the GPU); the simulator holds no data at all.
pub fn host_bytes_per_byte(holds_host_bytes: bool, need: Need) -> u64 {
    if holds_host_bytes { need.host } else { 0 }
}

/// Memory that is free now: the device's (from the backend) and the host's (`None` when the
/// platform does not say), whether the backend keeps real host buffers, and the simulated
/// machine's host memory where the backend simulates one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Free {
    pub device: u64,
    pub host: Option<u64>,
    pub holds_host_bytes: bool,
    pub simulated_host: Option<u64>,
}

impl Free {
    /// The backend's free device memory and the host memory this process may still use.
    pub fn now(free_device: u64, holds_host_bytes: bool) -> Free {
        Free {
            device: free_device,
            host: host_available(),
            holds_host_bytes,
            simulated_host: None,
        }
    }

    /// What `info`'s backend can use: [`Free::now`], plus the simulated host's memory, which
    /// the simulator's buffers must fit in although they hold no bytes here.
    pub fn of(info: &crate::gpu::DeviceInfo) -> Free {
        Free {
            simulated_host: info.simulated_host_bytes,
            ..Free::now(info.free_mem, info.holds_host_bytes)
        }
    }
}

/// Names the simulated host in refusals: the profiled machine could not hold the run either.
const SIMULATED_HOST: &str = "simulated host (the profiled machine's)";

/// The host memory this process may still use: `MemAvailable` from `/proc/meminfo`, capped by
/// the room left under the address-space limit (Linux). `None` when neither is known.
pub fn host_available() -> Option<u64> {
    let available = crate::meminfo::available();
    let room = address_space_room();
    match (available, room) {
        (Some(a), Some(r)) => Some(a.min(r)),
        (a, r) => a.or(r),
    }
}

/// Soft `RLIMIT_AS` minus the address space already mapped; `None` when unlimited or unknown.
fn address_space_room() -> Option<u64> {
    // A kernel pseudo-file (/proc, /sys): small, generated text that is always a readable
    // file, never a FIFO or device, so a plain read needs no `bounded_read` cap.
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mapped = crate::meminfo::field(&status, "VmSize:").unwrap_or(0);
    Some(soft.saturating_sub(mapped))
}

/// Leave a tenth for the context, the kernels' modules, the OS and other processes.
fn budget(free: u64) -> u64 {
    free / 10 * 9
}

/// Which memory `size` does not fit in, if any: (what, needed, free).
fn misfit(size: u64, need: Need, free: Free) -> Option<(&'static str, u64, u64)> {
    let dev = size.saturating_mul(need.device);
    if dev > budget(free.device) {
        return Some(("device", dev, free.device));
    }
    let host = size.saturating_mul(host_bytes_per_byte(free.holds_host_bytes, need));
    if let Some(h) = free.host.filter(|&h| host > budget(h)) {
        return Some(("host", host, h));
    }
    let simulated = size.saturating_mul(need.host);
    match free.simulated_host {
        Some(h) if simulated > budget(h) => Some((SIMULATED_HOST, simulated, h)),
        _ => None,
    }
}

/// The largest size (a whole MiB when that much fits) that passes [`misfit`].
fn largest_fitting(need: Need, free: Free) -> u64 {
    let per_host = host_bytes_per_byte(free.holds_host_bytes, need);
    let limit = |free: u64, per: u64| budget(free).checked_div(per).unwrap_or(u64::MAX);
    let mut size = limit(free.device, need.device);
    if let Some(h) = free.host {
        size = size.min(limit(h, per_host));
    }
    if let Some(h) = free.simulated_host {
        size = size.min(limit(h, need.host));
    }
    if size >= 1 << 20 {
        size & !((1 << 20) - 1)
    } else {
        size
    }
}

/// The note of a simulated run whose host buffers (`needed`) the profiled machine's host memory
/// (`host`) could not hold.
fn beyond_profiled_host(needed: u64, host: u64) -> String {
    format!(
        "simulated only: this run's {} of host buffers exceed 90% of the profiled machine's {} of \
         host memory, so a live run there would be refused for host memory (the simulator holds \
         no bytes, so it runs here)",
        format_bytes(needed),
        format_bytes(host)
    )
}

/// `bytes` as a `--size` value the learner can paste: `3G`, `2457M` or plain bytes.
fn size_arg(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{}G", b >> 30),
        b if b >= MIB && b % MIB == 0 => format!("{}M", b / MIB),
        b => b.to_string(),
    }
}

/// The size to use: `asked` if given (and it fits), else `default` halved until it fits.
/// Returns the size and, when a default was shrunk, a note for the report.
pub fn fit_size(
    asked: Option<u64>,
    default: u64,
    need: Need,
    free: Free,
) -> Result<(u64, Option<String>), ExperimentError> {
    let too_large = |size: u64, (what, needed, free_bytes): (&'static str, u64, u64)| {
        ExperimentError::TooLarge {
            what,
            asked: format_bytes(size),
            needed: format_bytes(needed),
            free: format_bytes(free_bytes),
            fits: size_arg(largest_fitting(need, free)),
        }
    };
    if let Some(size) = asked {
        return match misfit(size, need, free) {
            // Only the simulated host is too small: the simulator holds no bytes, so the run
            // goes ahead (issue 10 §1: `--size 64G` on the simulator), and says what a live run
            // on the profiled machine would meet.
            Some((SIMULATED_HOST, needed, host)) => {
                Ok((size, Some(beyond_profiled_host(needed, host))))
            }
            Some(m) => Err(too_large(size, m)),
            None => Ok((size, None)),
        };
    }
    let mut size = default;
    while misfit(size, need, free).is_some() && size > 4096 {
        size /= 2;
    }
    if let Some(m) = misfit(size, need, free) {
        return Err(too_large(size, m));
    }
    let note = (size < default).then(|| {
        format!(
            "size reduced from {} to {} to fit the free memory ({} on the device, {} on the host)",
            format_bytes(default),
            format_bytes(size),
            format_bytes(free.device),
            free.host.map_or("unknown".into(), format_bytes)
        )
    });
    Ok((size, note))
}

#[cfg(test)]
#[path = "fit_tests.rs"]
mod tests;
