//! `cuda-academy info [--json]`: the GPU, its PCIe link, what is available (driver, NVRTC,
//! CUPTI) and which backend runs and why. Succeeds without a GPU, saying so.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;

use crate::cli::{BackendChoice, BackendSpec, InfoArgs};
use crate::gpu::Gpu;
use crate::gpu::cuda::pcie::{self, PcieLink};
use crate::gpu::detect::{self, BackendStatus};
use crate::gpu::machine::{self, MachineFacts};
use crate::report::{BackendKind, TimingSource};

/// The version of `info --json`'s layout; bumped when a field changes meaning or goes away.
pub const INFO_SCHEMA_VERSION: u32 = 1;

/// Everything `info` reports (also its JSON form), each fact once.
#[derive(Debug, Clone, Serialize)]
pub struct InfoReport {
    pub schema_version: u32,
    /// This build: version, git commit, CUDA bindings.
    pub build: crate::cli::version::Build,
    /// libcuda loads.
    pub driver_loaded: bool,
    /// CUDA devices found (0 without a driver).
    pub devices: u32,
    /// `cuda` or `simulated`: the backend experiments would run on.
    pub backend: BackendKind,
    /// Why that backend.
    pub reason: String,
    /// The simulator's profile, when it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The CUDA device, when one opened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<DeviceSection>,
    /// The machine experiments run on (the live GPU's, or the one the simulator models) and
    /// where it leaves the case the lessons teach.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachineSection>,
    /// e.g. `13.0`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver_version: Option<String>,
    pub nvrtc: Availability,
    pub cupti: Availability,
    /// The raw probe; its facts are the fields above, so JSON leaves it out.
    #[serde(skip)]
    pub status: BackendStatus,
}

/// The machine's facts, as `info` reports them.
#[derive(Debug, Clone, Serialize)]
pub struct MachineSection {
    /// `cuda` (this machine's GPU) or `simulated` (the machine the profile describes).
    pub backend: BackendKind,
    /// The GPU, as the driver or the profile names it.
    pub name: String,
    /// `cudaDevAttrAsyncEngineCount`.
    pub copy_engines: u32,
    #[serde(flatten)]
    pub facts: MachineFacts,
    /// Where this machine leaves the lessons' case ([`machine::notes`]); empty where it does not.
    pub notes: Vec<String>,
}

impl MachineSection {
    fn of(info: &crate::gpu::DeviceInfo, facts: MachineFacts) -> Self {
        MachineSection {
            backend: info.backend.kind,
            name: info.name.clone(),
            copy_engines: info.copy_engines,
            notes: machine::notes(info.copy_engines, &facts),
            facts,
        }
    }
}

/// A library or feature and whether it works, with the detail.
#[derive(Debug, Clone, Serialize)]
pub struct Availability {
    pub available: bool,
    pub detail: String,
}

/// The opened CUDA device.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceSection {
    pub ordinal: u32,
    pub name: String,
    /// e.g. `9.0`.
    pub compute_capability: String,
    pub total_mem_bytes: u64,
    pub free_mem_bytes: u64,
    pub copy_engines: u32,
    pub multiprocessors: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pci_bus_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pcie: Option<PcieLink>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pcie_error: Option<String>,
    /// How timeline times are measured: `cupti` or `events`.
    pub timing: TimingSource,
}

