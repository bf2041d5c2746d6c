//! `cuda-academy run EXPERIMENT`: run one experiment on the chosen backend and print a table,
//! or with `--json` the report as one JSON object on stdout. Errors go to stderr (through the
//! caller) with a non-zero exit, also with `--json`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::Context;

use crate::cli::{BackendChoice, GlobalArgs, RunArgs};
use crate::experiment::{self, ExperimentOptions, IDS, RunContext, metrics, parse_size};
use crate::gpu::Gpu;
use crate::gpu::profile::Profile;
use crate::gpu::sim::SimGpu;
use crate::report::{BackendKind, Report};

/// Carry out `cuda-academy run`; errors go to stderr through the caller.
pub fn run(args: &RunArgs, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    if args.trace.is_some() {
        anyhow::bail!(
            "--trace is not available in this build yet (the Chrome trace export is being written); \
             run without --trace, or use --json for the timeline"
        );
    }
    let opts = options(args)?;
    if !IDS.contains(&args.experiment.as_str()) {
        anyhow::bail!(
            "unknown experiment `{}`; valid experiments: {}",
            args.experiment,
            IDS.join(", ")
        );
    }
    opts.validate(&args.experiment)?;
    let mut gpu = open_backend(global)?;
    let show_progress = !args.json && std::io::stderr().is_terminal();
    let progress = |phase: &str| {
        if show_progress {
            eprint!("\r\x1b[2K{}: {phase}", args.experiment);
        }
    };
    let cancel = AtomicBool::new(false);
    let ctx = RunContext {
        cancel: &cancel,
        progress: &progress,
    };
    let result = experiment::run(&args.experiment, gpu.as_mut(), &opts, &ctx);
    if show_progress {
        eprint!("\r\x1b[2K");
    }
    let mut report = result.with_context(|| format!("experiment {} failed", args.experiment))?;
    if report.backend.kind == BackendKind::Cuda {
        report.params.device = Some(global.device);
    }
    let text = if args.json {
        serde_json::to_string_pretty(&report).context("cannot write the report as JSON")? + "\n"
    } else {
        render_table(&report)
    };
    // A closed pipe (e.g. `| head`) is not a crash.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    if let Some(failed) = report.checks.iter().find(|c| !c.passed) {
        eprintln!("error: check failed: {} ({})", failed.name, failed.detail);
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The experiment options from the command line.
pub fn options(args: &RunArgs) -> anyhow::Result<ExperimentOptions> {
    let size = match &args.size {
        Some(text) => Some(parse_size(text).map_err(|e| anyhow::anyhow!("--size: {e}"))?),
        None => None,
    };
    Ok(ExperimentOptions {
        size,
        streams: args.streams,
        chunks: args.chunks,
        ..ExperimentOptions::default()
    })
}

/// Open the backend the flags ask for.
///
/// Interim: until `crate::gpu::detect::open(global.backend, global.device)` lands (the cudarc
/// work), this builds the simulator for `sim` and `auto` and refuses `gpu`. Replace the body with
/// a call to `detect::open` when merging.
fn open_backend(global: &GlobalArgs) -> anyhow::Result<Box<dyn Gpu>> {
    let reason = match global.backend {
        BackendChoice::Sim => "--backend sim",
        BackendChoice::Auto => "the CUDA backend is not part of this build yet",
        BackendChoice::Gpu => anyhow::bail!(
            "--backend gpu: the CUDA backend is not part of this build yet; use --backend sim"
        ),
    };
    let profile = Profile::builtin("h200")?;
    Ok(Box::new(SimGpu::new(profile, reason.to_string())))
}

/// The backend line: `Simulated: profile h200 — <reason>` or `Live: <GPU name>`.
pub fn backend_line(report: &Report) -> String {
    let b = &report.backend;
    match b.kind {
        BackendKind::Cuda => format!("{}: {}", b.kind.screen_name(), b.device),
        BackendKind::Simulated => format!(
            "{}: profile {} (recorded on {}) — {}",
            b.kind.screen_name(),
            b.profile.as_deref().unwrap_or("?"),
            b.device,
            b.reason.as_deref().unwrap_or("no reason given")
        ),
    }
}

/// A number with about four significant digits.
fn number(v: f64) -> String {
    match v.abs() {
        a if a >= 1000.0 || v.fract() == 0.0 => format!("{v:.0}"),
        a if a >= 100.0 => format!("{v:.1}"),
        a if a >= 1.0 => format!("{v:.2}"),
        _ => format!("{v:.3}"),
    }
}

/// The readable report: backend, parameters, metrics (contract ones first), checks, notes.
pub fn render_table(report: &Report) -> String {
    let mut out = format!("{}\n", backend_line(report));
    let p = &report.params;
    out += &format!(
        "{}  size {}",
        report.experiment,
        experiment::options::format_bytes(p.size)
    );
    if let (Some(s), Some(c)) = (p.streams, p.chunks) {
        out += &format!("  best {s} streams x {c} chunks");
    }
    out += "\n\n";
    let contract: Vec<&str> = metrics::required(&report.experiment)
        .iter()
        .map(|(n, _)| *n)
        .collect();
    let mut names: Vec<&String> = report.metrics.keys().collect();
    names.sort_by_key(|n| {
        (
            !contract.contains(&n.as_str()),
            contract.iter().position(|c| c == n),
        )
    });
    let width = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    out += &format!("{:<width$}  {:>10}  unit\n", "metric", "value");
    for name in names {
        let m = &report.metrics[name];
        out += &format!("{name:<width$}  {:>10}  {}\n", number(m.value), m.unit);
    }
    if !report.checks.is_empty() {
        out += "\nchecks\n";
        for c in &report.checks {
            let mark = if c.passed { "pass" } else { "FAIL" };
            out += &format!("  [{mark}] {} ({})\n", c.name, c.detail);
        }
    }
    for n in &report.notes {
        out += &format!("note: {n}\n");
    }
    out
}
