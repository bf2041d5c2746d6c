//! `exercise check --native ID FILE`: the learner's file compiled with nvcc against the
//! embedded academy.cuh (`-DACADEMY_NATIVE -lineinfo`), run under `trace`'s injection library
//! (`attach::launch`, `attach::library`), and its trace graded with the exercise's criteria
//! (`exercise::native`). A criterion that reads a reference run gets the exercise's solution,
//! compiled and traced the same way. Exit 0 passed (every criterion judged), 1 not yet (or
//! the file does not compile), 2 usage error, 3 the native check cannot run here (no nvcc, no
//! CUDA driver, no injection library, or CUPTI taken by another tool); nothing is recorded in
//! the state folder: a native verdict leaves criteria out.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::Context as _;

use crate::attach::{file, launch, library};
use crate::exercise::interp::Outcome;
use crate::exercise::native::grade::{self, Ending, NativeVerdict};
use crate::exercise::native::{header, outcome};
use crate::exercise::verdict::CheckResult;
use crate::exercise::{Exercise, catalog};
use crate::report::{BackendInfo, BackendKind, TimingSource};
use crate::sanitize::{self, clean_line};

/// The exit code of a native check that cannot run on this machine.
pub const UNAVAILABLE: u8 = 3;

/// The flags every native build gets (the learner's file and the solution alike).
const NVCC_FLAGS: &[&str] = &[
    "-std=c++17",
    "-lineinfo",
    "-DACADEMY_NATIVE=1",
    "-arch=native",
];

/// Extra nvcc flags (split on whitespace), e.g. `-arch=sm_90` where `-arch=native` fails.
pub const FLAGS_ENV: &str = "CUDA_ACADEMY_NVCC_FLAGS";

/// `exercise check --native`.
pub fn check(id: &str, file: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let ex = match super::find(id) {
        Ok(ex) => ex,
        Err(m) => return super::usage(m),
    };
    let source = match super::read_source(file) {
        Ok(s) => s,
        Err(m) => return super::usage(m),
    };
    let tools = match Tools::find() {
        Ok(t) => t,
        Err(why) => return unavailable(&why),
    };
    let work = tempfile::tempdir().context("cannot make a temporary folder for the build")?;
    header::write(work.path())?;
    let shown = if super::is_stdin(file) {
        super::STDIN_NAME.to_string()
    } else {
        file.display().to_string()
    };
    let include = if super::is_stdin(file) {
        None
    } else {
        file.parent().map(Path::to_path_buf)
    };
    let backend = BackendInfo {
        kind: BackendKind::Cuda,
        device: format!(
            "native: compiled with {}, traced with CUPTI",
            tools.nvcc.display()
        ),
        profile: None,
        reason: None,
        timing: TimingSource::Cupti,
    };
    let learner = match tools.build_and_trace(work.path(), "learner", &source, include.as_deref()) {
        Ok(Built::Ran(run)) => run,
        Ok(Built::CompileFailed(log)) => {
            let log = log.replace(
                &work.path().join("learner.cu").display().to_string(),
                &shown,
            );
            return compile_failed(ex, &shown, json, &backend, &log);
        }
        Err(Unavailable(why)) => return unavailable(&why),
    };
    let mut references: Vec<(Option<String>, Result<Outcome, String>)> = Vec::new();
    for want in ex.criteria.iter().filter_map(|c| c.reference()) {
        if references.iter().any(|(id, _)| id.as_deref() == want) {
            continue;
        }
        let solution = match want {
            None => Some(ex.solution),
            Some(other) => catalog::find(other).map(|e| e.solution),
        };
        let result = match solution {
            None => Err("the reference exercise is not in this build".to_string()),
            Some(text) => match tools.build_and_trace(work.path(), "reference", text, None) {
                Ok(Built::Ran(run)) if run.ending.code == Some(0) => Ok(run.native.outcome),
                Ok(Built::Ran(_)) => Err("the reference solution did not run to the end".into()),
                Ok(Built::CompileFailed(log)) => Err(format!(
                    "the reference solution does not compile: {}",
                    first_error(&log)
                )),
                Err(Unavailable(why)) => Err(why),
            },
        };
        references.push((want.map(str::to_string), result));
    }
    let verdict = grade::grade(ex, &source, &learner.native, learner.ending, |want| {
        references
            .iter()
            .find(|(id, _)| id.as_deref() == want)
            .map_or_else(
                || Err("no reference run".to_string()),
                |(_, r)| r.as_ref().map_err(Clone::clone),
            )
    });
    print(ex, &shown, json, &backend, &verdict)
}

