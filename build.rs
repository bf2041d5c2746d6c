//! Embeds every `lessons/*.md` and every `exercises/<id>/` folder into the binary, so an installed
//! `cuda-academy` works anywhere (the exercises in course order: the order the lessons' front
//! matter names them in, so that order is stated once, in the lessons); and records the git commit it was built from (`CUDA_ACADEMY_GIT_HASH`, empty outside git),
//! which `--version` and `info` print for bug reports; and builds the CUPTI injection library
//! (`crates/cuda-academy-inject`) that `cuda-academy trace` writes out and loads into a program;
//! and embeds the recorded traces `trace --open sample:NAME` opens (deflated).

use std::process::Command;
use std::{env, fs, path::Path};

fn main() {
    git_hash();
    injection_library();
    sample_traces();
    println!("cargo:rerun-if-changed=lessons");
    let mut files: Vec<String> = fs::read_dir("lessons")
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".md"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let root = env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let mut out = String::from(
        "/// (file name, contents) of every lesson in `lessons/`, sorted.\npub static EMBEDDED_LESSONS: &[(&str, &[u8])] = &[\n",
    );
    for name in &files {
        println!("cargo:rerun-if-changed=lessons/{name}");
        out.push_str(&format!(
            "    ({name:?}, include_bytes!({:?})),\n",
            format!("{root}/lessons/{name}")
        ));
    }
    out.push_str("];\n");
    let dest =
        Path::new(&env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("embedded_lessons.rs");
    if let Err(err) = fs::write(&dest, out) {
        println!("cargo:warning=could not write {}: {err}", dest.display());
    }
    exercises(&root, &files);
}

/// `embedded_exercises.rs`: (id, exercise.toml, starter.cu, solution.cu) of every folder under
/// `exercises/` holding an `exercise.toml`, those the lessons name first, in the order they name
/// them (lesson files sorted by name), then any other folder by name (the catalog loads it, and
/// the tests and `check` say that no lesson names it). No code line per exercise.
fn exercises(root: &str, lessons: &[String]) {
    println!("cargo:rerun-if-changed=exercises");
    let mut folders: Vec<String> = fs::read_dir("exercises")
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter(|e| e.path().join("exercise.toml").is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    folders.sort();
    let mut order: Vec<String> = Vec::new();
    for name in lessons {
        let text = fs::read_to_string(format!("lessons/{name}")).unwrap_or_default();
        for id in named_exercises(&text) {
            if folders.contains(&id) && !order.contains(&id) {
                order.push(id);
            }
        }
    }
    for id in &folders {
        if !order.contains(id) {
            order.push(id.clone());
        }
    }
    let mut out = String::from(
        "/// (id, exercise.toml, starter.cu, solution.cu) of every exercise folder, in course order.\npub static EMBEDDED_EXERCISES: &[(&str, &str, &str, &str)] = &[\n",
    );
    for id in &order {
        let file = |name: &str| {
            println!("cargo:rerun-if-changed=exercises/{id}/{name}");
            format!(
                "include_str!({:?})",
                format!("{root}/exercises/{id}/{name}")
            )
        };
        out.push_str(&format!(
            "    ({id:?}, {}, {}, {}),\n",
            file("exercise.toml"),
            file("starter.cu"),
            file("solution.cu")
        ));
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").unwrap_or_else(|_| ".".into()))
        .join("embedded_exercises.rs");
    if let Err(err) = fs::write(&dest, out) {
        println!("cargo:warning=could not write {}: {err}", dest.display());
    }
}

/// The ids in a lesson's front matter `exercises = ["a", "b"]` (one array of strings, on one line
/// or several): read here without a TOML parser; the lesson validator parses the same key with
/// one, and `tests/it/exercise/catalog.rs` holds the two to the same order.
fn named_exercises(lesson: &str) -> Vec<String> {
    let front = lesson
        .strip_prefix("+++")
        .and_then(|rest| rest.split("\n+++").next())
        .unwrap_or("");
    let Some(start) = front
        .lines()
        .position(|l| l.trim_start().starts_with("exercises") && l.contains('='))
    else {
        return Vec::new();
    };
    let mut array = String::new();
    for line in front.lines().skip(start) {
        array.push_str(line.split('#').next().unwrap_or(""));
        if line.contains(']') {
            break;
        }
    }
    array
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// `abc1234` (or `abc1234-dirty` with uncommitted changes) when built from a git checkout, else
/// empty. Reruns when HEAD or the branch it points to moves; paths come from git itself, so
/// worktrees work too.
fn git_hash() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_string())
    };
    let hash = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_default();
    if !hash.is_empty() {
        for name in ["HEAD", "index"] {
            if let Some(path) = git(&["rev-parse", "--git-path", name]) {
                println!("cargo:rerun-if-changed={path}");
            }
        }
        let branch = git(&["symbolic-ref", "-q", "HEAD"])
            .and_then(|head_ref| git(&["rev-parse", "--git-path", &head_ref]))
            .filter(|path| Path::new(path).exists());
        if let Some(path) = branch {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let dirty = !hash.is_empty()
        && git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=CUDA_ACADEMY_GIT_HASH={hash}{suffix}");
}

/// The injection library of `cuda-academy trace`, compiled here with a bare `rustc` into
/// `OUT_DIR/libcuda_academy_inject.so` and embedded by `src/attach/library.rs`, so that one
/// `cargo install` gives a `trace` that works. A bare `rustc` rather than a nested `cargo
/// build`: the library has no crate dependencies (its CUPTI declarations are its own), so there
/// is nothing to resolve or download, no second target folder, no lock on the one in use, and
/// it takes a few seconds. If it cannot be built (no `rustc` found, a packaged crate without the
/// folder), the binary embeds nothing and `trace` says so; the rest of the build goes on.
fn injection_library() {
    let src = "crates/cuda-academy-inject/src";
    println!("cargo:rerun-if-changed={src}");
    let out_dir = env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    let out = Path::new(&out_dir).join("libcuda_academy_inject.so");
    let linux = env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let built = linux && Path::new(src).join("lib.rs").is_file() && {
        let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        let mut cmd = Command::new(rustc);
        cmd.args([
            "--edition",
            "2024",
            "--crate-type",
            "cdylib",
            "--crate-name",
            "cuda_academy_inject",
        ])
        // lto=fat: 322 KB instead of 363 (std is most of it); opt-level 2, not "s", as the
        // callback runs on every recorded driver call.
        .args([
            "-C",
            "opt-level=2",
            "-C",
            "codegen-units=1",
            "-C",
            "lto=fat",
            "-C",
            "strip=symbols",
        ])
        // Panics unwind so that each `extern "C"` entry's catch_unwind can stop them:
        // with panic=abort one would end the traced program.
        .args(["-C", "panic=unwind", "--cap-lints", "warn"])
        .env("CARGO_PKG_VERSION", env!("CARGO_PKG_VERSION"))
        .arg("-o")
        .arg(&out)
        .arg(format!("{src}/lib.rs"));
        if let (Ok(target), Ok(host)) = (env::var("TARGET"), env::var("HOST"))
            && target != host
        {
            cmd.args(["--target", &target]);
        }
        match cmd.output() {
            Ok(o) if o.status.success() => true,
            Ok(o) => {
                for line in String::from_utf8_lossy(&o.stderr).lines().take(20) {
                    println!("cargo:warning=injection library: {line}");
                }
                false
            }
            Err(err) => {
                println!("cargo:warning=injection library: could not run rustc: {err}");
                false
            }
        }
    };
    // Stored deflated (332 KB -> 165 KB of the installed binary: issue 28's 12 MB); an empty
    // file when it could not be built: `trace` then says that this build has none.
    let packed = if built {
        match fs::read(&out) {
            Ok(bytes) => miniz_oxide::deflate::compress_to_vec(&bytes, 10),
            Err(err) => {
                println!("cargo:warning=injection library: cannot read it back: {err}");
                Vec::new()
            }
        }
    } else {
        Vec::new()
    };
    let dest = Path::new(&out_dir).join("libcuda_academy_inject.so.deflate");
    if let Err(err) = fs::write(&dest, packed) {
        println!("cargo:warning=could not write {}: {err}", dest.display());
    }
}

/// The folders whose `*.trace.jsonl` files `trace --open sample:NAME` opens in an installed
/// binary (NAME: the file name less `.trace.jsonl`): the public programs' traces first.
const SAMPLE_TRACE_DIRS: &[&str] = &[
    "tests/fixtures/trace-programs/public/h200",
    "tests/fixtures/trace-programs/h200",
];

/// A trace larger than this is left out (with a warning): the binary carries every sample.
const SAMPLE_TRACE_MAX_BYTES: usize = 4 << 20;

/// `embedded_traces.rs`: (name, folder, deflated bytes) of every sample trace, each stored
/// deflated in `OUT_DIR` (JSON lines deflate about tenfold).
fn sample_traces() {
    let out_dir = env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    let mut out = String::from(
        "/// (name, folder, deflated contents) of every sample trace, in folder then name order.\npub static EMBEDDED_TRACES: &[(&str, &str, &[u8])] = &[\n",
    );
    let mut seen = Vec::new();
    for dir in SAMPLE_TRACE_DIRS {
        println!("cargo:rerun-if-changed={dir}");
        let mut names: Vec<String> = fs::read_dir(dir)
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".trace.jsonl"))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        for file in names {
            let name = file.trim_end_matches(".trace.jsonl").to_string();
            let path = format!("{dir}/{file}");
            println!("cargo:rerun-if-changed={path}");
            let bytes = match fs::read(&path) {
                Ok(b) => b,
                Err(err) => {
                    println!("cargo:warning=sample trace {path}: {err}");
                    continue;
                }
            };
            if bytes.len() > SAMPLE_TRACE_MAX_BYTES || seen.contains(&name) {
                println!(
                    "cargo:warning=sample trace {path} left out: over {SAMPLE_TRACE_MAX_BYTES} bytes or a second {name}"
                );
                continue;
            }
            let packed = miniz_oxide::deflate::compress_to_vec(&bytes, 10);
            let dest = Path::new(&out_dir).join(format!("sample-{name}.trace.deflate"));
            if let Err(err) = fs::write(&dest, packed) {
                println!("cargo:warning=could not write {}: {err}", dest.display());
                continue;
            }
            out.push_str(&format!(
                "    ({name:?}, {dir:?}, include_bytes!({:?})),\n",
                dest.display().to_string()
            ));
            seen.push(name);
        }
    }
    out.push_str("];\n");
    let dest = Path::new(&out_dir).join("embedded_traces.rs");
    if let Err(err) = fs::write(&dest, out) {
        println!("cargo:warning=could not write {}: {err}", dest.display());
    }
}