fn version_text(v: i32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

/// Gather the report; `Err` only when `--backend gpu` was asked for and no GPU works (the
/// report is still returned alongside, for printing).
pub fn gather(backend: &BackendSpec) -> (InfoReport, Option<String>) {
    let (choice, ordinal) = (backend.choice, backend.device);
    let status = detect::probe_device(ordinal);
    let mut report = InfoReport {
        schema_version: INFO_SCHEMA_VERSION,
        build: crate::cli::version::build(),
        driver_loaded: status.driver,
        devices: status.devices,
        backend: BackendKind::Simulated,
        reason: status.reason.clone(),
        profile: None,
        device: None,
        machine: None,
        driver_version: status.driver_version.map(version_text),
        nvrtc: Availability {
            available: status.nvrtc,
            detail: if status.nvrtc {
                "libnvrtc loads".into()
            } else {
                // Shown only where the simulator runs (a live GPU says what its kernels do, in
                // `fill_device`): there every experiment runs, kernels included (review
                // 2026-12-01b: "copy-only experiments still run" said otherwise).
                "libnvrtc.so could not be loaded (a live GPU needs it to compile kernels); the \
                 simulator runs every experiment without it"
                    .into()
            },
        },
        cupti: Availability {
            available: status.cupti,
            detail: status
                .cupti_reason
                .clone()
                .unwrap_or_else(|| "libcupti loads: timelines use device timestamps".into()),
        },
        status,
    };
    let mut failure = None;
    if choice != BackendChoice::Sim && report.status.chosen == BackendKind::Cuda {
        match detect::open_cuda(ordinal) {
            Ok(g) => fill_device(&mut report, &g, ordinal, choice),
            Err(e) => {
                report.reason = format!("no usable GPU: {e}");
                failure = Some(e.to_string());
            }
        }
    } else if choice == BackendChoice::Gpu {
        failure = Some(format!(
            "{}; install the NVIDIA driver or use --backend sim",
            report.reason
        ));
    }
    if report.backend == BackendKind::Simulated {
        if choice == BackendChoice::Sim {
            report.reason = "--backend sim".into();
        }
        if let Ok(sim) = detect::open_sim(backend.profile.as_ref(), report.reason.clone()) {
            report.profile = sim.info().backend.profile.clone();
            report.machine = Some(MachineSection::of(sim.info(), sim.info().machine.clone()));
        }
    }
    let failure = if choice == BackendChoice::Gpu {
        failure
    } else {
        None
    };
    (report, failure)
}

fn fill_device(
    report: &mut InfoReport,
    g: &crate::gpu::cuda::CudaGpu,
    ordinal: u32,
    choice: BackendChoice,
) {
    let info = g.info();
    let props = g.props();
    let (pcie, pcie_error) = match &props.pci_bus_id {
        Some(id) => match pcie::read(id) {
            Ok(l) => (Some(l), None),
            Err(e) => (None, Some(e)),
        },
        None => (None, Some("the driver did not report a PCI bus id".into())),
    };
    report.backend = BackendKind::Cuda;
    report.reason = match choice {
        BackendChoice::Gpu => "--backend gpu".into(),
        _ => format!("CUDA device {ordinal} works (--backend auto)"),
    };
    report.nvrtc.detail = match g.kernel_status() {
        Ok(format) => format!("kernels compiled at run time ({format})"),
        Err(e) => e.to_string(),
    };
    report.nvrtc.available = info.kernels_available;
    if let Some(reason) = g.cupti_status() {
        report.cupti = Availability {
            available: false,
            detail: format!("{reason}; timelines fall back to CUDA events (inferred starts)"),
        };
    }
    let host_link = pcie
        .as_ref()
        .map(|l: &PcieLink| format!("PCIe Gen{} x{}", l.generation, l.width));
    report.machine = Some(MachineSection::of(
        info,
        MachineFacts {
            host_link,
            ..info.machine.clone()
        },
    ));
    report.device = Some(DeviceSection {
        ordinal,
        name: info.name.clone(),
        compute_capability: format!(
            "{}.{}",
            info.compute_capability.0, info.compute_capability.1
        ),
        total_mem_bytes: info.total_mem,
        free_mem_bytes: info.free_mem,
        copy_engines: info.copy_engines,
        multiprocessors: props.multiprocessors,
        pci_bus_id: props.pci_bus_id.clone(),
        pcie,
        pcie_error,
        timing: info.backend.timing,
    });
}

fn gib(b: u64) -> String {
    format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64)
}

