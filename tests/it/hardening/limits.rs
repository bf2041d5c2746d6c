//! Review C3: a run never grows into an out-of-memory kill. The simulator holds no bytes, so an
//! address-space limit (`ulimit -v`, as `prlimit --as` sets) does not stop it; sizes its profiled
//! host could not hold are refused with a message. (A live GPU's host buffers are checked
//! against free memory before allocating: `experiment::fit` tests.)

use std::process::Output;

use super::{assert_no_crash, text};

/// `cuda-academy ARGS` under `ulimit -v KIB` (through `sh`, which sets it for the child).
fn limited(kib: u64, args: &[&str]) -> Output {
    let state = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_cuda-academy");
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .env("CUDA_ACADEMY_STATE_DIR", state.path())
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap()
}

/// A 1 GiB address space: the simulator holds descriptions, not bytes, so an 8 GiB pipeline
/// runs (and verifies) in a few megabytes instead of being aborted or killed.
#[test]
fn an_address_space_limit_does_not_stop_the_simulator() {
    let out = limited(
        1 << 20,
        &["run", "pipeline", "--backend", "sim", "--size", "8G"],
    );
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("floats match"),
        "{}",
        text(&out.stdout)
    );
}

/// A size the simulated host (the profiled machine) could not hold runs on the simulator, which
/// holds no bytes (issue 10 §1), with a note that a live run there would be refused; under a
/// 1 GiB address space too.
#[test]
fn a_size_beyond_the_profiled_host_runs_with_a_note() {
    let out = limited(
        1 << 20,
        &["run", "pipeline", "--backend", "sim", "--size", "64G"],
    );
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("floats match") && stdout.contains("would be refused for host memory"),
        "{stdout}"
    );
}

/// Review 2026-12-01b CK1: the arrays in scope count against one budget (1 Mi elements, 40 MiB of
/// interpreter values), named in the stop, so 65,536 `int a[4096]` stop at the 257th array
/// instead of taking 10 GB; arrays that go out of scope give their elements back.
#[test]
fn declared_arrays_are_bounded_in_all_and_given_back_when_out_of_scope() {
    let decls: String = (0..300).map(|i| format!("    int a{i}[4096];\n")).collect();
    let out = crate::exercise::run(&format!("int main()\n{{\n{decls}    return 0;\n}}\n"));
    let err = out.error.map(|e| e.message).unwrap_or_default();
    assert!(
        err.contains("too many array elements at once") && err.contains("1048576"),
        "{err}"
    );
    assert!(
        err.contains("hold 1048576 elements, and this one 4096 more"),
        "256 arrays held: {err}"
    );
    // 1,000 calls and 1,000 loop passes each declare 4,096 elements: 4 Mi in all, never
    // more than one array at once.
    let out = crate::exercise::run(
        "int f(int k)\n{\n    int a[4096];\n    a[0] = k;\n    return a[0];\n}\n\
         int main()\n{\n    int s = 0;\n    for (int i = 0; i < 1000; i++) {\n        int b[4096];\n        b[1] = i;\n        s = s + f(b[1]);\n    }\n    printf(\"%d\\n\", s);\n    return 0;\n}\n",
    );
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output.trim(), "499500");
}
