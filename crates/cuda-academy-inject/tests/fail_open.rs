//! Failing open, without a GPU: with no libcupti to load, `InitializeInjection` still returns
//! (1, as CUDA expects), prints nothing, and the trace file's one line says why nothing is
//! traced. Its own test binary: the entry point sets the process's panic hook and reads the
//! environment, which no other test should share.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// set_var is unsafe in edition 2024 (other threads may read the environment).
#![allow(unsafe_code)]

use cuda_academy_inject::{FORMAT_VERSION, InitializeInjection, TRACE_FILE_ENV};

#[test]
fn without_libcupti_the_header_says_why_and_the_program_goes_on() {
    let dir = std::env::temp_dir().join(format!("cuda-academy-inject-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("trace.jsonl");
    let missing = dir.join("no-such-libcupti.so");
    // SAFETY: this binary's only test, before any thread of its own reads the environment.
    unsafe {
        std::env::set_var(TRACE_FILE_ENV, &file);
        std::env::set_var("CUDA_ACADEMY_CUPTI_LIB", &missing);
    }
    assert_eq!(InitializeInjection(), 1);
    assert_eq!(
        InitializeInjection(),
        1,
        "a second call does nothing and still returns 1"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    let header = lines[0];
    assert!(
        header.starts_with(&format!(
            "{{\"t\":\"header\",\"format_version\":{FORMAT_VERSION},"
        )),
        "{header}"
    );
    assert!(header.contains("\"status\":\"no_cupti\""), "{header}");
    assert!(
        header.contains("no-such-libcupti.so"),
        "the detail names what was tried: {header}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