/// The human-readable form.
pub fn render_text(r: &InfoReport) -> String {
    let mut s = String::new();
    let yes = |b: bool| if b { "yes" } else { "no" };
    let backend = match r.backend {
        BackendKind::Cuda => "Live (cuda)",
        BackendKind::Simulated => "Simulated",
    };
    s += &format!("Version:         {}\n", crate::cli::version::line());
    s += &format!("Backend:         {backend}: {}\n", r.reason);
    if let Some(p) = &r.profile {
        s += &format!("Profile:         {p}\n");
    }
    match &r.device {
        Some(d) => {
            s += &format!("Device {}:        {}\n", d.ordinal, d.name);
            s += &format!("Compute cap.:    {}\n", d.compute_capability);
            s += &format!(
                "Memory:          {} total, {} free\n",
                gib(d.total_mem_bytes),
                gib(d.free_mem_bytes)
            );
            s += &format!("Multiprocessors: {}\n", d.multiprocessors);
            match (&d.pcie, &d.pcie_error) {
                (Some(l), _) => {
                    s += &format!(
                        "PCIe link:       Gen{} x{} ({} GT/s): {:.1} GB/s per direction (theoretical)\n",
                        l.generation, l.width, l.gts, l.gbps_per_direction
                    )
                }
                (None, Some(e)) => s += &format!("PCIe link:       unknown ({e})\n"),
                (None, None) => {}
            }
            for note in d
                .pci_bus_id
                .iter()
                .flat_map(|id| pcie::explain::setup_notes(id))
            {
                s += &format!("Note:            {note}\n");
            }
            s += &format!("Timeline timing: {:?}\n", d.timing).to_lowercase();
        }
        None => s += "GPU:             none usable on this machine\n",
    }
    if let Some(m) = &r.machine {
        s += &machine_text(m);
    }
    match &r.driver_version {
        Some(v) => s += &format!("CUDA driver:     {v}\n"),
        None if r.driver_loaded => s += "CUDA driver:     loaded, version unknown\n",
        None => s += "CUDA driver:     none found\n",
    }
    s += &format!(
        "NVRTC:           {} ({})\n",
        yes(r.nvrtc.available),
        r.nvrtc.detail
    );
    s += &format!(
        "CUPTI:           {} ({})\n",
        yes(r.cupti.available),
        r.cupti.detail
    );
    s
}

/// The machine block: which machine, its facts (unknown ones left out), then the notes.
fn machine_text(m: &MachineSection) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let f = &m.facts;
    let mut s = match m.backend {
        BackendKind::Cuda => format!("Machine:         {} (this machine)\n", m.name),
        BackendKind::Simulated => format!(
            "Machine:         {} (the one the simulator models)\n",
            m.name
        ),
    };
    s += &format!("Copy engines:    {}\n", m.copy_engines);
    if let Some(a) = f.addressing {
        s += &format!("Addressing:      {}\n", a.label());
    }
    if let Some(link) = &f.host_link {
        s += &format!("Host link:       {link}\n");
    }
    if let Some(d) = f.driver_model {
        s += &format!("Driver model:    {}\n", d.label());
    }
    if let Some(i) = f.integrated {
        s += &format!("Integrated GPU:  {}\n", yes(i));
    }
    if let Some(r) = f.can_use_host_pointer_for_registered_mem {
        s += &format!("Registered host pointers usable in kernels: {}\n", yes(r));
    }
    if let Some(c) = f.concurrent_managed_access {
        s += &format!("Managed memory used by CPU and GPU at once: {}\n", yes(c));
    }
    if m.notes.is_empty() {
        s += "Lessons' rules: hold as taught (a discrete GPU, two or more copy engines, pinned \
              pages for copy engines)\n";
    }
    for note in &m.notes {
        s += &format!("Rules differ:    {note}\n");
    }
    s
}

/// Carry out `cuda-academy info`; errors go to stderr through the caller.
pub fn info(args: &InfoArgs, backend: &BackendSpec) -> anyhow::Result<ExitCode> {
    let (report, failure) = gather(backend);
    let mut out = std::io::stdout().lock();
    // Driver strings, profile fields and paths are outside text.
    let text = if args.json {
        crate::sanitize::json(serde_json::to_string_pretty(&report)? + "\n")
    } else {
        crate::sanitize::clean(&render_text(&report)).into_owned()
    };
    // A write error is an error; a closed pipe (`| head`) is handled quietly by main.
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| anyhow::Error::new(e).context("cannot write to stdout"))?;
    match failure {
        Some(e) => {
            eprintln!(
                "cuda-academy: --backend gpu: {}",
                crate::sanitize::clean(&e)
            );
            Ok(ExitCode::from(1))
        }
        None => Ok(ExitCode::SUCCESS),
    }
}
