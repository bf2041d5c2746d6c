//! The command line: every subcommand and flag (clap derive). Parsing only; each subcommand's
//! work lives in its own module under `cli/`.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::experiment::{options, registry};
use crate::gpu::profile::Profile;

pub mod calibrate;
pub mod check;
pub mod completions;
pub mod exercise;
pub mod info;
pub mod list;
pub mod man;
pub mod run;
pub mod trace;
pub mod version;

/// What to say about environment settings that are not understood (each is ignored): for now
/// an unknown `CUDA_ACADEMY_CUPTI` word (review CL4). The lines are outside text: the caller
/// cleans them.
pub fn environment_warnings() -> Vec<String> {
    crate::gpu::cuda::cupti::tuning_warning()
        .into_iter()
        .collect()
}

/// Learn how data moves between host and GPU in CUDA, and measure it on your own GPU.
#[derive(Debug, Parser)]
#[command(name = "cuda-academy", version, long_version = version::LONG_VERSION, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub global: GlobalArgs,
}

/// Options shared by the tutorial (the default command) and the subcommands.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Load lessons from this folder instead of the built-in ones.
    #[arg(long, value_name = "DIR", global = true)]
    pub lessons: Option<PathBuf>,
    /// When to use colour (`NO_COLOR` set means never, unless `always`).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,
    /// When links in cards are clickable OSC 8 hyperlinks [default: $CUDA_ACADEMY_HYPERLINKS,
    /// else auto: terminals known to support them].
    #[arg(long, value_enum, value_name = "WHEN", global = true)]
    pub hyperlinks: Option<HyperlinkChoice>,
    /// Which backend runs experiments.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto, global = true)]
    pub backend: BackendChoice,
    /// Simulator profile to use instead of the built-in H200 one: a file (written by
    /// `calibrate`), or a built-in name: `h200`, `h200-one-copy-engine` (what-if: the H200's
    /// figures with a single copy engine, where uploads and downloads take turns).
    #[arg(long, value_name = "FILE|NAME", global = true)]
    pub profile: Option<PathBuf>,
    /// CUDA device ordinal.
    #[arg(long, value_name = "N", default_value_t = 0, global = true)]
    pub device: u32,
    /// Do not capture the mouse (keeps the terminal's own text selection).
    #[arg(long)]
    pub no_mouse: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// `--backend`: defined beside backend detection (the GPU layer must not import the CLI).
pub use crate::gpu::detect::{BackendChoice, BackendSpec};
/// `--hyperlinks`: defined beside the detection it overrides.
pub use crate::tui::hyperlinks::HyperlinkChoice;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the lessons.
    List(ListArgs),
    /// Validate a lesson folder; prints `file:line: message` per problem, exits 1 if any.
    Check(CheckArgs),
    /// Run one experiment and print its results.
    Run(RunArgs),
    /// Show the GPU, its PCIe link, and which backend runs and why.
    Info(InfoArgs),
    /// Measure this GPU and write a simulator profile.
    Calibrate(CalibrateArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Print the man page (roff): `cuda-academy man > cuda-academy.1`.
    Man,
    /// Hands-on exercises: list them, show a starter, check your file.
    Exercise(ExerciseArgs),
    /// Run any CUDA program with tracing (`trace -- PROGRAM ARGS...`), or summarise a trace
    /// file (`trace --open FILE`).
    Trace(TraceArgs),
}

#[derive(Debug, Args)]
pub struct TraceArgs {
    /// Show this trace file instead of running a program (works without a GPU); `sample:NAME`
    /// opens a trace built into cuda-academy (`sample:list` lists them).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["program", "trace_file", "quiet"])]
    pub open: Option<PathBuf>,
    /// Also write the trace's timeline as a Chrome/Perfetto trace (the format of `run --trace`).
    #[arg(long, value_name = "FILE")]
    pub trace_out: Option<PathBuf>,
    /// Print the text summary instead of opening the timeline view (the default when stdout is
    /// not a terminal).
    #[arg(long)]
    pub no_tui: bool,
    /// Where to write the trace [default: cuda-academy-trace.jsonl in the current folder].
    #[arg(long, value_name = "FILE")]
    pub trace_file: Option<PathBuf>,
    /// With --open: print the summary as one JSON object (versioned schema).
    #[arg(long, requires = "open")]
    pub json: bool,
    /// Say nothing on stderr after the program ends (the trace is still written).
    #[arg(long, short)]
    pub quiet: bool,
    /// The program to run and its arguments, after `--`.
    #[arg(
        value_name = "PROGRAM",
        trailing_var_arg = true,
        allow_hyphen_values = true,
        required_unless_present = "open"
    )]
    pub program: Vec<std::ffi::OsString>,
}

