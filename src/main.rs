//! The `cuda-academy` binary: parse the command line, run the tutorial or a subcommand, and turn
//! the result into an exit status.
//!
//! Exit status: 0 on success (and when stdout is closed early, e.g. `| head`), 1 on any error or
//! when `check` finds problems, 2 for command-line usage errors (clap's own). Errors print as
//! `cuda-academy: <what happened: why>` on stderr. The TUI installs its own panic hook; nothing
//! here touches panic handling.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser as _;
use cuda_academy::cli::{self, Cli, Command, GlobalArgs};

fn main() -> ExitCode {
    // Started as the driver probe (`cuInit` in a child, so that a hung driver never blocks this
    // process): do that and nothing else.
    if let Some(code) = cuda_academy::gpu::cuda::init::serve_probe_if_asked() {
        return code;
    }
    cuda_academy::gpu::cuda::init::use_child_probe();
    ignore_file_size_signal();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    warn_about_environment();
    match dispatch(&cli) {
        Ok(code) => code,
        // The reader went away (`cuda-academy list | head -1`): nothing left to say to anyone.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // stderr may be closed too; there is nowhere else to report that.
            // Errors carry outside text (paths, file names, parser and driver messages).
            let text = cuda_academy::sanitize::clean(&format!("{err:#}")).into_owned();
            let _ = writeln!(io::stderr(), "cuda-academy: {text}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(cli: &Cli) -> anyhow::Result<ExitCode> {
    // Loaded once, for every command (a bad --profile is an error whatever the command), and
    // passed down to whatever opens a backend.
    let backend = cli.global.backend_spec()?;
    match &cli.command {
        None => tutorial(&cli.global, backend),
        Some(Command::List(args)) => cli::list::list(args, &cli.global),
        Some(Command::Check(args)) => cli::check::check(args, &cli.global),
        Some(Command::Completions(args)) => cli::completions::completions(args),
        Some(Command::Man) => cli::man::man(),
        Some(Command::Run(args)) => cli::run::run(args, &backend),
        Some(Command::Info(args)) => cli::info::info(args, &backend),
        Some(Command::Calibrate(args)) => cli::calibrate::calibrate(args, &backend),
        Some(Command::Exercise(args)) => cli::exercise::exercise(args, &backend),
        Some(Command::Trace(args)) => cli::trace::trace(args, cli.global.color.enabled()),
    }
}

/// The interactive tutorial, refused up front when there is no terminal to draw on or read keys
/// from (a pipe, a file, cron): entering raw mode there would fail or leave junk behind.
fn tutorial(global: &GlobalArgs, backend: cli::BackendSpec) -> anyhow::Result<ExitCode> {
    let missing = match (io::stdin().is_terminal(), io::stdout().is_terminal()) {
        (true, true) => None,
        (false, true) => Some("stdin is not a terminal"),
        (true, false) => Some("stdout is not a terminal"),
        (false, false) => Some("stdin and stdout are not terminals"),
    };
    // A dumb terminal cannot move the cursor or switch screens: full-screen output would be
    // junk, so it is refused like no terminal at all.
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    let missing = missing.or(dumb.then_some("TERM=dumb cannot draw a full-screen interface"));
    if let Some(what) = missing {
        anyhow::bail!(
            "the tutorial needs an interactive terminal ({what}). For scripts use \
             `cuda-academy list`, `run` or `info`; see --help."
        );
    }
    cuda_academy::tui::run(&global.tui_options(backend))?;
    Ok(ExitCode::SUCCESS)
}

/// What clap would print and exit with, but with its error cleaned first: clap echoes the
/// offending argument, and while it drops ESC sequences it passes C1 controls (U+009B is a CSI
/// on its own in some terminals) through raw (review CL1). Help and version (stdout, our own
/// text) keep clap's styling; an error is printed plain, cleaned, on a terminal and into a pipe.
fn clap_exit(e: &clap::Error) -> ExitCode {
    if e.use_stderr() {
        let text = cuda_academy::sanitize::clean(&e.render().to_string()).into_owned();
        let _ = io::stderr().write_all(text.as_bytes());
    } else {
        let _ = e.print();
    }
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

/// Settings from the environment that were not understood: said once on stderr, before any
/// work (they are ignored, so what they were meant to change silently does not happen).
fn warn_about_environment() {
    for w in cli::environment_warnings() {
        let text = cuda_academy::sanitize::clean_line(&w);
        let _ = writeln!(io::stderr(), "cuda-academy: warning: {text}");
    }
}

/// Whether the error comes from writing to a closed pipe.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Replace SIGXFSZ's default action (kill, with the terminal left broken and a file cut short)
/// by a handler that does nothing: a write past `ulimit -f` then fails with EFBIG ("File too
/// large"), which every write path already reports, and temp files are removed as on any error.
fn ignore_file_size_signal() {
    #[cfg(unix)]
    let _ = signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
}
