//! Simulator profiles: every parameter of the [`crate::gpu::sim`] model, recorded from a real GPU.
//!
//! A profile is a TOML file of plain fields and one `[machine]` table (`assets/profiles/<name>.toml`) whose field names carry their
//! unit (`_gbps` = 1e9 bytes/s, `_us` = microseconds, `_ms_per_gib` = milliseconds per 2^30
//! bytes, `_bytes`). `cuda-academy calibrate --out FILE` writes one from the GPU it runs on; the
//! H200 profile ships inside the binary ([`Profile::builtin`]). The format is versioned by
//! [`Profile::format_version`]: add fields with a serde default, never rename one.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::machine::MachineFacts;

mod validate;

pub use validate::ProfileError;

/// The format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// Names accepted by [`Profile::builtin`].
pub const BUILTIN_NAMES: [&str; 2] = ["h200", ONE_COPY_ENGINE];

/// The what-if profile: the H200's measured figures on a GPU with one copy engine, so a
/// learner sees without that hardware what the lessons' pipelines do there (issue 30). Not a
/// recording of any machine, and it says so in its `source`.
const ONE_COPY_ENGINE: &str = "h200-one-copy-engine";

const H200_TOML: &str = include_str!("../../assets/profiles/h200.toml");

/// Every parameter of the simulator, with its unit in its name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Always [`FORMAT_VERSION`] for files this build writes.
    pub format_version: u32,
    /// Short name, e.g. `h200` (what `--profile` and reports show).
    pub name: String,
    /// The GPU the profile was recorded on, as the driver names it.
    pub device_name: String,
    /// When it was recorded (ISO date, e.g. `2026-11-29`).
    pub recorded_at: String,
    /// How it was recorded (tool, machine, driver).
    pub source: String,

    /// Compute capability `[major, minor]`.
    pub compute_capability: [u32; 2],
    /// `CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT`.
    pub copy_engines: u32,
    /// Device memory the simulated GPU has.
    pub device_total_bytes: u64,
    /// Host memory the simulated host has (pageable and pinned together).
    pub host_total_bytes: u64,

    /// H2D copy bandwidth from `cudaMallocHost` memory.
    pub pinned_h2d_gbps: f64,
    /// D2H copy bandwidth to `cudaMallocHost` memory.
    pub pinned_d2h_gbps: f64,
    /// H2D copy bandwidth from pageable memory (staged by the driver through a pinned buffer).
    pub pageable_h2d_gbps: f64,
    /// D2H copy bandwidth to pageable memory (staged likewise).
    pub pageable_d2h_gbps: f64,
    /// H2D copy bandwidth from `cudaHostAllocWriteCombined` memory.
    pub write_combined_h2d_gbps: f64,
    /// D2H copy bandwidth to write-combined memory.
    pub write_combined_d2h_gbps: f64,
    /// H2D copy bandwidth from pageable memory page-locked with `cudaHostRegister`.
    pub registered_h2d_gbps: f64,
    /// D2H copy bandwidth to registered memory.
    pub registered_d2h_gbps: f64,
    /// Total of both directions when an H2D and a D2H copy run at once.
    pub bidirectional_gbps: f64,
    /// Device-side fixed cost of every copy before bytes flow (makes small copies slow).
    pub copy_latency_us: f64,
    /// Extra fixed cost of a pageable copy (staging setup), on top of `copy_latency_us`.
    pub pageable_copy_latency_us: f64,
    /// Pageable H2D copies of at most this many bytes return once the driver has staged them
    /// (the copy then runs like a pinned one); larger pageable copies, and every pageable D2H
    /// copy, return only when the copy has ended. 0 makes every pageable copy blocking.
    pub pageable_async_h2d_max_bytes: u64,

    /// Host time for `cuMemcpy*Async` to return when it does not block.
    pub async_call_us: f64,
    /// Host time for `cuLaunchKernel` to return.
    pub launch_call_us: f64,
    /// Host time of `cuStreamSynchronize`/`cuCtxSynchronize` on top of the wait.
    pub sync_call_us: f64,
    /// Host time of other small calls (stream create/destroy).
    pub api_call_us: f64,

    /// Device time from a kernel's start until its threads run.
    pub kernel_launch_latency_us: f64,
    /// Device memory bandwidth a memory-bound kernel reaches (bytes read + written).
    pub device_mem_gbps: f64,
    /// Duration of one iteration of the spin kernel's dependent FMA chain, over the 1 MiB the
    /// experiments spin on (fewer elements run faster: the chain is then latency-bound).
    pub spin_ns_per_iteration: f64,

    /// `cuMemHostAlloc`: fixed part of its host time.
    pub pinned_alloc_fixed_us: f64,
    /// `cuMemHostAlloc`: host time per GiB (pinning every page).
    pub pinned_alloc_ms_per_gib: f64,
    /// `cuMemFreeHost` per GiB.
    pub pinned_free_ms_per_gib: f64,
    /// `malloc` of any size (it only reserves address space).
    pub pageable_alloc_us: f64,
    /// First touch of every page of a pageable allocation, per GiB (the cost a pageable
    /// allocation really has; charged by `host_touch`, or by the first copy or fill).
    pub pageable_alloc_ms_per_gib: f64,
    /// `free` of touched pageable memory, per GiB (returning its pages to the OS).
    pub pageable_free_ms_per_gib: f64,
    /// `cuMemHostRegister` of touched memory, per GiB (untouched memory also pays first touch).
    pub register_ms_per_gib: f64,
    /// `cuMemHostUnregister`, per GiB.
    pub unregister_ms_per_gib: f64,
    /// `cuMemAlloc` of any size.
    pub device_alloc_us: f64,
    /// `cuMemFree` of any size (after the implicit device synchronisation).
    pub device_free_us: f64,

    /// Device time the front end spends on every copy or kernel before it starts: back-to-back
    /// ops of one stream on one engine are this far apart. (Fields from here on default to 0,
    /// the model before 2026-12-01, so older profiles still load.)
    #[serde(default)]
    pub op_overhead_us: f64,
    /// An op whose stream's previous op ran on another engine (a kernel after its upload, a
    /// download after its kernel) starts at least this long after that op ended; the engine
    /// serves other streams meanwhile.
    #[serde(default)]
    pub stream_wait_us: f64,
    /// Extra device time when an engine takes an op of another stream than its last one. On the
    /// H200 the fit puts it near 0 once [`Profile::download_under_upload_us`] is modelled.
    #[serde(default)]
    pub engine_switch_us: f64,
    /// Extra device time before a download (D2H copy) starts while an upload's bytes are on the
    /// link, when the download engine's last op was another stream's. The H200's CUPTI records
    /// show downloads 7.2-7.4 us apart while an upload flows and 1.3-1.8 us apart when none
    /// does, uploads nothing of the kind; its host-timed runs show that one stream of downloads
    /// (the by-stage layout) does not pay it.
    /// `calibrate` fits it to those runs' times ([`crate::experiment::calibrate::pacing`]), not
    /// to the recorded gaps, which CUPTI's own copy records widen.
    #[serde(default)]
    pub download_under_upload_us: f64,
    /// Copy engines per direction that the driver spreads copies over (the H200's CUPTI records
    /// name four per direction: 8-11 for uploads, 12-15 for downloads). The driver hands a
    /// direction's copies round-robin, in issue order, to as many of them as there are streams
    /// issuing copies; each engine is one in-order queue, and the link serves one engine's queue
    /// until it blocks. 0 = one queue per stream (the model before; older profiles).
    #[serde(default)]
    pub copy_engines_per_direction: u32,

    /// Host time of one `cuMemcpyBatchAsync` call whatever its count (the part a batch pays
    /// once); see [`Profile::batch_per_copy_us`]. probes/batched-copies.cu measures both on the
    /// GPU (its `sweep` lines' `enqueue_us` against the count). 0 in profiles older than the
    /// field.
    #[serde(default)]
    pub batch_call_us: f64,
    /// Host time a batched copy call adds per copy in the batch.
    #[serde(default)]
    pub batch_per_copy_us: f64,
    /// Device time before the bytes of each copy of a batch start to flow (the batch's
    /// counterpart of [`Profile::copy_latency_us`]).
    #[serde(default)]
    pub batch_copy_latency_us: f64,

    /// The alternatives to copying (issue 30; `sim/unified.rs` is the model). All six were fitted
    /// together to probes/alternatives-h200.txt's twelve points (the least worst relative error
    /// over them, `scripts/fit-alternatives.py`); 0 in profiles older than the fields, and the
    /// simulator then refuses managed and mapped memory. Host time per float of the host's
    /// checksum of a result (a CPU-bound loop, the same for every kind of memory).
    #[serde(default)]
    pub host_sum_ns_per_float: f64,
    /// Bandwidth of a managed page migration, whether `cuMemPrefetchAsync` or a fault asks for
    /// it, either way.
    #[serde(default)]
    pub managed_migrate_gbps: f64,
    /// Bytes one page fault migrates (the UVM driver's 64 KiB basic block: a fault on any byte
    /// of one moves all of it).
    #[serde(default)]
    pub managed_fault_bytes: u64,
    /// Device time a GPU page fault costs beyond its migration (the fault's trip to the driver
    /// on the host and back).
    #[serde(default)]
    pub managed_gpu_fault_us: f64,
    /// Host time a CPU page fault on managed memory costs beyond its migration.
    #[serde(default)]
    pub managed_host_fault_us: f64,
    /// Bandwidth per direction of a kernel's coalesced reads and writes of mapped host memory
    /// (both directions at once: a kernel reading and writing mapped memory uses both).
    #[serde(default)]
    pub mapped_gbps: f64,
    /// Device time of one scattered access to mapped memory (a float alone in its 128-byte
    /// line: a round trip of its own across the link), as many overlapping as the kernel's
    /// threads issue.
    #[serde(default)]
    pub mapped_scattered_access_ns: f64,

    /// Fields `calibrate` measured and fitted on the recorded GPU.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub measured: Vec<String>,
    /// Fields carried over unchanged from the template profile because they could not be
    /// measured there (e.g. kernel parameters without NVRTC). Empty in hand-written profiles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried_over: Vec<String>,

    /// The machine's facts beyond its figures (addressing mode, driver model, link), so `info`
    /// says which machine the simulator models: the profile's one table, `[machine]`, last.
    /// Profiles recorded before it have none (each fact unknown).
    #[serde(default, skip_serializing_if = "machine_is_unknown")]
    pub machine: MachineFacts,
}

