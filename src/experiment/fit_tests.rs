//! Tests of [`super`]: sizes shrink or are refused by what each backend really holds.

use super::*;

const ONE: Need = Need { device: 1, host: 1 };
/// A live GPU: its host buffers are real memory of this process.
const CUDA: bool = true;
/// The simulator: descriptions, no bytes.
const SIM: bool = false;

fn free(device: u64, host: Option<u64>, holds_host_bytes: bool) -> Free {
    Free {
        device,
        host,
        holds_host_bytes,
        simulated_host: None,
    }
}

/// The issue-10 case: `pipeline --size 64G` on the simulated H200 (126 GiB of host memory)
/// needs 128 GiB of host buffers. The simulator holds no bytes, so it runs, with a note naming
/// the figures a live run on the profiled machine would be refused for; a default still shrinks
/// to what the profiled host could hold, and the device limit still refuses.
#[test]
fn an_explicit_size_beyond_the_simulated_host_runs_with_a_note() {
    let h200_host = 135_148_564_480;
    let sim = Free {
        simulated_host: Some(h200_host),
        ..free(150 << 30, Some(4 << 30), SIM)
    };
    let pipeline = Need { device: 1, host: 2 };
    let (size, note) = fit_size(Some(64 << 30), 0, pipeline, sim).unwrap();
    assert_eq!(size, 64 << 30);
    let note = note.expect("a note says a live run would be refused");
    assert!(
        note.contains("128 GiB") && note.contains("125.9 GiB") && note.contains("refused"),
        "{note}"
    );
    // A size that fits the profiled host runs without a note, although this machine has only
    // 4 GiB free (the simulator holds no bytes).
    assert_eq!(
        fit_size(Some(56 << 30), 0, pipeline, sim).unwrap(),
        (56 << 30, None)
    );
    // A default too large for the profiled host shrinks instead.
    let (shrunk, why) = fit_size(None, 64 << 30, pipeline, sim).unwrap();
    assert_eq!(shrunk, 32 << 30);
    assert!(why.is_some_and(|w| w.contains("reduced")));
    // The simulated device's memory still refuses.
    let small_device = Free {
        device: 32 << 30,
        ..sim
    };
    let err = fit_size(Some(64 << 30), 0, pipeline, small_device).unwrap_err();
    assert!(err.to_string().contains("device"), "{err}");
}

#[test]
fn defaults_shrink_and_explicit_sizes_fail() {
    let (s, note) = fit_size(None, 256 << 20, ONE, free(100 << 20, None, CUDA)).unwrap();
    assert_eq!(s, 64 << 20);
    assert!(note.unwrap().contains("256 MiB"));
    let big = free(1 << 30, Some(1 << 40), CUDA);
    assert_eq!(fit_size(None, 1 << 20, ONE, big).unwrap(), (1 << 20, None));
    let two = Need { device: 2, host: 1 };
    let err = fit_size(Some(1 << 30), 0, two, big)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("1 GiB") && err.contains("2 GiB") && err.contains("device"),
        "{err}"
    );
}

#[test]
fn host_memory_counts_too() {
    let four = Need { device: 1, host: 4 };
    let f = free(1 << 40, Some(1 << 30), CUDA);
    let err = fit_size(Some(512 << 20), 0, four, f)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("host") && err.contains("2 GiB") && err.contains("1 GiB"),
        "{err}"
    );
    let (s, _) = fit_size(None, 1 << 30, four, f).unwrap();
    assert_eq!(s, 128 << 20);
}

/// Review C3: a run must be refused before it allocates more host memory than this process
/// may use. A live GPU's host buffers count; the simulator holds no bytes, so this machine's
/// memory does not limit it (its profiled host does, inside the simulator).
#[test]
fn host_buffers_count_where_a_backend_holds_them() {
    let pipeline = Need { device: 1, host: 2 };
    assert_eq!(host_bytes_per_byte(CUDA, pipeline), 2);
    assert_eq!(host_bytes_per_byte(SIM, pipeline), 0);
    let host = Some(30 << 30);
    // 20 GiB x 2 = 40 GiB does not fit a 27 GiB budget on a real GPU; the simulator holds none.
    assert!(fit_size(Some(20 << 30), 0, pipeline, free(1 << 40, host, SIM)).is_ok());
    let err = fit_size(Some(20 << 30), 0, pipeline, free(1 << 40, host, CUDA))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("40 GiB of host memory") && err.contains("30 GiB"),
        "{err}"
    );
    // The message names a size that does fit, and it does.
    let fits = largest_fitting(pipeline, free(1 << 40, host, CUDA));
    assert!(err.contains(&format!("--size {}", size_arg(fits))), "{err}");
    assert_eq!(size_arg(3 << 30), "3G");
    assert_eq!(size_arg(2457 << 20), "2457M");
    assert!(fit_size(Some(fits), 0, pipeline, free(1 << 40, host, CUDA)).is_ok());
    assert!(
        fit_size(
            Some(fits + (1 << 20)),
            0,
            pipeline,
            free(1 << 40, host, CUDA)
        )
        .is_err()
    );
}

#[test]
fn this_process_has_a_host_budget() {
    // /proc is there on Linux, where these tests run; elsewhere the check is skipped (None).
    if cfg!(target_os = "linux") {
        assert!(host_available().is_some_and(|b| b > 0));
    }
    assert_eq!(
        crate::meminfo::field("VmSize:\t  2048 kB\n", "VmSize:"),
        Some(2 << 20)
    );
}
