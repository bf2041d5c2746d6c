//! Fitting sizes to the memory that is free, on the device and on the host: defaults shrink
//! (with a note), explicit sizes that do not fit are errors that say what was asked and what
//! is free.

use super::ExperimentError;
use super::options::format_bytes;

/// How many bytes of device and host memory each byte of an experiment's size needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    pub device: u64,
    pub host: u64,
}

/// Memory that is free now: the device's (from the backend) and the host's (`None` when the
/// platform does not say).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Free {
    pub device: u64,
    pub host: Option<u64>,
}

impl Free {
    /// The backend's free device memory and this machine's available memory. Both backends
    /// really allocate host memory (the simulator keeps the data), so the host check applies
    /// to both.
    pub fn now(free_device: u64) -> Free {
        Free {
            device: free_device,
            host: host_available(),
        }
    }
}

/// `MemAvailable` from `/proc/meminfo` (Linux), in bytes.
pub fn host_available() -> Option<u64> {
    crate::meminfo::available()
}

/// Which memory `size` does not fit in, if any: (what, needed, free).
fn misfit(size: u64, need: Need, free: Free) -> Option<(&'static str, u64, u64)> {
    // Leave a tenth for the context, the kernels' modules, the OS and other processes.
    let budget = |free: u64| free / 10 * 9;
    let dev = size.saturating_mul(need.device);
    if dev > budget(free.device) {
        return Some(("device", dev, free.device));
    }
    let host = size.saturating_mul(need.host);
    match free.host {
        Some(h) if host > budget(h) => Some(("host", host, h)),
        _ => None,
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
    let too_large =
        |size: u64, (what, needed, free): (&'static str, u64, u64)| ExperimentError::TooLarge {
            what,
            asked: format_bytes(size),
            needed: format_bytes(needed),
            free: format_bytes(free),
        };
    if let Some(size) = asked {
        return match misfit(size, need, free) {
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
mod tests {
    use super::*;

    const ONE: Need = Need { device: 1, host: 1 };

    #[test]
    fn defaults_shrink_and_explicit_sizes_fail() {
        let free = Free {
            device: 100 << 20,
            host: None,
        };
        let (s, note) = fit_size(None, 256 << 20, ONE, free).unwrap();
        assert_eq!(s, 64 << 20);
        assert!(note.unwrap().contains("256 MiB"));
        let big = Free {
            device: 1 << 30,
            host: Some(1 << 40),
        };
        assert_eq!(fit_size(None, 1 << 20, ONE, big).unwrap(), (1 << 20, None));
        let two = Need { device: 2, host: 1 };
        let err = fit_size(Some(1 << 30), 0, two, big)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("1 GiB") && err.contains("2 GiB") && err.contains("device"),
            "{err}"
        );
    }

    #[test]
    fn host_memory_counts_too() {
        let free = Free {
            device: 1 << 40,
            host: Some(1 << 30),
        };
        let four = Need { device: 1, host: 4 };
        let err = fit_size(Some(512 << 20), 0, four, free)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("host") && err.contains("2 GiB") && err.contains("1 GiB"),
            "{err}"
        );
        let (s, _) = fit_size(None, 1 << 30, four, free).unwrap();
        assert_eq!(s, 128 << 20);
    }
}
