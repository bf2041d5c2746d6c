//! Review 2026-12-01b DR2, DR3, DR4 (issue 29): an old driver (no `cuEventElapsedTime_v2` before
//! CUDA 12.8), a partial one (an entry point used in clean-up missing) and a lying one (every
//! attribute -1, no memory) are each a message, never a panic or an abort, in `info`, `run` and
//! `exercise check`. The driver is `tests/fixtures/fake_libcuda.c`, which exports every entry
//! point the backend calls, built here with entry points left out (`-DOMIT_<name>`) or values
//! changed.

use std::path::Path;

use super::driver::{fake_driver_with, with_driver};
use super::{assert_no_crash, text};

const FAKE: &str = include_str!("../../fixtures/fake_libcuda.c");

/// A program that times nothing but two events, and prints what `cudaEventElapsedTime` said.
const TIMED: &str = "#include \"academy.cuh\"\nint main()\n{\n    cudaEvent_t a, b;\n    \
    cudaEventCreate(&a);\n    cudaEventCreate(&b);\n    cudaEventRecord(a, 0);\n    \
    cudaEventRecord(b, 0);\n    cudaEventSynchronize(b);\n    float ms = 0;\n    \
    cudaEventElapsedTime(&ms, a, b);\n    printf(\"elapsed %f\\n\", ms);\n    \
    cudaEventDestroy(a);\n    cudaEventDestroy(b);\n    return 0;\n}\n";

fn all(out: &std::process::Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

/// `exercise check time-a-copy` of [`TIMED`] on the GPU of the fake in `lib`.
fn check_timed(lib: &Path, backend: &str) -> std::process::Output {
    let prog = lib.join("t.cu");
    std::fs::write(&prog, TIMED).unwrap();
    let prog = prog.to_str().unwrap();
    with_driver(
        lib,
        &[
            "exercise",
            "check",
            "time-a-copy",
            prog,
            "--backend",
            backend,
        ],
        &[],
    )
}

/// DR3: before 12.8 the driver has only the plain `cuEventElapsedTime`, and the learner's
/// `cudaEventElapsedTime` uses it (the fake answers 1.5 ms there, 2.5 ms under `_v2`).
#[test]
fn an_old_driver_times_events_with_the_plain_call() {
    let Some(dir) = fake_driver_with(FAKE, &["-DOMIT_cuEventElapsedTime_v2"]) else {
        return;
    };
    let out = check_timed(dir.path(), "gpu");
    assert_no_crash(&out);
    assert!(all(&out).contains("elapsed 1.500000"), "{}", all(&out));
    assert!(all(&out).contains("Live"), "{}", all(&out));
    // A newer driver has both, and `_v2` (what the CUDA 13 headers call) is used.
    let Some(dir) = fake_driver_with(FAKE, &[]) else {
        return;
    };
    let out = check_timed(dir.path(), "gpu");
    assert_no_crash(&out);
    assert!(all(&out).contains("elapsed 2.500000"), "{}", all(&out));
}

/// A driver with neither name is refused when the GPU opens, naming both; `auto` checks on the
/// simulator and says why.
#[test]
fn a_driver_without_either_elapsed_call_is_refused_by_name() {
    let omit = ["-DOMIT_cuEventElapsedTime_v2", "-DOMIT_cuEventElapsedTime"];
    let Some(dir) = fake_driver_with(FAKE, &omit) else {
        return;
    };
    let out = check_timed(dir.path(), "gpu");
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(1), "{}", all(&out));
    let said = all(&out);
    assert!(
        said.contains("cuEventElapsedTime_v2 (or cuEventElapsedTime)"),
        "{said}"
    );
    let out = check_timed(dir.path(), "auto");
    assert_no_crash(&out);
    let said = all(&out);
    assert!(said.contains("Simulated"), "{said}");
    assert!(said.contains("checking on the simulator"), "{said}");
    assert!(said.contains("update the NVIDIA driver"), "{said}");
}

/// DR4: a driver lacking a call that clean-up makes (`cuCtxSynchronize`, the primary context's
/// release, a free): `info` says which and what to do, `run` falls back (auto) or fails
/// (`--backend gpu`) with the name, and nothing panics or aborts.
#[test]
fn a_driver_lacking_a_clean_up_call_is_refused_by_name() {
    for missing in [
        "cuCtxSynchronize",
        "cuDevicePrimaryCtxRelease_v2",
        "cuStreamDestroy_v2",
        "cuMemFreeHost",
    ] {
        let define = format!("-DOMIT_{missing}");
        let Some(dir) = fake_driver_with(FAKE, &[define.as_str()]) else {
            return;
        };
        let named = format!("lacks the entry point `{missing}`");
        let out = with_driver(dir.path(), &["info"], &[]);
        assert_no_crash(&out);
        assert_eq!(out.status.code(), Some(0), "{}", all(&out));
        assert!(text(&out.stdout).contains(&named), "{}", all(&out));
        assert!(text(&out.stdout).contains("update the NVIDIA driver"));
        let run = ["run", "pinned-alloc", "--size", "1M"];
        let out = with_driver(dir.path(), &run, &[]);
        assert_no_crash(&out);
        assert_eq!(out.status.code(), Some(0), "{}", all(&out));
        assert!(text(&out.stdout).contains(&named), "{}", all(&out));
        let out = with_driver(dir.path(), &[&run[..], &["--backend", "gpu"]].concat(), &[]);
        assert_no_crash(&out);
        assert_eq!(out.status.code(), Some(1), "{}", all(&out));
        assert!(text(&out.stderr).contains(&named), "{}", all(&out));
        let out = check_timed(dir.path(), "auto");
        assert_no_crash(&out);
        assert!(all(&out).contains(&named), "{}", all(&out));
    }
}

/// DR2: a device that reports -1 for every attribute and no memory is not called working, and
/// `auto` runs the simulator; so are a negative driver version and more memory free than there
/// is.
#[test]
fn absurd_device_values_are_refused() {
    for (defines, said) in [
        (
            &["-DATTR=-1", "-DTOTAL=0"][..],
            "compute capability major version of -1",
        ),
        (&["-DATTR=0"][..], "compute capability major version of 0"),
        (&["-DTOTAL=0"][..], "a total memory of 0 bytes"),
        (&["-DVERSION=-5"][..], "the CUDA version -5"),
        (
            &["-DTOTAL=((size_t)1<<30)", "-DFREE=((size_t)70<<30)"][..],
            "bytes free of 1073741824",
        ),
    ] {
        let Some(dir) = fake_driver_with(FAKE, defines) else {
            return;
        };
        let out = with_driver(dir.path(), &["info"], &[]);
        assert_no_crash(&out);
        let shown = text(&out.stdout);
        assert!(!shown.contains("works"), "{defines:?}: {shown}");
        assert!(shown.contains("Simulated"), "{defines:?}: {shown}");
        assert!(shown.contains(said), "{defines:?}: {shown}");
        assert!(shown.contains("no working device has"), "{shown}");
    }
}