fn machine_is_unknown(m: &MachineFacts) -> bool {
    *m == MachineFacts::default()
}

/// The profile a simulator uses: the one chosen with `--profile FILE` (passed down from the
/// command line in [`crate::gpu::detect::BackendSpec`]), else the built-in H200 one.
pub fn chosen_or_builtin(chosen: Option<&Profile>) -> Result<Profile, ProfileError> {
    match chosen {
        Some(p) => Ok(p.clone()),
        None => Profile::builtin("h200"),
    }
}

impl Profile {
    /// A profile shipped inside the binary, by name (see [`BUILTIN_NAMES`]).
    pub fn builtin(name: &str) -> Result<Profile, ProfileError> {
        match name {
            "h200" => Profile::from_toml_str(H200_TOML, "built-in profile h200"),
            ONE_COPY_ENGINE => {
                let mut p = Profile::from_toml_str(H200_TOML, "built-in profile h200")?;
                p.name = ONE_COPY_ENGINE.to_string();
                p.device_name = "NVIDIA H200, one copy engine: what-if".to_string();
                p.source = "what-if: the built-in h200 profile's measured figures with \
                            copy_engines = 1 (uploads and downloads share one engine); not \
                            recorded on any machine"
                    .to_string();
                p.copy_engines = 1;
                // One engine is one in-order queue for both directions.
                p.copy_engines_per_direction = 1;
                p.measured.retain(|f| f != "copy_engines");
                p.validate().map_err(|e| e.with_origin(ONE_COPY_ENGINE))?;
                Ok(p)
            }
            _ => Err(ProfileError::UnknownBuiltin {
                name: name.to_string(),
                available: BUILTIN_NAMES.join(", "),
            }),
        }
    }

