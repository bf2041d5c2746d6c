//! Tests of [`super`]: sizes shrink or are refused by what each backend really holds.

use super::*;

const ONE: Need = Need { device: 1, host: 1 };
const CUDA: BackendKind = BackendKind::Cuda;
const SIM: BackendKind = BackendKind::Simulated;

fn free(device: u64, host: Option<u64>, backend: BackendKind) -> Free {
    Free {
        device,
        host,
        backend,
    }
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

/// Review C3: the simulator keeps its device buffers in host memory, and a check that counted
/// only the host buffers let `pipeline --size 10G` through to an OOM kill.
#[test]
fn the_simulator_counts_its_device_buffers_in_host_memory() {
    let pipeline = Need { device: 1, host: 2 };
    assert_eq!(host_bytes_per_byte(SIM, pipeline), 3);
    assert_eq!(host_bytes_per_byte(CUDA, pipeline), 2);
    let host = Some(30 << 30);
    // 10 GiB x 2 = 20 GiB fits a 27 GiB budget on a real GPU, 10 GiB x 3 does not on the sim.
    assert!(fit_size(Some(10 << 30), 0, pipeline, free(1 << 40, host, CUDA)).is_ok());
    let err = fit_size(Some(10 << 30), 0, pipeline, free(1 << 40, host, SIM))
        .unwrap_err()
        .to_string();
    assert!(err.contains("30 GiB of host memory"), "{err}");
    // The message names a size that does fit, and it does.
    let fits = largest_fitting(pipeline, free(1 << 40, host, SIM));
    assert!(err.contains(&format!("--size {}", size_arg(fits))), "{err}");
    assert_eq!(size_arg(3 << 30), "3G");
    assert_eq!(size_arg(2457 << 20), "2457M");
    assert!(fit_size(Some(fits), 0, pipeline, free(1 << 40, host, SIM)).is_ok());
    assert!(
        fit_size(
            Some(fits + (1 << 20)),
            0,
            pipeline,
            free(1 << 40, host, SIM)
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
    assert_eq!(kib_field("VmSize:\t  2048 kB\n", "VmSize:"), Some(2 << 20));
}
