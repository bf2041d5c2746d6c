//! `exercise header` and `exercise check --native` without a GPU (issue 25): the header the
//! binary carries is the source tree's, byte for byte; `--native` without nvcc says what is
//! missing and that the interpreter check still works; argument errors are usage errors.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output};

const HEADER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/exercises/academy.cuh");

fn academy(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cuda-academy"));
    cmd.current_dir(dir)
        .args(args)
        .env("CUDA_ACADEMY_CACHE_DIR", dir.join("cache"))
        .env("CUDA_ACADEMY_STATE_DIR", dir.join("state"))
        .env("NO_COLOR", "1");
    cmd
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    academy(dir, args).output().unwrap()
}

#[test]
fn header_prints_the_source_trees_academy_cuh() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["exercise", "header"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), std::fs::read_to_string(HEADER).unwrap());
}

#[test]
fn header_out_writes_into_a_folder_or_to_a_file_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let want = std::fs::read_to_string(HEADER).unwrap();
    let out = run(dir.path(), &["exercise", "header", "--out", "."]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("academy.cuh")).unwrap(),
        want
    );
    assert!(
        text(&out.stderr).contains("academy.cuh"),
        "{}",
        text(&out.stderr)
    );
    let out = run(dir.path(), &["exercise", "header", "--out", "inc.cuh"]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("inc.cuh")).unwrap(),
        want
    );
    let out = run(
        dir.path(),
        &["exercise", "header", "--out", "no/such/dir/a.cuh"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot write"),
        "{}",
        text(&out.stderr)
    );
}

const STARTER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/exercises/fix-the-race/starter.cu"
);

/// `exercise check --native` with PATH, CUDA_HOME and CUDA_PATH holding no nvcc.
fn native_without_nvcc(dir: &Path, args: &[&str]) -> Output {
    let mut cmd = academy(dir, &["exercise", "check", "--native"]);
    cmd.args(args)
        .env("PATH", dir.join("empty-bin"))
        .env_remove("CUDA_HOME")
        .env_remove("CUDA_PATH");
    cmd.output().unwrap()
}

#[test]
fn native_without_nvcc_says_what_is_missing_and_that_the_interpreter_check_works() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty-bin")).unwrap();
    let out = native_without_nvcc(dir.path(), &["fix-the-race", STARTER]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("nvcc was not found"), "{err}");
    assert!(err.contains("without --native"), "{err}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
}

#[test]
fn native_with_an_nvcc_in_cuda_home_that_is_no_nvcc_is_not_a_pass() {
    // A CUDA_HOME whose bin/nvcc fails: on a machine without a driver the driver is what is
    // missing (3); with one, the file does not compile (1). Never 0.
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("cuda/bin");
    std::fs::create_dir_all(&bin).unwrap();
    let nvcc = bin.join("nvcc");
    std::fs::write(
        &nvcc,
        "#!/bin/sh\necho 'x.cu(1): error: not really nvcc' >&2\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&nvcc, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = academy(
        dir.path(),
        &["exercise", "check", "--native", "fix-the-race", STARTER],
    );
    let out = cmd
        .env("PATH", dir.path().join("empty-bin"))
        .env("CUDA_HOME", dir.path().join("cuda"))
        .env_remove("CUDA_PATH")
        .output()
        .unwrap();
    let code = out.status.code();
    assert!(
        code == Some(3) || code == Some(1),
        "{code:?} {}",
        text(&out.stderr)
    );
    if code == Some(3) {
        assert!(
            text(&out.stderr).contains("no CUDA driver"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn native_argument_errors_are_usage_errors_before_any_tool_is_looked_for() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty-bin")).unwrap();
    let out = native_without_nvcc(dir.path(), &["no-such-exercise", STARTER]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("unknown exercise"),
        "{}",
        text(&out.stderr)
    );
    let out = native_without_nvcc(dir.path(), &["fix-the-race", "missing.cu"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("missing.cu"),
        "{}",
        text(&out.stderr)
    );
    let out = native_without_nvcc(dir.path(), &["fix-the-race"]);
    assert_eq!(out.status.code(), Some(2), "clap: FILE is required");
}

/// On the GPU machine (nvcc and a GPU): each starter fails natively and each solution passes.
#[cfg(feature = "gpu-tests")]
#[test]
fn native_check_fails_starters_and_passes_solutions_on_the_gpu() {
    for id in ["fix-the-race", "two-streams", "pin-once"] {
        for (kind, want) in [("starter", 1), ("solution", 0)] {
            let dir = tempfile::tempdir().unwrap();
            let file = format!("{}/exercises/{id}/{kind}.cu", env!("CARGO_MANIFEST_DIR"));
            let out = academy(
                dir.path(),
                &["exercise", "check", "--native", "--json", id, &file],
            )
            .output()
            .unwrap();
            let json: serde_json::Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{id} {kind}: {e}: {}", text(&out.stderr)));
            assert_eq!(
                out.status.code(),
                Some(want),
                "{id} {kind}: {json:#}\n{}",
                text(&out.stderr)
            );
            assert_eq!(json["native"], true);
            assert!(
                json["checks"].as_array().is_some_and(|c| c.len() > 1),
                "{json:#}"
            );
        }
    }
}
