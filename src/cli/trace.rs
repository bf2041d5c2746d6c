//! `cuda-academy trace [OPTIONS] -- PROGRAM [ARGS…]`: run any CUDA program under the injection
//! library and say what was recorded; `trace --open FILE [--json]`: summarise a recorded trace
//! on any machine. The program's stdin, stdout and stderr are its own, and `trace` exits with
//! the program's exit status; what `trace` itself says goes to stderr after the program ends
//! (nothing with `--quiet`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;

use crate::attach::launch::{self, Launch};
use crate::attach::{file, judge, library, summary};
use crate::cli::TraceArgs;
use crate::sanitize::clean_line;

/// Where the trace goes without `--trace-file`.
pub const DEFAULT_TRACE_FILE: &str = "cuda-academy-trace.jsonl";

pub fn trace(args: &TraceArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.open {
        return open(path, args.json);
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
    if library.is_some() {
        say.extend(after_run(&trace_file, ended));
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

/// `trace --open FILE`.
fn open(path: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let s = summary::summarize_path(path)?;
    if s.status.is_empty() {
        anyhow::bail!("{} is empty: not a cuda-academy trace", path.display());
    }
    let judged = judge::judge_path(path)?;
    let mut out = std::io::stdout().lock();
    if json {
        // Written whole, so a closed pipe is an io::Error main keeps quiet about; C1 controls in
        // kernel names escaped, as every `--json` does.
        let text =
            crate::sanitize::json(serde_json::to_string_pretty(&judged_json(&s, &judged)?)? + "\n");
        out.write_all(text.as_bytes())?;
    } else {
        out.write_all(summary::render(&s).as_bytes())?;
        out.write_all(judge::render_judged(&judged).as_bytes())?;
    }
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
