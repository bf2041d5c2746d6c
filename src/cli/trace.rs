//! `cuda-academy trace [OPTIONS] -- PROGRAM [ARGS…]`: run any CUDA program under the injection
//! library and say what was recorded; `trace --open FILE [--json]`: show a recorded trace on any
//! machine (`sample:NAME`: one the binary carries). The program's stdin, stdout and stderr are
//! its own, and `trace` exits with the program's exit status; what `trace` itself says goes to
//! stderr after the program ends (nothing with `--quiet`). On a terminal both then open the
//! timeline view (`view`), unless `--no-tui`; `--trace-out FILE` writes the timeline as the
//! Chrome/Perfetto trace `run --trace` writes.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;

use crate::attach::launch::{self, Launch};
use crate::attach::timeline::{self, TraceTimeline};
use crate::attach::{file, judge, library, samples, summary};
use crate::cli::TraceArgs;
use crate::sanitize::clean_line;

mod view;

/// Where the trace goes without `--trace-file`.
pub const DEFAULT_TRACE_FILE: &str = "cuda-academy-trace.jsonl";

/// `trace`; `color`: whether the view draws in colour (`--color`, `NO_COLOR`).
pub fn trace(args: &TraceArgs, color: bool) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.open {
        return open(path, args, color);
    }
    let given = args
        .trace_file
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_TRACE_FILE));
    // Absolute: the program may change directory before CUDA starts.
    let trace_file = std::path::absolute(&given)
        .with_context(|| format!("the trace file {}", given.display()))?;
    // Created empty here, so that a path that cannot be written fails before the program runs,
    // and a file still empty afterwards means CUDA never started in the program.
    std::fs::File::create(&trace_file)
        .with_context(|| format!("cannot write the trace file {}", trace_file.display()))?;
    let mut say = Vec::new();
    let library = match library::install() {
        Ok(path) => Some(path),
        Err(err) => {
            say.push(format!("the program runs untraced: {err:#}"));
            None
        }
    };
    if let Some(other) = std::env::var_os("CUDA_INJECTION64_PATH").filter(|_| library.is_some()) {
        say.push(format!(
            "CUDA_INJECTION64_PATH was {}: that injection library is replaced for this run",
            other.to_string_lossy()
        ));
    }
    let launch = Launch {
        argv: &args.program,
        trace_file: &trace_file,
        library: library.as_deref(),
    };
    let ended = match launch::run(&launch) {
        Ok(ended) => ended,
        Err(err) => {
            let _ = std::fs::remove_file(&trace_file);
            let _ = writeln!(
                std::io::stderr(),
                "cuda-academy: trace: {}",
                clean_line(&err.to_string())
            );
            return Ok(ExitCode::from(err.exit_code()));
        }
    };
    let traced = library.is_some() && {
        say.extend(after_run(&trace_file, ended));
        trace_file.exists()
    };
    if traced && (args.trace_out.is_some() || wants_view(args)) {
        say.extend(show_after_run(&trace_file, args, color));
    }
    if !args.quiet {
        let mut err = std::io::stderr().lock();
        for line in say {
            let _ = writeln!(err, "cuda-academy: trace: {}", clean_line(&line));
        }
    }
    Ok(ExitCode::from(ended.exit_code()))
}

/// Close the trace with the program's end, and say what it holds.
fn after_run(trace_file: &Path, ended: launch::Ended) -> Vec<String> {
    let empty = std::fs::metadata(trace_file)
        .map(|m| m.len() == 0)
        .unwrap_or(true);
    if empty {
        let _ = std::fs::remove_file(trace_file);
        return vec![if crate::gpu::cuda::context::driver_present() {
            "no CUDA activity: the program never started CUDA (no trace written)".to_string()
        } else {
            "nothing could be traced: there is no CUDA driver on this machine (libcuda.so.1 does not load); the program ran untraced".to_string()
        }];
    }
    let appended = std::fs::OpenOptions::new()
        .append(true)
        .open(trace_file)
        .and_then(|mut f| f.write_all(file::exit_line(ended).as_bytes()));
    let mut out = Vec::new();
    if let Err(err) = appended {
        out.push(format!(
            "could not add the program's exit to {}: {err}",
            trace_file.display()
        ));
    }
    match summary::summarize_path(trace_file) {
        Ok(s) => {
            out.extend(describe(&s, trace_file));
            if s.status == "ok" {
                out.extend(judged_lines(trace_file));
            }
        }
        Err(err) => out.push(format!(
            "the trace {} could not be read back: {err:#}",
            trace_file.display()
        )),
    }
    out
}

/// A few lines on what was traced.
fn describe(s: &summary::Summary, path: &Path) -> Vec<String> {
    if s.status != "ok" {
        return vec![format!(
            "nothing traced ({}): {}; the program ran untraced",
            s.status, s.detail
        )];
    }
    let copies: u64 = s
        .streams
        .iter()
        .map(|st| {
            st.uploads.count
                + st.downloads.count
                + st.device_to_device.count
                + st.other_copies.count
        })
        .sum();
    let kernels: u64 = s.streams.iter().map(|st| st.kernels).sum();
    let mut out = vec![format!(
        "{} driver API calls, {copies} copies, {kernels} kernels on {} streams; written to {} (summary: cuda-academy trace --open {})",
        s.api_calls,
        s.streams.len(),
        path.display(),
        path.display()
    )];
    if !s.complete {
        out.push("the trace is incomplete: the program ended without the exit flush (killed, or _exit/abort), so the last records may be missing".to_string());
    }
    out.extend(s.notes.iter().map(|n| format!("note: {n}")));
    out
}

