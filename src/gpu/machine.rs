//! The facts about the machine that decide whether the lessons' rules hold on it (issue 30,
//! "The machine it runs on"): how many copy engines, whether the GPU can address pageable host
//! memory itself (HMM, ATS), whether it may use a registered buffer's host pointer, whether it
//! is integrated with the host, the driver model and the link.
//!
//! The lessons teach the common case: a discrete GPU on PCIe under Linux, with two or more copy
//! engines and copy engines that need pinned pages. [`notes`] says, for a device, where that
//! case does not hold and which card covers it. A live GPU reads the facts from the driver
//! ([`crate::gpu::cuda`]); the simulator takes them from its profile, so `info` says which
//! machine it models.

use serde::{Deserialize, Serialize};

/// How the GPU reaches pageable host memory (`malloc`, `new`), from two device attributes:
/// `pageableMemoryAccess` and `pageableMemoryAccessUsesHostPageTables` (CUDA Runtime API,
/// `cudaDeviceGetAttribute`; lesson 1, "When the GPU can read pageable memory").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Addressing {
    /// `pageableMemoryAccess` = 0: copy engines need pinned pages; pageable copies are staged.
    None,
    /// `pageableMemoryAccess` = 1 with separate GPU page tables: Linux HMM, software coherence.
    Hmm,
    /// `pageableMemoryAccessUsesHostPageTables` = 1: ATS, the GPU uses the CPU's page tables
    /// (Grace Hopper over NVLink-C2C).
    Ats,
}

impl Addressing {
    /// From the two attributes' values.
    pub fn from_attributes(pageable_memory_access: bool, uses_host_page_tables: bool) -> Self {
        match (pageable_memory_access, uses_host_page_tables) {
            (_, true) => Addressing::Ats,
            (true, false) => Addressing::Hmm,
            (false, false) => Addressing::None,
        }
    }

    /// As `info` prints it.
    pub fn label(self) -> &'static str {
        match self {
            Addressing::None => "none (pageable memory is staged through pinned buffers)",
            Addressing::Hmm => "HMM (the GPU can read pageable memory; separate page tables)",
            Addressing::Ats => "ATS (the GPU uses the CPU's page tables)",
        }
    }
}

/// Which driver model runs the GPU: on Windows a GPU is a display device (WDDM) or a compute
/// device (TCC, `cudaDevAttrTccDriver` = 1); Linux has one model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DriverModel {
    Linux,
    Wddm,
    Tcc,
}

impl DriverModel {
    /// The model of this build's platform for a device whose TCC attribute is `tcc`.
    pub fn of_this_platform(tcc: bool) -> Self {
        match (cfg!(windows), tcc) {
            (false, _) => DriverModel::Linux,
            (true, true) => DriverModel::Tcc,
            (true, false) => DriverModel::Wddm,
        }
    }

    /// As `info` prints it.
    pub fn label(self) -> &'static str {
        match self {
            DriverModel::Linux => "Linux",
            DriverModel::Wddm => "Windows WDDM",
            DriverModel::Tcc => "Windows TCC",
        }
    }
}

/// What is known about the machine beyond the copy-engine count (which [`super::DeviceInfo`]
/// holds). `None` where it is not known: a profile recorded before these fields existed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MachineFacts {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub addressing: Option<Addressing>,
    /// `cudaDevAttrCanUseHostPointerForRegisteredMem`: a kernel may use a `cudaHostRegister`ed
    /// buffer's own host pointer (else it needs `cudaHostGetDevicePointer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_use_host_pointer_for_registered_mem: Option<bool>,
    /// `cudaDevAttrConcurrentManagedAccess`: the GPU and the CPU may use managed memory at the
    /// same time (pages migrate on demand; prefetching applies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrent_managed_access: Option<bool>,
    /// `cudaDevAttrIntegrated`: the GPU shares the host's memory (no link to cross).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integrated: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver_model: Option<DriverModel>,
    /// The host link as measured or recorded, e.g. `PCIe Gen5 x16`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_link: Option<String>,
}

