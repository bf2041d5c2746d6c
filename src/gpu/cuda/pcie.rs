//! The GPU's PCIe link as Linux reports it in sysfs, and its theoretical bandwidth.

use std::path::Path;

pub mod explain;

/// A PCIe link: generation, lane count and transfer rate.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PcieLink {
    pub generation: u32,
    pub width: u32,
    /// Per lane, GT/s.
    pub gts: f64,
    /// Theoretical bandwidth per direction after line encoding, GB/s (1e9 bytes/s).
    pub gbps_per_direction: f64,
}

/// Read `current_link_speed`/`current_link_width` of `bus_id` (e.g. `0000:1a:00.0`).
pub fn read(bus_id: &str) -> Result<PcieLink, String> {
    read_from(&Path::new("/sys/bus/pci/devices").join(bus_id))
}

/// As [`read`], from a device folder (testable with a fake sysfs).
pub fn read_from(dir: &Path) -> Result<PcieLink, String> {
    // A kernel pseudo-file (/proc, /sys): small, generated text that is always a readable
    // file, never a FIFO or device, so a plain read needs no `bounded_read` cap.
    let get = |f: &str| {
        std::fs::read_to_string(dir.join(f))
            .map(|s| s.trim().to_string())
            .map_err(|e| format!("cannot read {}: {e}", dir.join(f).display()))
    };
    parse(&get("current_link_speed")?, &get("current_link_width")?)
}

/// Parse sysfs text such as `32.0 GT/s PCIe` and `16`.
pub fn parse(speed: &str, width: &str) -> Result<PcieLink, String> {
    let gts: f64 = speed
        .split_whitespace()
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("unrecognised link speed {speed:?}"))?;
    let width: u32 = width
        .trim()
        .parse()
        .map_err(|_| format!("unrecognised link width {width:?}"))?;
    let (generation, encoding) = match gts {
        g if g < 3.0 => (1, 8.0 / 10.0),
        g if g < 6.0 => (2, 8.0 / 10.0),
        g if g < 12.0 => (3, 128.0 / 130.0),
        g if g < 24.0 => (4, 128.0 / 130.0),
        g if g < 48.0 => (5, 128.0 / 130.0),
        // Gen6 uses FLIT mode; 242/256 is its payload share.
        _ => (6, 242.0 / 256.0),
    };
    Ok(PcieLink {
        generation,
        width,
        gts,
        gbps_per_direction: gts * f64::from(width) * encoding / 8.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gen5_x16_is_63_gbps() {
        let l = parse("32.0 GT/s PCIe", "16").unwrap();
        assert_eq!((l.generation, l.width), (5, 16));
        assert!((l.gbps_per_direction - 63.015).abs() < 0.01, "{l:?}");
        let g3 = parse("8.0 GT/s PCIe", "8").unwrap();
        assert_eq!(g3.generation, 3);
        assert!((g3.gbps_per_direction - 7.877).abs() < 0.01);
        assert!(parse("Unknown", "16").is_err());
    }

    #[test]
    fn reads_a_fake_sysfs_folder() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("current_link_speed"), "16.0 GT/s PCIe\n").unwrap();
        std::fs::write(d.path().join("current_link_width"), "16\n").unwrap();
        assert_eq!(read_from(d.path()).unwrap().generation, 4);
        assert!(read_from(&d.path().join("missing")).is_err());
    }
}
