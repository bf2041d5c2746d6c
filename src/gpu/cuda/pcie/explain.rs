//! "Explain my number" (issue 10 §4): what bounds a measured host-device bandwidth besides the
//! code, as short notes. The share of the link's per-direction limit (generation x width), a
//! link trained below what the slot and card support, and a process running on CPUs of another
//! NUMA node than the GPU's change bandwidth more than anything in a program.
//!
//! The notes are pure functions of sysfs text; [`explain`] reads sysfs.

use std::path::Path;

use super::{PcieLink, parse};

/// `gbps` as a share of the link's theoretical bandwidth per direction, e.g. "88% of the Gen5
/// x16 link's 63.0 GB/s per direction".
pub fn share_note(gbps: f64, link: &PcieLink) -> String {
    let share = gbps / link.gbps_per_direction * 100.0;
    format!(
        "{share:.0}% of the Gen{} x{} link's {:.1} GB/s per direction",
        link.generation, link.width, link.gbps_per_direction
    )
}

/// A note when the link runs below its maximum generation or width (`max_*` as sysfs writes
/// `max_link_speed` / `max_link_width`), else `None`.
pub fn below_max_note(current: &PcieLink, max_speed: &str, max_width: &str) -> Option<String> {
    let max = parse(max_speed, max_width).ok()?;
    (current.generation < max.generation || current.width < max.width).then(|| {
        format!(
            "the link runs at Gen{} x{}, below the Gen{} x{} it supports (a power-saving state, \
             a riser or a slot with fewer lanes): at most {:.1} instead of {:.1} GB/s",
            current.generation,
            current.width,
            max.generation,
            max.width,
            current.gbps_per_direction,
            max.gbps_per_direction
        )
    })
}

/// The CPUs of a sysfs/procfs CPU list such as `0-3,8,10-11` (empty if it is not one).
pub fn parse_cpu_list(text: &str) -> Vec<u32> {
    let mut cpus = Vec::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        let bounds: Option<(u32, u32)> = match part.split_once('-') {
            Some((a, b)) => a.trim().parse().ok().zip(b.trim().parse().ok()),
            None => part.trim().parse().ok().map(|c| (c, c)),
        };
        match bounds {
            Some((a, b)) if a <= b && b - a < 65_536 => cpus.extend(a..=b),
            _ => return Vec::new(),
        }
    }
    cpus
}

/// A note when the process may run on CPUs outside the GPU's NUMA node (`gpu_node` as sysfs
/// `numa_node` writes it; -1 means the platform does not say), else `None`.
pub fn numa_note(gpu_node: &str, node_cpus: &str, process_cpus: &str) -> Option<String> {
    let node: i64 = gpu_node.trim().parse().ok().filter(|n| *n >= 0)?;
    let near = parse_cpu_list(node_cpus);
    let mine = parse_cpu_list(process_cpus);
    let far = mine.iter().filter(|c| !near.contains(c)).count();
    (!near.is_empty() && far > 0).then(|| {
        format!(
            "the GPU is on NUMA node {node} ({} CPUs), but this process may run on {far} of its \
             {} CPUs outside it; copies through the far node's memory are slower (try numactl \
             --cpunodebind={node} --membind={node})",
            near.len(),
            mine.len()
        )
    })
}

/// One line for every bandwidth of a report: `of the Gen5 x16 link's 63.0 GB/s per direction:
/// pinned_h2d_gbps 88%, pageable_h2d_gbps 13%`. A figure that adds both directions
/// (`bidirectional_*`) is a share of both directions' limit, and says so.
pub fn shares_line(gbps: &[(&str, f64)], link: &PcieLink) -> Option<String> {
    let parts: Vec<String> = gbps
        .iter()
        .map(|(name, v)| {
            if name.starts_with("bidirectional") {
                let both = 2.0 * link.gbps_per_direction;
                format!(
                    "{name} {:.0}% of both directions' {both:.1}",
                    v / both * 100.0
                )
            } else {
                format!("{name} {:.0}%", v / link.gbps_per_direction * 100.0)
            }
        })
        .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "of the Gen{} x{} link's {:.1} GB/s per direction: {}",
            link.generation,
            link.width,
            link.gbps_per_direction,
            parts.join(", ")
        )
    })
}

/// The notes for a report's bandwidths `gbps` measured on the GPU at PCI `bus_id`: their
/// shares of the link ([`shares_line`]), then [`setup_notes`].
pub fn bandwidth_notes(bus_id: &str, gbps: &[(&str, f64)]) -> Vec<String> {
    if gbps.is_empty() {
        return Vec::new();
    }
    let dev = Path::new("/sys/bus/pci/devices").join(bus_id);
    let mut notes: Vec<String> = super::read_from(&dev)
        .ok()
        .and_then(|link| shares_line(gbps, &link))
        .into_iter()
        .collect();
    notes.extend(setup_notes(bus_id));
    notes
}