/// What a native check needs: nvcc, a CUDA driver and the injection library.
struct Tools {
    nvcc: PathBuf,
    library: PathBuf,
}

/// Why the native check cannot run here.
struct Unavailable(String);

/// A build and its traced run.
// One value per check, moved once: boxing the run would buy nothing.
#[allow(clippy::large_enum_variant)]
enum Built {
    Ran(Traced),
    CompileFailed(String),
}

/// One traced run.
struct Traced {
    native: outcome::Native,
    ending: Ending,
}

impl Tools {
    fn find() -> Result<Tools, String> {
        let nvcc = find_nvcc().ok_or_else(|| {
            "nvcc was not found (not on PATH, nor in $CUDA_HOME/bin or $CUDA_PATH/bin): install \
             the CUDA toolkit or set CUDA_HOME"
                .to_string()
        })?;
        if !crate::gpu::cuda::context::driver_present() {
            return Err(
                "there is no CUDA driver on this machine (libcuda.so.1 does not load), so \
                 nothing can run on a GPU"
                    .into(),
            );
        }
        let library = library::install().map_err(|e| format!("{e:#}"))?;
        Ok(Tools { nvcc, library })
    }

    /// Compile `source` as `dir/<name>.cu` and run it traced.
    /// `source` compiled with nvcc into `dir/name`: the binary, or the compiler's log.
    fn compile(
        &self,
        dir: &Path,
        name: &str,
        source: &str,
        include: Option<&Path>,
    ) -> Result<Result<std::path::PathBuf, String>, Unavailable> {
        let src = dir.join(format!("{name}.cu"));
        let bin = dir.join(name);
        std::fs::write(&src, source)
            .map_err(|e| Unavailable(format!("cannot use the build folder: {e}")))?;
        let mut cmd = Command::new(&self.nvcc);
        cmd.args(NVCC_FLAGS).arg("-I").arg(dir);
        if let Some(inc) = include {
            cmd.arg("-I").arg(inc);
        }
        if let Some(extra) = std::env::var_os(FLAGS_ENV) {
            cmd.args(extra.to_string_lossy().split_whitespace());
        }
        cmd.arg("-o").arg(&bin).arg(&src);
        let out = cmd
            .output()
            .map_err(|e| Unavailable(format!("cannot run {}: {e}", self.nvcc.display())))?;
        if !out.status.success() {
            let mut log = String::from_utf8_lossy(&out.stderr).into_owned();
            log.push_str(&String::from_utf8_lossy(&out.stdout));
            return Ok(Err(log));
        }
        Ok(Ok(bin))
    }

    fn build_and_trace(
        &self,
        dir: &Path,
        name: &str,
        source: &str,
        include: Option<&Path>,
    ) -> Result<Built, Unavailable> {
        let io = |e: std::io::Error| Unavailable(format!("cannot use the build folder: {e}"));
        let bin = match self.compile(dir, name, source, include)? {
            Ok(bin) => bin,
            Err(log) => return Ok(Built::CompileFailed(log)),
        };
        let trace_file = dir.join(format!("{name}.trace.jsonl"));
        std::fs::File::create(&trace_file).map_err(io)?;
        let printed = dir.join(format!("{name}.out"));
        let sink = std::fs::File::create(&printed).map_err(io)?;
        let argv = [OsString::from(&bin)];
        let ended = launch::run_into(
            &launch::Launch {
                argv: &argv,
                trace_file: &trace_file,
                library: Some(&self.library),
            },
            &sink,
        )
        .map_err(|e| Unavailable(e.to_string()))?;
        let _ = std::fs::OpenOptions::new()
            .append(true)
            .open(&trace_file)
            .and_then(|mut f| f.write_all(file::exit_line(ended).as_bytes()));
        let trace = file::read_path(&trace_file).map_err(|e| Unavailable(format!("{e:#}")))?;
        traced(&trace)?;
        let output = crate::bounded_read::read_text(
            &printed,
            crate::bounded_read::Cap {
                bytes: 1 << 20,
                what: "the program's output",
            },
        )
        .unwrap_or_else(|e| format!("(the program's output could not be read: {e})"));
        let (code, signal) = match ended {
            launch::Ended::Code(c) => (Some(c), None),
            launch::Ended::Signal(s) => (None, Some(s)),
        };
        let native = outcome::of_trace(&trace, output, i64::from(code.unwrap_or(-1)));
        Ok(Built::Ran(Traced {
            native,
            ending: Ending {
                code,
                signal,
                complete: trace.complete,
            },
        }))
    }
}

