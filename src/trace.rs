//! Chrome trace event export of a run (opens in Perfetto and chrome://tracing).
//!
//! The JSON object form: `{"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}`.
//! Every op is a complete event (`"ph": "X"`, `ts` and `dur` in microseconds with nanosecond
//! precision) in process 1 (the device) or 2 (the host). Each stream, each known copy engine and
//! the host get their own thread (track), named by `thread_name` metadata events; a copy with a
//! known engine appears both on its stream and on its engine. Events on one track nest (see
//! [`tracks`]). Other timelines of the report (e.g. the sequential baseline) follow as processes
//! 10, 11 (the first one's device and host), 12, 13, ..., each on its own time origin.

pub mod tracks;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::report::{BackendKind, Op, OpKind, Report, TimingSource};
use crate::timeline::format::{format_bytes, gbps, kind_name};
use tracks::{Placed, TrackKey, place};

/// The device process of the headline timeline.
pub const DEVICE_PID: u32 = 1;
/// The host process of the headline timeline.
pub const HOST_PID: u32 = 2;
/// The device process of the first other timeline (its host is the next number, and so on).
pub const OTHER_PID_BASE: u32 = 10;

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// `cause` is in the message and deliberately not the error's `source`, so that printing
    /// the chain (`{:#}`) does not say it twice.
    #[error("could not write the trace to {}: {}", .path.display(), why_not(.path, .cause))]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("could not encode the trace as JSON: {0}")]
    Encode(#[from] serde_json::Error),
}

/// Why `path` could not be written, and what to do, in terms of the path the user gave. The
/// write goes through a temporary file beside the target, whose name the io error carries ("at
/// path .../.cuda-academy-tmp-XXXX"): a file the user never chose and that never existed
/// (review CL2), so the message names the folder instead.
fn why_not(path: &Path, cause: &std::io::Error) -> String {
    use std::io::ErrorKind;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let dir = folder.display();
    let elsewhere = "or choose a file in a folder you can write to (e.g. /tmp/trace.json)";
    let why = plain_cause(cause);
    match cause.kind() {
        ErrorKind::NotFound if !folder.is_dir() => format!(
            "{why}: the folder {dir} does not exist; create it first (mkdir -p {dir}) {elsewhere}"
        ),
        ErrorKind::NotADirectory => format!("{why}: {dir} is not a folder; {elsewhere}"),
        ErrorKind::PermissionDenied => {
            format!("{why}: the folder {dir} cannot be written to; {elsewhere}")
        }
        ErrorKind::ReadOnlyFilesystem => {
            format!("{why}: the folder {dir} is on a read-only file system; {elsewhere}")
        }
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded | ErrorKind::FileTooLarge => {
            format!("{why} (the old file, if any, is unchanged); free some space, {elsewhere}")
        }
        _ => format!("{why}; {elsewhere}"),
    }
}

/// The io error without the temporary file's path that `tempfile` appends (" at path ...").
fn plain_cause(cause: &std::io::Error) -> String {
    let text = cause.to_string();
    match text.find(" at path ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The report as a Chrome trace event JSON object.
pub fn chrome_trace(report: &Report) -> Value {
    let mut events = Vec::new();
    let device_name = format!("device: {}", report.backend.device);
    add_timeline(
        &mut events,
        &report.timeline,
        [DEVICE_PID, HOST_PID],
        &device_name,
        "host",
    );
    for (i, other) in report.other_timelines.iter().enumerate() {
        let device_pid = OTHER_PID_BASE + 2 * i as u32;
        let names = (
            format!("{}: device", other.name),
            format!("{}: host", other.name),
        );
        add_timeline(
            &mut events,
            &other.ops,
            [device_pid, device_pid + 1],
            &names.0,
            &names.1,
        );
    }
    json!({
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {
            "experiment": report.experiment,
            "backend": backend_name(report.backend.kind),
            "device": report.backend.device,
            "timing": timing_name(report.backend.timing),
            "profile": report.backend.profile,
            "schema_version": report.schema_version,
        },
    })
}

/// Writes [`chrome_trace`] of `report` to `path` (created or replaced).
pub fn write_chrome_trace(report: &Report, path: &Path) -> Result<(), TraceError> {
    write_with(report, path, crate::atomic_file::write)
}

/// Write the trace with `write` ([`crate::atomic_file::write`] for a path the user named,
/// [`crate::atomic_file::create_new`] for one the program picked).
pub fn write_with(
    report: &Report,
    path: &Path,
    write: impl FnOnce(&Path, &[u8]) -> std::io::Result<()>,
) -> Result<(), TraceError> {
    let text = serde_json::to_vec(&chrome_trace(report))?;
    write(path, &text).map_err(|cause| TraceError::Write {
        path: path.to_path_buf(),
        cause,
    })
}

fn backend_name(kind: BackendKind) -> &'static str {
    match kind {
        BackendKind::Cuda => "cuda",
        BackendKind::Simulated => "simulated",
    }
}

fn timing_name(timing: TimingSource) -> &'static str {
    match timing {
        TimingSource::Cupti => "cupti",
        TimingSource::Events => "events",
        TimingSource::Model => "model",
    }
}

