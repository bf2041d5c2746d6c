//! Bytes: the fill pattern, stale ranges, pending transforms and range checks.

use super::{Bytes, MAX_MAPS};
use crate::gpu::{FILL_PATTERN_PERIOD, Kernel, fill_pattern_f32};

#[test]
fn fill_matches_the_pattern_across_periods() {
    let words = FILL_PATTERN_PERIOD * 2 + 1001;
    let mut b = Bytes::new(words * 4 + 3);
    b.fill(5).unwrap();
    let p = FILL_PATTERN_PERIOD;
    for i in [
        0,
        1,
        65_520,
        65_521,
        p - 1,
        p,
        p + 7,
        2 * p + 1000,
        words - 1,
    ] {
        assert_eq!(b.read_f32(i).unwrap(), fill_pattern_f32(5, i), "f32 {i}");
    }
    assert_ne!(
        fill_pattern_f32(5, 7),
        fill_pattern_f32(6, 7),
        "the seed must matter"
    );
    assert!(b.read_f32(words).is_err(), "the 3-byte tail is not an f32");
}

#[test]
fn stale_bytes_follow_copies() {
    let mut src = Bytes::new(64);
    src.fill(1).unwrap();
    src.mark_stale(8, 8);
    let mut dst = Bytes::new(64);
    dst.copy_from(32, &src, 0, 32).unwrap();
    assert!(
        dst.read_f32(8).is_ok(),
        "byte 32.. came from valid bytes 0.."
    );
    assert!(
        dst.read_f32(10).is_err(),
        "bytes 40..48 came from stale bytes 8..16"
    );
    assert_eq!(dst.read_f32(12).unwrap(), fill_pattern_f32(1, 4));
    dst.fill(2).unwrap();
    assert!(dst.read_f32(10).is_ok(), "a fill writes real data");
}

fn expect(seed: u32, i: u64, maps: &[(f32, f32)]) -> f32 {
    maps.iter().fold(fill_pattern_f32(seed, i), |x, &(a, b)| {
        Kernel::transform_host(x, a, b)
    })
}

#[test]
fn transforms_apply_in_order_and_travel_with_copies() {
    let mut dev = Bytes::new(64);
    let mut host = Bytes::new(64);
    host.fill(3).unwrap();
    dev.copy_from(0, &host, 0, 64).unwrap();
    dev.transform(0, 32, 2.0, 1.0).unwrap();
    dev.transform(16, 32, 0.5, -4.0).unwrap();
    host.copy_from(0, &dev, 0, 64).unwrap();
    assert_eq!(host.read_f32(0).unwrap(), expect(3, 0, &[(2.0, 1.0)]));
    assert_eq!(
        host.read_f32(5).unwrap(),
        expect(3, 5, &[(2.0, 1.0), (0.5, -4.0)])
    );
    assert_eq!(host.read_f32(9).unwrap(), expect(3, 9, &[(0.5, -4.0)]));
    assert_eq!(host.read_f32(15).unwrap(), fill_pattern_f32(3, 15));
    // Overwriting part of a transformed range drops the map there only.
    let mut fresh = Bytes::new(64);
    fresh.fill(3).unwrap();
    host.copy_from(0, &fresh, 0, 8).unwrap();
    assert_eq!(host.read_f32(1).unwrap(), fill_pattern_f32(3, 1));
    assert_eq!(host.read_f32(2).unwrap(), expect(3, 2, &[(2.0, 1.0)]));
}

#[test]
fn a_misaligned_copy_carries_transformed_values() {
    let mut dev = Bytes::new(64);
    dev.fill(9).unwrap();
    dev.transform(0, 64, 2.0, 0.5).unwrap();
    let mut host = Bytes::new(66);
    host.copy_from(2, &dev, 0, 64).unwrap();
    let mut back = Bytes::new(64);
    back.copy_from(0, &host, 2, 64).unwrap();
    for i in 0..16 {
        assert_eq!(
            back.read_f32(i).unwrap(),
            expect(9, i, &[(2.0, 0.5)]),
            "f32 {i}"
        );
    }
}

#[test]
fn many_transforms_are_applied_eagerly_with_the_same_result() {
    let mut b = Bytes::new(4 * 1024);
    b.fill(4).unwrap();
    for k in 0..(MAX_MAPS as u64 + 10) {
        b.transform((k % 1024) * 4, 4, 1.0, 0.25).unwrap();
    }
    assert!(b.maps.len() <= MAX_MAPS);
    assert_eq!(b.read_f32(0).unwrap(), expect(4, 0, &[(1.0, 0.25)]));
    assert_eq!(b.read_f32(5).unwrap(), expect(4, 5, &[(1.0, 0.25)]));
    assert_eq!(b.read_f32(1000).unwrap(), fill_pattern_f32(4, 1000));
}

#[test]
fn ranges_are_checked() {
    let b = Bytes::new(16);
    assert!(b.check_range("x", 8, 8).is_ok());
    assert!(b.check_range("x", 9, 8).is_err());
    assert!(b.check_range("x", u64::MAX, 2).is_err());
}

#[test]
fn debug_output_leaves_the_data_out() {
    let mut b = Bytes::new(1 << 20);
    b.fill(1).unwrap();
    let text = format!("{b:?}");
    assert!(text.len() < 200, "{text}");
    assert!(text.contains("1048576"), "{text}");
}