/// nvcc on PATH, else in `$CUDA_HOME/bin`, else in `$CUDA_PATH/bin`.
pub fn find_nvcc() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("nvcc"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let homes = ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(std::env::var_os)
        .filter(|v| !v.is_empty())
        .map(|h| PathBuf::from(h).join("bin").join("nvcc"));
    on_path.into_iter().chain(homes).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Exit 3 with why, and that the interpreter's check still works.
fn unavailable(why: &str) -> anyhow::Result<ExitCode> {
    let _ = writeln!(
        std::io::stderr(),
        "cuda-academy: the native check cannot run here: {}\ncuda-academy: the interpreter's \
         check still works: run the same command without --native",
        clean_line(why)
    );
    Ok(ExitCode::from(UNAVAILABLE))
}

fn first_error(log: &str) -> String {
    log.lines()
        .find(|l| l.contains("error"))
        .or_else(|| log.lines().next())
        .unwrap_or("")
        .to_string()
}

/// The file does not compile: one failed check, nvcc's messages as diagnostics text.
fn compile_failed(
    ex: &Exercise,
    shown: &str,
    json: bool,
    backend: &BackendInfo,
    log: &str,
) -> anyhow::Result<ExitCode> {
    let mut v = NativeVerdict::default();
    v.verdict.checks.push(CheckResult {
        name: "compiles with nvcc".into(),
        passed: false,
        detail: first_error(log),
    });
    v.verdict.output = log.to_string();
    print(ex, shown, json, backend, &v)
}

/// The verdict, as `check` prints it, with the criteria not judged natively and what the
/// trace could not watch.
fn print(
    ex: &Exercise,
    shown: &str,
    json: bool,
    backend: &BackendInfo,
    nv: &NativeVerdict,
) -> anyhow::Result<ExitCode> {
    let v = &nv.verdict;
    let mut text = super::verdict_text(ex, Path::new(shown), json, backend, v)?;
    if json {
        let mut value: serde_json::Value =
            serde_json::from_str(&text).context("cannot write the verdict as JSON")?;
        if let Some(map) = value.as_object_mut() {
            map.insert("native".into(), true.into());
            map.insert(
                "not_judged_natively".into(),
                serde_json::to_value(&nv.not_judged)?,
            );
            map.insert("not_watched".into(), serde_json::to_value(&nv.not_watched)?);
        }
        text = sanitize::json(serde_json::to_string_pretty(&value)? + "\n");
    } else {
        text += "\nnative: \"line N\" in a hazard is the trace's driver call N; check_output's lines are your file's\n";
        if !nv.not_judged.is_empty() {
            text += "\nnot judged natively (run `exercise check` without --native for these):\n";
            for n in &nv.not_judged {
                text += &format!("  [----] {} ({})\n", clean_line(&n.name), clean_line(n.why));
            }
        }
        for w in &nv.not_watched {
            text += &format!("  note: {}\n", clean_line(w));
        }
    }
    std::io::stdout().lock().write_all(text.as_bytes())?;
    let summary = if v.passed {
        format!(
            "{}: passed natively ({} checks; {} not judged natively)",
            ex.id,
            v.checks.len(),
            nv.not_judged.len()
        )
    } else {
        v.summary(&ex.id)
    };
    if v.passed {
        if !json {
            writeln!(std::io::stdout(), "{}", clean_line(&summary))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", clean_line(&summary));
    for c in v.checks.iter().filter(|c| !c.passed) {
        let _ = writeln!(
            err,
            "  FAIL {}: {}",
            clean_line(&c.name),
            clean_line(&c.detail)
        );
    }
    Ok(ExitCode::FAILURE)
}

/// Whether the trace's header says tracing started; else why the run is not judged.
fn traced(trace: &file::Trace) -> Result<(), Unavailable> {
    match trace.header.as_ref().map(|h| h.status.as_str()) {
        Some("ok") => Ok(()),
        Some(status) => {
            let detail = trace.header.as_ref().map_or("", |h| h.detail.as_str());
            Err(Unavailable(format!(
                "the run could not be traced ({status}): {detail}"
            )))
        }
        None => Err(Unavailable(
            "the program ran but left no trace (it never started CUDA, or CUPTI could not load)"
                .into(),
        )),
    }
}
