//! Checks through the simulator: pass and fail details, and the spin kernel refused.

use super::*;
use crate::gpu::profile::Profile;
use crate::gpu::sim::SimGpu;
use crate::gpu::{Driver, HostAccess, StreamId, fill_pattern_f32};
use crate::report::HostMemKind;

#[test]
fn checks_say_all_floats_match_or_name_the_first_bad_one() {
    let Ok(profile) = Profile::builtin("h200") else {
        panic!("the built-in profile loads");
    };
    let mut gpu = SimGpu::new(profile, "test".into());
    let bytes = 1 << 20;
    let src = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dst = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dev = gpu.device_alloc(bytes).unwrap();
    gpu.host_fill(src, 1).unwrap();
    let s = StreamId::LEGACY_DEFAULT;
    gpu.copy_h2d_async(s, dev, 0, src, 0, bytes).unwrap();
    gpu.launch(s, Kernel::TRANSFORM, dev, 0, bytes).unwrap();
    gpu.copy_d2h_async(s, dst, 0, dev, 0, bytes - 4096).unwrap();
    gpu.stream_sync(s).unwrap();
    let ok = transform_matches(&mut gpu, "t", (src, dst), bytes - 4096, Kernel::TRANSFORM);
    let ok = ok.unwrap();
    assert!(ok.passed, "{}", ok.detail);
    assert_eq!(
        ok.detail,
        format!("all {} floats match", (bytes - 4096) / 4)
    );
    let bad = transform_matches(&mut gpu, "t", (src, dst), bytes, Kernel::TRANSFORM).unwrap();
    assert!(!bad.passed);
    let i = (bytes - 4096) / 4;
    let want = Kernel::transform_host(fill_pattern_f32(1, i), 2.0, 1.0);
    assert!(
        bad.detail.starts_with(&format!(
            "float {i} of {}: expected {want}, got 0 (",
            bytes / 4
        )),
        "{}",
        bad.detail
    );
    assert!(bad.detail.contains("never written"), "{}", bad.detail);
    let copy = copy_matches(&mut gpu, "c", src, dst, bytes).unwrap();
    assert!(
        !copy.passed && copy.detail.starts_with("float 0 of"),
        "{}",
        copy.detail
    );
    let spin = Kernel::Spin { iterations: 1 };
    assert!(transform_matches(&mut gpu, "s", (src, dst), bytes, spin).is_err());
}
