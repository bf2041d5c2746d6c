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
use crate::report::{BackendKind, Report};

/// Carry out `cuda-academy run`; errors go to stderr through the caller.
pub fn run(args: &RunArgs, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
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
    // A CUDA library that panics mid-run (a symbol the driver lacks) is an error, not a crash.
    let result = crate::gpu::detect::catch_quietly(|| {
        experiment::run(&args.experiment, gpu.as_mut(), &opts, &ctx)
    })
    .map_err(experiment::ExperimentError::from)
    .and_then(|r| r);
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
    let text = match args.json {
        true => crate::sanitize::json(text),
        false => crate::sanitize::clean(&text).into_owned(),
    };
    // A write error (a full disk, /dev/full) is an error; a closed pipe is handled by main.
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write the results to stdout")?;
    // After the results, so a bad --trace path never throws a finished run away.
    if let Some(path) = &args.trace {
        crate::trace::write_chrome_trace(&report, path)?;
        if !args.json {
            eprintln!(
                "wrote the timeline as a Chrome trace to {} (open it in https://ui.perfetto.dev)",
                crate::sanitize::clean(&path.display().to_string())
            );
        }
    }
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

/// Open the backend the flags ask for: `gpu` fails with the reason when no GPU works, `auto`
/// falls back to the simulator and the report says why.
pub fn open_backend(global: &GlobalArgs) -> anyhow::Result<Box<dyn Gpu + Send>> {
    crate::gpu::detect::open(global.backend, global.device).map_err(|err| match global.backend {
        BackendChoice::Gpu => anyhow::anyhow!("--backend gpu: {err}"),
        _ => anyhow::anyhow!("{err}"),
    })
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
