//! What a trace proves about the program (issue 25, "One model judges it"): the trace's driver
//! calls become the exercises' call log (`import`) and the one hazard checker
//! (`exercise::hazards`, over the ordering model) judges them, as it judges an exercise; and
//! why copies did not overlap kernels (`overlap`). Pure: a [`Trace`] in, [`Findings`] out.
//!
//! What it cannot see is said, never passed over: host-side races (the library guards no
//! pages) and the bytes touched by a kernel whose parameters were not recorded; the bytes
//! other kernels touch are assumed from their pointer parameters, and a finding says so.

mod driver_calls;
mod import;
pub mod mangled;
pub mod overlap;

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::file::{Record, Trace};
use super::view::{AsMark, Mark, Severity};
use crate::exercise::hazards::{self, CardRef, HazardKind};

pub use import::{Imported, import};

/// One thing the checker proved from the trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The hazard's name (`device-race`, `pageable-async`, ...).
    pub kind: &'static str,
    pub warning: bool,
    /// The driver call (its number among the trace's driver calls, 1-based, and its name).
    pub call: u32,
    pub call_name: String,
    /// The call it conflicts with, for a race.
    pub other_call: Option<u32>,
    /// The program's source line: a trace has none.
    pub source_line: Option<u32>,
    /// The checker's message; its "line N" means driver call N.
    pub message: String,
    pub teaches: CardRef,
    /// When the call's op ran on the GPU, ns on CUPTI's clock: the copy, memset or kernel
    /// with the call's correlation id; a call with no GPU op (a free) gives its own span.
    pub start_ns: u64,
    pub end_ns: u64,
    /// The CUPTI stream id of that op; none for a call with no GPU op.
    pub stream: Option<u32>,
}

impl AsMark for Finding {
    fn as_mark(&self) -> Mark {
        let other = self
            .other_call
            .map(|o| format!(", with call {o}"))
            .unwrap_or_default();
        Mark {
            kind: self.kind.to_string(),
            text: format!(
                "call {} ({}){other}: {} (learn: {} / {})",
                self.call, self.call_name, self.message, self.teaches.lesson, self.teaches.card
            ),
            severity: if self.warning {
                Severity::Warning
            } else {
                Severity::Error
            },
            start_ns: self.start_ns,
            end_ns: self.end_ns,
            stream: self.stream,
        }
    }
}

/// Everything the trace was judged on.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Findings {
    pub findings: Vec<Finding>,
    /// What the trace cannot show, so no finding about it means nothing.
    pub not_watched: Vec<&'static str>,
    /// Why launches' parameters were not read, in the driver's words (as the trace recorded
    /// it; shown cleaned).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel_params_refused: Option<String>,
}

/// Host-side races need the program's host accesses: not recorded.
pub const HOST_RACES_NOT_WATCHED: &str = "read-before-sync and write-while-in-flight (host-side races): not watched (the trace records no host accesses)";

/// Kernels whose parameters the library could not read (a driver before CUDA 12.4, parameters
/// passed through `extra`).
pub const KERNELS_NOT_WATCHED: &str = "device races with kernels whose parameters the trace lacks: not watched (the library could not read their parameters, so which bytes they read or write is unknown; copies, memsets and the other kernels are judged by their ranges)";

/// Judge `trace`: every hazard the checker proves from its driver calls but leaks (a program
/// that exits frees all it holds).
pub fn judge(trace: &Trace) -> Findings {
    let imported = import(trace);
    let hazards = hazards::check(&imported.log, &imported.names, true);
    let when = CallTimes::of(trace);
    let findings = hazards
        .into_iter()
        .filter(|h| h.kind != HazardKind::Leak)
        .map(|h| {
            let (start_ns, end_ns, stream) = when.of_call(h.line);
            Finding {
                start_ns,
                end_ns,
                stream,
                kind: h.kind.name(),
                // A race that rests on an assumed kernel range may be no race (the kernel may not
                // reach the bytes): a warning, and its message says what was assumed.
                warning: h.kind.is_warning() || assumed_in(&imported, h.line, h.other_line),
                call: h.line,
                call_name: imported.calls.get(&h.line).cloned().unwrap_or_default(),
                other_call: h.other_line,
                source_line: None,
                message: with_assumed(h.message, &imported, h.line, h.other_line),
                teaches: h.teaches,
            }
        })
        .collect();
    let mut not_watched = vec![HOST_RACES_NOT_WATCHED];
    if imported.kernels > 0 {
        not_watched.push(KERNELS_NOT_WATCHED);
    }
    Findings {
        findings,
        not_watched,
        kernel_params_refused: imported.params_refused.clone(),
    }
}

