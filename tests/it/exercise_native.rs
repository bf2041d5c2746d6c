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
    assert!(text(&out.stderr).contains("academy.cuh"), "{}", text(&out.stderr));
    let out = run(dir.path(), &["exercise", "header", "--out", "inc.cuh"]);
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(dir.path().join("inc.cuh")).unwrap(), want);
    let out = run(dir.path(), &["exercise", "header", "--out", "no/such/dir/a.cuh"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot write"), "{}", text(&out.stderr));
}
