//! `cuda-academy run EXPERIMENT`: run one experiment on the chosen backend and print a table,
//! or with `--json` the report as one JSON object on stdout. Errors go to stderr (through the
//! caller) with a non-zero exit, also with `--json`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::Context;

use crate::cli::{BackendChoice, BackendSpec, HostMemArg, OrderArg, RunArgs};
use crate::experiment::{self, ExperimentOptions, IssueOrder, RunContext, registry};
use crate::gpu::Gpu;
use crate::report::{BackendKind, HostMemKind, Report};

/// Carry out `cuda-academy run`; errors go to stderr through the caller.
pub fn run(args: &RunArgs, backend: &BackendSpec) -> anyhow::Result<ExitCode> {
    let opts = options(args);
    // clap accepted only registry ids; a miss here is a bug, said as such.
    let spec = registry::find(&args.experiment)
        .with_context(|| format!("the registry has no experiment {}", args.experiment))?;
    opts.validate(spec)?;
    let mut gpu = open_backend(backend)?;
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
        report.params.device = Some(backend.device);
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

/// The experiment options from the command line (already parsed and range-checked by clap).
pub fn options(args: &RunArgs) -> ExperimentOptions {
    ExperimentOptions {
        size: args.size,
        streams: args.streams,
        chunks: args.chunks,
        host_mem: args.host_mem.map(|m| match m {
            HostMemArg::Pinned => HostMemKind::Pinned,
            HostMemArg::Pageable => HostMemKind::Pageable,
        }),
        issue_order: args.order.map(|o| match o {
            OrderArg::PerChunk => IssueOrder::PerChunk,
            OrderArg::BreadthFirst => IssueOrder::BreadthFirst,
            OrderArg::ByStage => IssueOrder::ByStage,
        }),
        ..ExperimentOptions::default()
    }
}

/// Open the backend the flags ask for: `gpu` fails with the reason when no GPU works, `auto`
/// falls back to the simulator and the report says why.
pub fn open_backend(backend: &BackendSpec) -> anyhow::Result<Box<dyn Gpu + Send>> {
    crate::gpu::detect::open(backend).map_err(|err| match backend.choice {
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
    let words = registry::words(report);
    if let Some(shape) = (words.shape)(report) {
        out += &format!("  best {shape}");
        if let Some(sizes) = (words.pieces)(report) {
            out += &format!(" ({sizes})");
        }
    }
    out += "\n\n";
    if let Some((winner, how)) = (words.winner)(report) {
        out += &format!("winning layout: {winner}, {how}\n\n");
    }
    // The registry's order: contract metrics first, as declared; then any others by name.
    let declared = registry::find(&report.experiment).map_or(&[][..], |s| s.metrics);
    let mut names: Vec<&String> = report.metrics.keys().collect();
    names.sort_by_key(|n| {
        let at = declared.iter().position(|m| m.name == n.as_str());
        let required = at.is_some_and(|i| declared[i].required);
        (!required, at)
    });
    let width = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let unit_width = report
        .metrics
        .values()
        .map(|m| m.unit.len())
        .max()
        .unwrap_or(4)
        .max(4);
    out += &format!(
        "{:<width$}  {:>10}  {:<unit_width$}  {:<13}  spread\n",
        "metric", "value", "unit", "clock"
    );
    for name in names {
        let m = &report.metrics[name];
        let clock = m.clock.map_or("", |c| c.name());
        // A modelled figure's repeats are one computation: no spread to show (issue 28).
        let modelled = m.clock == Some(crate::report::Clock::Model);
        let spread = m.spread.filter(|_| !modelled).map_or(String::new(), |s| {
            format!(
                "n={} IQR {} (min {}, max {})",
                m.n,
                number(s.iqr),
                number(s.min),
                number(s.max)
            )
        });
        let line = format!(
            "{name:<width$}  {:>10}  {:<unit_width$}  {clock:<13}  {spread}",
            number(m.value),
            m.unit
        );
        out += line.trim_end();
        out += "\n";
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