/// Whether call `line` or `other` is a kernel whose ranges were assumed.
fn assumed_in(imported: &Imported, line: u32, other: Option<u32>) -> bool {
    std::iter::once(line)
        .chain(other)
        .any(|l| imported.assumed.contains_key(&l))
}

/// `message`, with what was assumed about the kernels of calls `line` and `other`.
fn with_assumed(message: String, imported: &Imported, line: u32, other: Option<u32>) -> String {
    let mut out = message;
    for l in std::iter::once(line).chain(other) {
        if let Some(note) = imported.assumed.get(&l) {
            let _ = write!(out, " (call {l}: {note})");
        }
    }
    out
}

/// Where each driver call's work ran: the GPU op with its correlation id, else the call.
struct CallTimes {
    /// Per driver call (1-based, as the import numbers them): its correlation id and span.
    calls: Vec<(u32, u64, u64)>,
    /// Per correlation id: the GPU op's span and stream (the first op, for a call with more).
    ops: HashMap<u32, (u64, u64, u32)>,
}

impl CallTimes {
    fn of(trace: &Trace) -> CallTimes {
        let mut calls = Vec::new();
        let mut ops = HashMap::new();
        for r in &trace.records {
            let op = match r {
                Record::Api(a) => {
                    calls.push((a.corr, a.start, a.end));
                    None
                }
                Record::Memcpy(m) => Some((m.corr, m.start, m.end, m.stream_id)),
                Record::Memset(m) => Some((m.corr, m.start, m.end, m.stream_id)),
                Record::Kernel(k) => Some((k.corr, k.start, k.end, k.stream_id)),
                _ => None,
            };
            // An op CUPTI left untimed (the program ended first) places nothing.
            if let Some((corr, start, end, stream)) = op.filter(|o| o.1 != 0) {
                ops.entry(corr).or_insert((start, end, stream));
            }
        }
        CallTimes { calls, ops }
    }

    /// Call `line`'s GPU span and stream, or its own span and no stream.
    fn of_call(&self, line: u32) -> (u64, u64, Option<u32>) {
        let Some(&(corr, start, end)) = self.calls.get((line as usize).wrapping_sub(1)) else {
            return (0, 0, None);
        };
        match self.ops.get(&corr) {
            Some(&(s, e, stream)) => (s, e, Some(stream)),
            None => (start, end, None),
        }
    }
}

/// The findings and the overlap report of one trace, as `--json` adds them to the summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Judged {
    pub findings: Findings,
    pub overlap_report: overlap::OverlapReport,
}

/// Judge the trace at `path` (read whole: the checker replays every call).
pub fn judge_path(path: &std::path::Path) -> anyhow::Result<Judged> {
    Ok(judge_trace(&super::file::read_path(path)?))
}

/// Judge a trace already read (an embedded sample).
pub fn judge_trace(trace: &Trace) -> Judged {
    Judged {
        findings: judge(trace),
        overlap_report: overlap::report(trace),
    }
}

/// Both as text, after the summary. Kernel names and messages come from the trace: cleaned.
pub fn render_judged(j: &Judged) -> String {
    let text = render(&j.findings) + &overlap::render(&j.overlap_report);
    text.lines()
        .map(|l| crate::sanitize::clean_line(l) + "\n")
        .collect()
}

/// The findings as text, after the summary.
pub fn render(f: &Findings) -> String {
    let mut out = String::from(
        "\nfindings (no line information: a trace has no source lines; \"line N\" is driver call N)\n",
    );
    if f.findings.is_empty() {
        out.push_str("  none the checker could prove\n");
    }
    for x in &f.findings {
        let other = x
            .other_call
            .map(|o| format!(", with call {o}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {}{}: call {} ({}){other}: {}\n    learn: {} / {}",
            x.kind,
            if x.warning { " (warning)" } else { "" },
            x.call,
            x.call_name,
            x.message,
            x.teaches.lesson,
            x.teaches.card
        );
    }
    for n in &f.not_watched {
        let _ = writeln!(out, "  {n}");
    }
    if let Some(why) = &f.kernel_params_refused {
        let _ = writeln!(
            out,
            "  (the parameters were asked of the driver, which answered: {})",
            crate::sanitize::clean_line(why)
        );
    }
    out
}

#[cfg(test)]
#[path = "judge_tests.rs"]
mod tests;