    /// `--profile`'s argument: a file when one is there, else a built-in name (`h200`).
    pub fn by_path_or_name(arg: &Path) -> Result<Profile, ProfileError> {
        match arg.to_str() {
            Some(name) if !arg.exists() && BUILTIN_NAMES.contains(&name) => Profile::builtin(name),
            _ => Profile::load(arg),
        }
    }

    /// Read and validate a profile file.
    pub fn load(path: &Path) -> Result<Profile, ProfileError> {
        use crate::bounded_read::{Cap, ReadError, read_text};
        // A profile is a few KiB of TOML; the cap only stops a link to a device or a stray
        // huge file, which are refused without blocking (a FIFO) or exhausting memory.
        const PROFILE_CAP: Cap = Cap {
            bytes: 1 << 20,
            what: "a profile",
        };
        let text = read_text(path, PROFILE_CAP).map_err(|e| ProfileError::Io {
            path: crate::bounded_read::shown(path),
            message: match e {
                ReadError::Io { err, .. } => err.to_string(),
                other => other.to_string(),
            },
        })?;
        Profile::from_toml_str(&text, &path.display().to_string())
    }

    /// Parse and validate profile text; `origin` names it in errors (a path or "built-in ...").
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Profile, ProfileError> {
        let profile: Profile = toml::from_str(text).map_err(|e| ProfileError::Parse {
            origin: origin.to_string(),
            message: toml_error_text(text, &e),
        })?;
        profile.validate().map_err(|e| e.with_origin(origin))?;
        Ok(profile)
    }

