//! Review C6, minor 11 and 12: a fake `libcuda.so` built here with `cc` (missing symbols, the
//! toolkit's stub that answers 34 to everything, a `cuInit` that never returns) must not crash,
//! print a backtrace or hang `info` or `run`. Skipped, saying so, where there is no C compiler.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{assert_no_crash, bin, text};

/// Only `cuInit`: the first other call cudarc makes hits a missing symbol.
const MISSING: &str = "int cuInit(unsigned f) { return 0; }\n";
/// The stub: every call fails with CUDA_ERROR_STUB_LIBRARY.
const STUB: &str = "int cuInit(unsigned f) { return 34; }\n\
    int cuDriverGetVersion(int *v) { return 34; }\n\
    int cuGetErrorName(int e, const char **s) { return 34; }\n\
    int cuGetErrorString(int e, const char **s) { return 34; }\n\
    int cuDeviceGetCount(int *c) { return 34; }\n";
/// A driver whose `cuInit` never returns; it first appends the pid of the process that called it
/// to `$FAKE_CUINIT_LOG`, so a test can tell which process entered it.
const HANG: &str = "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n\
    int cuInit(unsigned f) {\n\
      const char *log = getenv(\"FAKE_CUINIT_LOG\");\n\
      if (log) { FILE *o = fopen(log, \"a\"); if (o) { fprintf(o, \"%d\\n\", getpid()); fclose(o); } }\n\
      for (;;) pause(); return 0; }\n\
    int cuDriverGetVersion(int *v) { *v = 12000; return 0; }\n";
/// A driver that crashes (SIGSEGV) inside `cuInit`.
const CRASH: &str = "int cuInit(unsigned f) { volatile int *p = 0; return *p; }\n\
    int cuDriverGetVersion(int *v) { *v = 12000; return 0; }\n";

/// A folder holding `libcuda.so` and `libcuda.so.1` built from `source`. With no C compiler the
/// test is skipped (`None`, with the reason printed) on a developer's machine, but fails where
/// the `CI` variable is set: CI must run what these tests check, never pass them silently.
fn fake_driver(source: &str) -> Option<tempfile::TempDir> {
    fake_driver_with(source, &[])
}

/// As [`fake_driver`], compiled with `defines` (`-DOMIT_cuCtxSynchronize`, ...).
pub(super) fn fake_driver_with(source: &str, defines: &[&str]) -> Option<tempfile::TempDir> {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("fake.c");
    std::fs::write(&c, source).unwrap();
    let lib = dir.path().join("libcuda.so");
    let built = Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(&c)
        .args(defines)
        .status();
    match built {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("cc failed to build the fake driver: {s}"),
        Err(e) if std::env::var_os("CI").is_some() => {
            panic!("no C compiler (cc: {e}), and CI is set: install cc so this test runs")
        }
        Err(e) => {
            eprintln!("SKIPPED: no C compiler (cc: {e}); set CI to make this a failure");
            return None;
        }
    }
    std::fs::copy(&lib, dir.path().join("libcuda.so.1")).unwrap();
    Some(dir)
}