/// Where this machine leaves the case the lessons teach, one sentence each, with the card that
/// covers it; empty when every fact matches that case. `copy_engines` is
/// `cudaDevAttrAsyncEngineCount`.
pub fn notes(copy_engines: u32, facts: &MachineFacts) -> Vec<String> {
    let mut out = Vec::new();
    match copy_engines {
        0 => out.push(
            "no copy engine runs beside a kernel (asyncEngineCount 0): copies and kernels never \
             overlap, so lessons 3 and 4's pipelines gain nothing here"
                .to_string(),
        ),
        1 => out.push(
            "one copy engine (asyncEngineCount 1): an upload and a download never run at the same \
             time; a pipeline overlaps one direction at a time with compute (lesson 4, \"Copy \
             engines\")"
                .to_string(),
        ),
        _ => {}
    }
    match facts.addressing {
        Some(Addressing::Hmm) => out.push(
            "HMM: a kernel can read malloc memory itself, by faulting pages over (lesson 1, \"When \
             the GPU can read pageable memory\")"
                .to_string(),
        ),
        Some(Addressing::Ats) => out.push(
            "ATS: the GPU uses the CPU's page tables, so a kernel reads malloc memory in place and \
             cudaMallocHost may not page-lock (lessons 1 and 2)"
                .to_string(),
        ),
        Some(Addressing::None) | None => {}
    }
    if facts.integrated == Some(true) {
        out.push(
            "an integrated GPU: it shares the host's memory, so there is no link to cross and \
             copies cost memory bandwidth, not link time"
                .to_string(),
        );
    }
    if facts.driver_model == Some(DriverModel::Wddm) {
        out.push(
            "Windows WDDM: the GPU is also a display device; overlap measured here may differ \
             from this course's Linux figures (NVIDIA forum 263495 reports fewer concurrent \
             kernels once events are recorded and queried)"
                .to_string(),
        );
    }
    out
}

/// The machine in one line for the experiment pane (the full block is `cuda-academy info`'s):
/// copy engines, how the GPU reaches pageable memory, the link and the driver model, each left
/// out where it is not known. The host link is outside text (a profile's), so the caller
/// sanitises the line.
pub fn one_line(copy_engines: u32, facts: &MachineFacts) -> String {
    let engines = match copy_engines {
        1 => "1 copy engine".to_string(),
        n => format!("{n} copy engines"),
    };
    let mut parts = vec![engines];
    parts.extend(facts.addressing.map(|a| match a {
        Addressing::None => "no HMM/ATS".to_string(),
        Addressing::Hmm => "HMM".to_string(),
        Addressing::Ats => "ATS".to_string(),
    }));
    if facts.integrated == Some(true) {
        parts.push("integrated".to_string());
    }
    parts.extend(facts.host_link.clone());
    parts.extend(facts.driver_model.map(|d| d.label().to_string()));
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_attributes_name_the_addressing_mode() {
        assert_eq!(Addressing::from_attributes(false, false), Addressing::None);
        assert_eq!(Addressing::from_attributes(true, false), Addressing::Hmm);
        assert_eq!(Addressing::from_attributes(true, true), Addressing::Ats);
    }

    #[test]
    fn the_one_line_names_each_known_fact_and_leaves_out_the_unknown() {
        let h200 = MachineFacts {
            addressing: Some(Addressing::None),
            integrated: Some(false),
            driver_model: Some(DriverModel::Linux),
            host_link: Some("PCIe Gen5 x16".to_string()),
            ..MachineFacts::default()
        };
        assert_eq!(
            one_line(3, &h200),
            "3 copy engines · no HMM/ATS · PCIe Gen5 x16 · Linux"
        );
        assert_eq!(one_line(1, &MachineFacts::default()), "1 copy engine");
        let gh = MachineFacts {
            addressing: Some(Addressing::Ats),
            integrated: Some(true),
            ..MachineFacts::default()
        };
        assert_eq!(one_line(2, &gh), "2 copy engines · ATS · integrated");
    }

    #[test]
    fn the_lessons_case_has_no_note_and_each_departure_has_one() {
        let common = MachineFacts {
            addressing: Some(Addressing::None),
            integrated: Some(false),
            driver_model: Some(DriverModel::Linux),
            ..MachineFacts::default()
        };
        assert_eq!(notes(3, &common), Vec::<String>::new());
        assert!(notes(1, &common)[0].contains("one copy engine"));
        assert!(notes(0, &common)[0].contains("never overlap"));
        let ats = MachineFacts {
            addressing: Some(Addressing::Ats),
            ..common.clone()
        };
        assert!(notes(2, &ats)[0].starts_with("ATS"));
        let wddm = MachineFacts {
            driver_model: Some(DriverModel::Wddm),
            integrated: Some(true),
            ..common
        };
        let n = notes(2, &wddm);
        assert_eq!(n.len(), 2, "{n:?}");
        assert!(
            n[0].contains("integrated") && n[1].contains("WDDM"),
            "{n:?}"
        );
    }
}