/// Appends metadata and complete events for `ops` in processes `[device, host]`.
fn add_timeline(events: &mut Vec<Value>, ops: &[Op], pids: [u32; 2], device: &str, host: &str) {
    if ops.is_empty() {
        return;
    }
    let placed = place(ops, pids[0], pids[1]);
    // Thread ids in track order from 1, so the viewer lists tracks as sorted here.
    let mut tids: BTreeMap<TrackKey, u32> = BTreeMap::new();
    for p in &placed {
        let next = tids.len() as u32 + 1;
        tids.entry(p.track).or_insert(next);
    }
    for (pid, name) in [(pids[0], device), (pids[1], host)] {
        if tids.keys().any(|k| k.pid == pid) {
            events.push(
                json!({"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
                "args": {"name": name}}),
            );
        }
    }
    for (key, tid) in &tids {
        let name = key.kind.name(key.overflow);
        events.push(
            json!({"ph": "M", "name": "thread_name", "pid": key.pid, "tid": tid,
            "args": {"name": name}}),
        );
        events.push(
            json!({"ph": "M", "name": "thread_sort_index", "pid": key.pid, "tid": tid,
            "args": {"sort_index": tid}}),
        );
    }
    for p in &placed {
        if let (Some(op), Some(tid)) = (ops.get(p.op), tids.get(&p.track)) {
            events.push(complete_event(op, p, *tid));
        }
    }
}

/// One `"ph": "X"` event.
fn complete_event(op: &Op, placed: &Placed, tid: u32) -> Value {
    let mut args = serde_json::Map::new();
    args.insert("kind".into(), json!(kind_name(op.kind)));
    args.insert("bytes".into(), json!(op.bytes));
    args.insert("stream".into(), json!(op.stream));
    if let Some(mem) = op.host_mem {
        args.insert("host_mem".into(), json!(mem.name()));
    }
    if let Some(engine) = op.engine {
        args.insert("engine".into(), json!(engine));
    }
    if let Some(rate) = gbps(op.bytes, op.duration_us()) {
        args.insert("GB/s".into(), json!((rate * 1000.0).round() / 1000.0));
    }
    args.insert("start_inferred".into(), json!(op.start_inferred));
    if !op.label.is_empty() {
        args.insert("label".into(), json!(op.label));
    }
    json!({
        "ph": "X",
        "name": event_name(op),
        "cat": kind_name(op.kind).to_lowercase(),
        "ts": placed.start_ns as f64 / 1000.0,
        "dur": (placed.end_ns - placed.start_ns) as f64 / 1000.0,
        "pid": placed.track.pid,
        "tid": tid,
        "args": args,
    })
}

/// `H2D 8 MiB`, `kernel 8 MiB` or the op's label (`cuMemcpyHtoDAsync`), else its kind.
fn event_name(op: &Op) -> String {
    match (op.kind, op.bytes, op.label.is_empty()) {
        (OpKind::Host, _, false) | (_, 0, false) => op.label.clone(),
        (_, 0, true) => kind_name(op.kind).to_string(),
        (_, bytes, _) => format!("{} {}", kind_name(op.kind), format_bytes(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_error(path: &Path) -> String {
        let r = crate::atomic_file::write(path, b"{}").map_err(|cause| TraceError::Write {
            path: path.to_path_buf(),
            cause,
        });
        match r {
            Err(e) => e.to_string(),
            Ok(()) => String::from("(written)"),
        }
    }

    /// Review CL2: a missing folder is named, with what to do, and the temporary file the
    /// write would have used (never chosen by the user, never created) is not.
    #[test]
    fn a_missing_folder_is_named_not_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("nonexist").join("t.json");
        let msg = write_error(&path);
        assert!(!msg.contains(crate::atomic_file::TEMP_PREFIX), "{msg}");
        assert!(!msg.contains("at path"), "{msg}");
        let folder = dir.path().join("nonexist");
        assert!(
            msg.contains(&format!("the folder {} does not exist", folder.display())),
            "{msg}"
        );
        assert!(msg.contains("mkdir -p"), "{msg}");
        assert!(msg.contains("No such file or directory"), "{msg}");
    }

    #[test]
    fn the_tempfile_suffix_is_cut_from_other_causes() {
        let cause = std::io::Error::other("disk on fire at path \"/x/.cuda-academy-tmp-Ab12\"");
        assert_eq!(plain_cause(&cause), "disk on fire");
        let plain = std::io::Error::other("plain");
        assert_eq!(plain_cause(&plain), "plain");
    }
}
