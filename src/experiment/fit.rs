//! Fitting sizes to the memory that is free: defaults shrink (with a note), explicit sizes that
//! do not fit are errors that say what was asked and what is free.

use super::ExperimentError;
use super::options::format_bytes;

/// The size to use: `asked` if given (and it fits), else `default` halved until it fits.
/// `device_factor` is how many bytes of device memory each byte of size needs. Returns the size
/// and, when a default was shrunk, a note for the report.
pub fn fit_size(
    asked: Option<u64>,
    default: u64,
    device_factor: u64,
    free_device: u64,
) -> Result<(u64, Option<String>), ExperimentError> {
    // Leave room for the context, the kernels' modules and other processes.
    let budget = free_device / 10 * 9;
    let need = |s: u64| s.saturating_mul(device_factor.max(1));
    if let Some(size) = asked {
        if need(size) > budget {
            return Err(ExperimentError::TooLarge {
                what: "device",
                asked: format_bytes(size),
                needed: format_bytes(need(size)),
                free: format_bytes(free_device),
            });
        }
        return Ok((size, None));
    }
    let mut size = default;
    while need(size) > budget && size > 4096 {
        size /= 2;
    }
    if need(size) > budget {
        return Err(ExperimentError::TooLarge {
            what: "device",
            asked: format_bytes(size),
            needed: format_bytes(need(size)),
            free: format_bytes(free_device),
        });
    }
    let note = (size < default).then(|| {
        format!(
            "size reduced from {} to {} to fit the {} of free device memory",
            format_bytes(default),
            format_bytes(size),
            format_bytes(free_device)
        )
    });
    Ok((size, note))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_shrink_and_explicit_sizes_fail() {
        let (s, note) = fit_size(None, 256 << 20, 1, 100 << 20).unwrap();
        assert_eq!(s, 64 << 20);
        assert!(note.unwrap().contains("256 MiB"));
        assert_eq!(
            fit_size(None, 1 << 20, 1, 1 << 30).unwrap(),
            (1 << 20, None)
        );
        let err = fit_size(Some(1 << 30), 0, 2, 1 << 30)
            .unwrap_err()
            .to_string();
        assert!(err.contains("1 GiB") && err.contains("2 GiB"), "{err}");
    }
}