/// Run the binary against the fake driver in `lib_dir`; killed (and the test failed) if it is
/// still running after a generous limit, so a hang is a failure, not a stuck test run.
pub(super) fn with_driver(lib_dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let state = tempfile::tempdir().unwrap();
    let mut cmd = bin(state.path());
    cmd.args(args)
        .env("LD_LIBRARY_PATH", lib_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!(
                "`{}` hung with the fake driver in {}",
                args.join(" "),
                lib_dir.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn lib(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().to_path_buf()
}

const RUN_AUTO: [&str; 4] = ["run", "pinned-alloc", "--size", "1M"];
const RUN_GPU: [&str; 6] = ["run", "pinned-alloc", "--size", "1M", "--backend", "gpu"];

#[test]
fn a_driver_missing_symbols_is_a_message_not_a_panic() {
    let Some(dir) = fake_driver(MISSING) else {
        return;
    };
    let out = with_driver(&lib(&dir), &["info"], &[]);
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0));
    let shown = text(&out.stdout);
    // Refused by name before any call is made (issue 29), not by cudarc's panic.
    assert!(
        shown.contains("lacks the entry points `cuDriverGetVersion`"),
        "{shown}"
    );
    assert!(shown.contains("update the NVIDIA driver"), "{shown}");
    assert!(shown.contains("Simulated"), "{shown}");
    let out = with_driver(&lib(&dir), &RUN_AUTO, &[]);
    assert_no_crash(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "auto falls back: {}",
        text(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "quiet fallback: {}",
        text(&out.stderr)
    );
    let out = with_driver(&lib(&dir), &RUN_GPU, &[]);
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("lacks the entry points"));
}

#[test]
fn the_stub_library_is_named_with_its_fix() {
    let Some(dir) = fake_driver(STUB) else { return };
    for args in [&["info"][..], &RUN_GPU[..]] {
        let out = with_driver(&lib(&dir), args, &[]);
        assert_no_crash(&out);
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(all.contains("CUDA_ERROR_STUB_LIBRARY"), "{all}");
        assert!(all.contains("LD_LIBRARY_PATH"), "{all}");
        assert!(!all.contains("CUresult 34"), "{all}");
    }
}

#[test]
fn a_hanging_cuinit_times_out_with_a_message() {
    let Some(dir) = fake_driver(HANG) else { return };
    let limit = [("CUDA_ACADEMY_CUINIT_TIMEOUT_S", "1")];
    let out = with_driver(&lib(&dir), &["info"], &limit);
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0));
    let shown = text(&out.stdout);
    assert!(shown.contains("did not answer within 1 s"), "{shown}");
    let out = with_driver(&lib(&dir), &RUN_AUTO, &limit);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = with_driver(&lib(&dir), &RUN_GPU, &limit);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("did not answer"));
}

/// The hung `cuInit` runs only in the probe child, never in the process that goes on (so no
/// thread of it is stuck in the driver, holding whatever the driver locks), and the child is
/// gone once the command has answered.
#[test]
fn a_hanging_cuinit_is_only_ever_entered_by_the_probe_child() {
    let Some(dir) = fake_driver(HANG) else { return };
    let log = dir.path().join("entered");
    let log_s = log.to_str().unwrap();
    let env = [
        ("CUDA_ACADEMY_CUINIT_TIMEOUT_S", "1"),
        ("FAKE_CUINIT_LOG", log_s),
    ];
    let state = tempfile::tempdir().unwrap();
    let mut cmd = bin(state.path());
    cmd.args(["info"]).env("LD_LIBRARY_PATH", dir.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd.stdout(Stdio::piped()).spawn().unwrap();
    let main_pid = child.id();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("did not answer within 1 s"));
    let entered = std::fs::read_to_string(&log).unwrap();
    let pids: Vec<u32> = entered.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(
        pids.len(),
        1,
        "cuInit entered once, by the probe: {entered}"
    );
    assert_ne!(
        pids[0], main_pid,
        "the command itself called the hung cuInit"
    );
    assert!(
        !alive(pids[0]),
        "the probe {} outlived the command",
        pids[0]
    );
}

/// A process that still runs (a zombie waiting to be reaped does not).
fn alive(pid: u32) -> bool {
    for _ in 0..100 {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat)
                if !stat
                    .rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z') => {}
            _ => return false,
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// A driver that crashes in `cuInit` takes down only the probe: `info` and `run` say so and
/// carry on (before the probe, `info` died of SIGSEGV, and the TUI with its terminal raw).
#[test]
fn a_driver_crashing_in_cuinit_is_a_message_not_a_crash() {
    let Some(dir) = fake_driver(CRASH) else {
        return;
    };
    let out = with_driver(&lib(&dir), &["info"], &[]);
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("crashed while initialising"),
        "{}",
        text(&out.stdout)
    );
    let out = with_driver(&lib(&dir), &RUN_AUTO, &[]);
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = with_driver(&lib(&dir), &RUN_GPU, &[]);
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("crashed while initialising"));
}

/// `CUDA_ACADEMY_HIDE_DRIVER` hides even a library that loads: the no-driver tests rely on it.
#[test]
fn hiding_the_driver_works_when_one_loads() {
    let Some(dir) = fake_driver(MISSING) else {
        return;
    };
    let out = with_driver(&lib(&dir), &["info"], &[("CUDA_ACADEMY_HIDE_DRIVER", "1")]);
    let shown = text(&out.stdout);
    assert!(shown.contains("no CUDA driver found"), "{shown}");
    assert!(!shown.contains("Missing symbol"), "{shown}");
}