/// Whether to open the view: stdout and stdin are a terminal and neither `--no-tui` nor
/// `--json` asks for text.
fn wants_view(args: &TraceArgs) -> bool {
    use std::io::IsTerminal as _;
    !args.no_tui && !args.json && std::io::stdout().is_terminal() && std::io::stdin().is_terminal()
}

/// A trace read for showing: its summary and its timeline.
struct Opened {
    /// What was opened, as the title says it.
    source: String,
    summary: summary::Summary,
    timeline: TraceTimeline,
    /// What the checker proved and why copies did not overlap.
    judged: judge::Judged,
}

impl Opened {
    /// The trace at `path`, or the embedded `sample:NAME` (read twice, a line at a time, so a
    /// large file costs the memory of its timeline only).
    fn load(path: &Path) -> anyhow::Result<Opened> {
        if let Some(name) = path.to_str().and_then(|p| p.strip_prefix(samples::PREFIX)) {
            let trace = samples::open(name)?;
            return Ok(Opened {
                source: format!("{}{name}", samples::PREFIX),
                summary: summary::summarize(&trace),
                timeline: timeline::of_trace(&trace),
                judged: judge::judge_trace(&trace),
            });
        }
        Ok(Opened {
            source: path.display().to_string(),
            summary: summary::summarize_path(path)?,
            timeline: timeline::of_path(path)?,
            judged: judge::judge_path(path)?,
        })
    }

    /// `--trace-out`: the Chrome/Perfetto trace, by `run --trace`'s writer.
    fn write_chrome(&self, out: &Path) -> anyhow::Result<String> {
        crate::trace::write_chrome_trace(&timeline::report(&self.timeline), out)?;
        Ok(format!(
            "Chrome/Perfetto trace written to {} ({} ops; open it at https://ui.perfetto.dev)",
            out.display(),
            self.timeline.ops.len()
        ))
    }
}

/// After a live run: `--trace-out`, then the view; what to say afterwards.
fn show_after_run(trace_file: &Path, args: &TraceArgs, color: bool) -> Vec<String> {
    let opened = match Opened::load(trace_file) {
        Ok(o) if o.summary.status == "ok" => o,
        // Nothing traced: `after_run` has said why.
        Ok(_) => return Vec::new(),
        Err(err) => return vec![format!("the trace could not be shown: {err:#}")],
    };
    let mut say = Vec::new();
    if let Some(out) = &args.trace_out {
        match opened.write_chrome(out) {
            Ok(line) => say.push(line),
            Err(err) => say.push(format!("{err:#}")),
        }
    }
    if wants_view(args)
        && let Err(err) = view::show(opened, color)
    {
        say.push(format!("the timeline view failed: {err:#}"));
    }
    say
}

/// `trace --open FILE`.
fn open(path: &Path, args: &TraceArgs, color: bool) -> anyhow::Result<ExitCode> {
    if path.to_str() == Some("sample:list") {
        return list_samples();
    }
    let opened = Opened::load(path)?;
    if opened.summary.status.is_empty() {
        anyhow::bail!("{} is empty: not a cuda-academy trace", path.display());
    }
    if let Some(out) = &args.trace_out {
        let line = opened.write_chrome(out)?;
        let _ = writeln!(
            std::io::stderr(),
            "cuda-academy: trace: {}",
            clean_line(&line)
        );
    }
    if wants_view(args) {
        view::show(opened, color)?;
        return Ok(ExitCode::SUCCESS);
    }
    let s = &opened.summary;
    let mut out = std::io::stdout().lock();
    if args.json {
        // Written whole, so a closed pipe is an io::Error main keeps quiet about; C1 controls in
        // kernel names escaped, as every `--json` does.
        let text = crate::sanitize::json(
            serde_json::to_string_pretty(&judged_json(s, &opened.judged)?)? + "\n",
        );
        out.write_all(text.as_bytes())?;
    } else {
        out.write_all(summary::render(s).as_bytes())?;
        out.write_all(judge::render_judged(&opened.judged).as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `trace --open sample:list`: the traces this build carries, and where each was recorded.
fn list_samples() -> anyhow::Result<ExitCode> {
    let mut text = String::new();
    for name in samples::names() {
        let folder = samples::folder(name).unwrap_or_default();
        text.push_str(&format!(
            "{}{name}  ({folder}/{name}.trace.jsonl)\n",
            samples::PREFIX
        ));
    }
    if text.is_empty() {
        text.push_str("this build carries no sample trace\n");
    }
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The summary with the findings and the overlap report beside its fields (schema 2).
fn judged_json(s: &summary::Summary, judged: &judge::Judged) -> anyhow::Result<serde_json::Value> {
    let mut value = serde_json::to_value(s)?;
    if let Some(map) = value.as_object_mut() {
        map.insert("findings".into(), serde_json::to_value(&judged.findings)?);
        map.insert(
            "overlap_report".into(),
            serde_json::to_value(&judged.overlap_report)?,
        );
    }
    Ok(value)
}

/// After a live run: the findings and the overlap report, as lines for stderr.
fn judged_lines(trace_file: &Path) -> Vec<String> {
    match judge::judge_path(trace_file) {
        Ok(j) => judge::render_judged(&j)
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        Err(err) => vec![format!("the trace could not be judged: {err:#}")],
    }
}