#[derive(Debug, Args)]
pub struct ExerciseArgs {
    #[command(subcommand)]
    pub command: ExerciseCommand,
}

#[derive(Debug, Subcommand)]
pub enum ExerciseCommand {
    /// List the exercises: id, lesson, title, passed.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print an exercise's starter file (or its solution) to stdout. The solution shows once
    /// the exercise has passed; before that only with --force after three checks of a changed
    /// file, and the pass is then recorded as after viewing the solution.
    Show {
        id: String,
        #[arg(long)]
        solution: bool,
        /// Show the solution before the exercise has passed (recorded in progress).
        #[arg(long, requires = "solution")]
        force: bool,
    },
    /// Run FILE as exercise ID and grade it: exit 0 passed, 1 not yet, 2 usage error (with
    /// --native: 3 when nvcc, the CUDA driver or the injection library is missing).
    Check {
        id: String,
        /// The program to check; `-` (or /dev/stdin) reads it from standard input (a pipe or a
        /// redirect), at most 1 MiB as for a file.
        file: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Compile FILE with nvcc against academy.cuh, run it traced on this machine's GPU and
        /// judge the trace with the exercise's criteria (any C++, your own kernels); criteria a
        /// trace cannot judge are listed as not judged natively. Needs nvcc (on PATH, or in
        /// $CUDA_HOME/bin or $CUDA_PATH/bin) and a GPU.
        #[arg(long)]
        native: bool,
    },
    /// Write academy.cuh, the header every exercise includes, to stdout or to --out (a file,
    /// or a folder to put academy.cuh in), for compiling exercises with nvcc.
    Header {
        /// Where to write it (a file, or a folder); stdout when left out.
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The folder to check (default: `lessons`).
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The experiment to run.
    #[arg(value_parser = experiment_id())]
    pub experiment: String,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Largest transfer size in bytes (suffixes K, M, G = KiB, MiB, GiB).
    #[arg(long, value_name = "BYTES", value_parser = size_arg)]
    pub size: Option<u64>,
    /// Number of streams (pipeline: fixes the stream count instead of sweeping it).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(options::MAX_STREAMS)))]
    pub streams: Option<u32>,
    /// Number of chunks (pipeline: fixes the chunk count instead of sweeping it).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(options::MAX_CHUNKS)))]
    pub chunks: Option<u32>,
    /// Host memory of the buffers (pipeline; default pinned).
    #[arg(long, value_enum, value_name = "KIND")]
    pub host_mem: Option<HostMemArg>,
    /// Issue order or stream layout (pipeline; default: try all three).
    #[arg(long, value_enum, value_name = "ORDER")]
    pub order: Option<OrderArg>,
    /// Write the run's timeline as Chrome trace event JSON (opens in Perfetto).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

/// The experiment ids the registry knows, each with its title (so a typo gets clap's "a similar
/// value exists" and shell completions offer the ids).
fn experiment_id() -> PossibleValuesParser {
    PossibleValuesParser::new(
        registry::ALL.map(|spec| PossibleValue::new(spec.id).help(spec.title)),
    )
}

/// `--size`: a byte count any experiment accepts (`64M`, `1G`), else a usage error.
fn size_arg(text: &str) -> Result<u64, String> {
    let size = options::parse_size(text)?;
    options::check_size(size)?;
    Ok(size)
}

/// `--host-mem`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HostMemArg {
    Pinned,
    Pageable,
}

/// `--order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    PerChunk,
    BreadthFirst,
    // One stream per stage (upload, kernel, download), linked by events.
    ByStage,
}

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// Where to write the profile (TOML).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Profile name recorded in the file (default: derived from the device name).
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    pub shell: clap_complete::Shell,
}

impl ColorChoice {
    /// `--color never`, or `NO_COLOR` set (unless `--color always`), turns colour off.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => {
                ratatui::crossterm::style::force_color_output(true);
                true
            }
            ColorChoice::Never => false,
            ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }
}

impl GlobalArgs {
    /// The backend the flags ask for, with the `--profile` file loaded (the error names the
    /// file and what is wrong with it).
    pub fn backend_spec(&self) -> anyhow::Result<BackendSpec> {
        let profile = match &self.profile {
            Some(path) => Some(Profile::by_path_or_name(path).context("--profile")?),
            None => None,
        };
        Ok(BackendSpec::new(self.backend, self.device).with_profile(profile))
    }

    /// What the tutorial needs of the command line; `backend` from [`Self::backend_spec`].
    pub fn tui_options(&self, backend: BackendSpec) -> crate::tui::Options {
        crate::tui::Options {
            lessons: self.lessons.clone(),
            color: self.color.enabled(),
            hyperlinks: crate::tui::hyperlinks::enabled(self.hyperlinks),
            no_mouse: self.no_mouse,
            backend,
        }
    }
}