/// Every note that applies to `gbps` measured on the GPU at PCI `bus_id`: its share of the link,
/// then [`setup_notes`].
pub fn explain(bus_id: &str, gbps: f64) -> Vec<String> {
    let dev = Path::new("/sys/bus/pci/devices").join(bus_id);
    let mut notes: Vec<String> = super::read_from(&dev)
        .map(|link| share_note(gbps, &link))
        .into_iter()
        .collect();
    notes.extend(setup_notes(bus_id));
    notes
}

/// The notes about the machine rather than a number (link below its maximum, NUMA placement),
/// read from sysfs and `/proc/self/status`; facts that cannot be read are left out.
pub fn setup_notes(bus_id: &str) -> Vec<String> {
    let dev = Path::new("/sys/bus/pci/devices").join(bus_id);
    // A kernel pseudo-file (/proc, /sys): small, generated text that is always a readable
    // file, never a FIFO or device, so a plain read needs no `bounded_read` cap.
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    let mut notes = Vec::new();
    if let (Ok(link), Some(s), Some(w)) = (
        super::read_from(&dev),
        read(&dev.join("max_link_speed")),
        read(&dev.join("max_link_width")),
    ) {
        notes.extend(below_max_note(&link, &s, &w));
    }
    let node = read(&dev.join("numa_node")).unwrap_or_default();
    let node_cpus = node.trim().parse::<u32>().ok().and_then(|n| {
        read(&Path::new("/sys/devices/system/node").join(format!("node{n}/cpulist")))
    });
    let process_cpus = read(Path::new("/proc/self/status")).and_then(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:").map(str::to_string))
    });
    if let (Some(near), Some(mine)) = (node_cpus, process_cpus) {
        notes.extend(numa_note(&node, &near, &mine));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(speed: &str, width: &str) -> PcieLink {
        parse(speed, width).expect("a valid link")
    }

    #[test]
    fn share_of_the_link_per_direction() {
        let gen5 = link("32.0 GT/s PCIe", "16");
        assert_eq!(
            share_note(55.5, &gen5),
            "88% of the Gen5 x16 link's 63.0 GB/s per direction"
        );
    }

    #[test]
    fn every_bandwidth_of_a_report_gets_its_share_in_one_line() {
        let gen5 = link("32.0 GT/s PCIe", "16");
        let line = shares_line(
            &[("pinned_h2d_gbps", 55.5), ("pageable_h2d_gbps", 8.1)],
            &gen5,
        );
        assert_eq!(
            line.as_deref(),
            Some(
                "of the Gen5 x16 link's 63.0 GB/s per direction: pinned_h2d_gbps 88%, \
                 pageable_h2d_gbps 13%"
            )
        );
        assert_eq!(shares_line(&[], &gen5), None);
        // Both directions at once are a share of twice the per-direction limit (the H200's
        // pipeline bound, 99.7 GB/s, printed "158%" before).
        assert_eq!(
            shares_line(&[("bidirectional_gbps", 99.7)], &gen5).as_deref(),
            Some(
                "of the Gen5 x16 link's 63.0 GB/s per direction: bidirectional_gbps 79% of both \
                 directions' 126.0"
            )
        );
    }

    #[test]
    fn a_link_below_its_maximum_is_flagged() {
        let gen4_x8 = link("16.0 GT/s PCIe", "8");
        let note = below_max_note(&gen4_x8, "32.0 GT/s PCIe", "16").expect("flagged");
        assert!(
            note.contains("Gen4 x8") && note.contains("Gen5 x16"),
            "{note}"
        );
        let full = link("32.0 GT/s PCIe", "16");
        assert!(below_max_note(&full, "32.0 GT/s PCIe", "16").is_none());
        assert!(below_max_note(&full, "garbage", "16").is_none());
    }

    #[test]
    fn cpu_lists_parse_and_refuse_junk() {
        assert_eq!(parse_cpu_list("0-3,8,10-11\n"), [0, 1, 2, 3, 8, 10, 11]);
        assert!(parse_cpu_list("3-1").is_empty());
        assert!(parse_cpu_list("x").is_empty());
    }

    #[test]
    fn a_process_outside_the_gpu_node_is_flagged() {
        let note = numa_note("1\n", "16-31", "0-31").expect("flagged");
        assert!(
            note.contains("NUMA node 1") && note.contains("16 of its 32"),
            "{note}"
        );
        assert!(numa_note("1", "16-31", "16-23").is_none());
        assert!(numa_note("-1", "0-31", "0-63").is_none());
    }
}