    /// The profile as TOML text that [`Profile::from_toml_str`] reads back unchanged.
    pub fn to_toml(&self) -> Result<String, ProfileError> {
        toml::to_string(self).map_err(|e| ProfileError::Serialize(e.to_string()))
    }

    /// Write the profile to `path` (after validating it).
    pub fn save(&self, path: &Path) -> Result<(), ProfileError> {
        self.validate()
            .map_err(|e| e.with_origin(&path.display().to_string()))?;
        let text = self.to_toml()?;
        // Atomic: a full disk or a kill never leaves half a profile in place of the old one.
        crate::atomic_file::write(path, text.as_bytes()).map_err(|e| ProfileError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }
}

/// Most characters of the offending line quoted around the error's column, each side.
const QUOTE_SIDE: usize = 60;
/// Most characters of TOML's own message (it can quote a key of any length).
const MESSAGE_MAX: usize = 300;

/// A TOML error as `line L, column C: message`, then the line, cut to [`QUOTE_SIDE`] characters
/// each side of the column with `…` where cut. toml's own `Display` quotes the whole line: a
/// 200 KB line made a 200 KB message (review PR2).
fn toml_error_text(text: &str, err: &toml::de::Error) -> String {
    let message = crate::text_fit::truncate(err.message().trim(), MESSAGE_MAX);
    let Some(span) = err.span() else {
        return message;
    };
    let at = floor_char_boundary(text, span.start.min(text.len()));
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line_no = text[..line_start].matches('\n').count() + 1;
    let before: Vec<char> = text[line_start..at].chars().collect();
    let column = before.len() + 1;
    let skip = before.len().saturating_sub(QUOTE_SIDE);
    let mut quoted = String::new();
    if skip > 0 {
        quoted.push('…');
    }
    quoted.extend(&before[skip..]);
    let mut after = text[at..line_end].chars();
    quoted.extend(after.by_ref().take(QUOTE_SIDE));
    if after.next().is_some() {
        quoted.push('…');
    }
    let long = line_end - line_start;
    let cut = if long > quoted.len() {
        format!(" (the line is {long} bytes long, quoted around the column)")
    } else {
        String::new()
    };
    format!(
        "line {line_no}, column {column}: {message}{cut}\n  | {}",
        quoted.trim_end_matches('\r')
    )
}

/// The largest char boundary of `text` at or below `i`.
fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Review PR2: a 200 KB line is quoted around the error, not whole.
    #[test]
    fn a_toml_error_quotes_a_bounded_part_of_a_long_line() {
        let text = format!("a = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let msg = match Profile::from_toml_str(&text, "deep.toml") {
            Err(e) => e.to_string(),
            Ok(_) => String::from("(accepted)"),
        };
        assert!(msg.len() < 1024, "{} bytes: {}", msg.len(), &msg[..200]);
        assert!(msg.contains("line 1, column"), "{msg}");
        assert!(msg.contains('…'), "{msg}");
        assert!(msg.contains("200004 bytes long"), "{msg}");
    }

    #[test]
    fn a_short_line_is_quoted_whole_with_its_position() {
        let msg = match Profile::from_toml_str("name = \"x\"\nbad = = 1\n", "p.toml") {
            Err(e) => e.to_string(),
            Ok(_) => String::from("(accepted)"),
        };
        assert!(msg.contains("line 2, column"), "{msg}");
        assert!(msg.contains("  | bad = = 1"), "{msg}");
        assert!(!msg.contains('…'), "{msg}");
    }

    #[test]
    fn the_quote_never_cuts_inside_a_character() {
        let text = format!("k = \"{}\n", "é".repeat(5000));
        let msg = match Profile::from_toml_str(&text, "p.toml") {
            Err(e) => e.to_string(),
            Ok(_) => String::from("(accepted)"),
        };
        assert!(msg.len() < 1024, "{msg}");
    }
}
