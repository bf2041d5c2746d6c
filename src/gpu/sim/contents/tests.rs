//! Descriptions instead of bytes: values computed on demand equal what real bytes would hold,
//! neighbouring pieces merge, and comparisons catch each way a chunked copy goes wrong.

use super::*;
use crate::gpu::{Kernel, fill_pattern_f32};

const N: u64 = 1 << 20; // bytes

fn filled(seed: u32) -> Contents {
    let mut c = Contents::new(N);
    c.fill(seed);
    c
}

fn t(x: f32) -> f32 {
    Kernel::transform_host(x, 2.0, 1.0)
}

#[test]
fn fresh_buffers_read_zero_and_fills_compute_the_pattern() {
    let mut c = Contents::new(10);
    assert_eq!(c.read_f32(1).unwrap(), 0.0);
    c.fill(5);
    assert_eq!(c.read_f32(1).unwrap(), fill_pattern_f32(5, 1));
    assert!(
        c.read_f32(2).is_err(),
        "float 2 needs bytes 8..12 of a 10-byte buffer"
    );
    assert_eq!(
        c.slice(8, 10)[0].2.base,
        Base::Unwritten,
        "the tail is zero"
    );
}

#[test]
fn chunked_copies_and_kernels_merge_back_into_one_piece() {
    let src = filled(41);
    let (mut dev, mut dst) = (Contents::new(N), filled(43));
    let chunk = N / 32;
    for c in (0..32).rev() {
        let off = c * chunk;
        dev.copy_from(off, &src, off, chunk);
        dev.transform(off, chunk, 2.0, 1.0);
        dst.copy_from(off, &dev, off, chunk);
    }
    assert_eq!(dst.piece_count(), 1, "{:?}", dst.slice(0, N));
    for i in [0, 12_345, N / 4 - 1] {
        assert_eq!(dst.read_f32(i).unwrap(), t(fill_pattern_f32(41, i)));
    }
}

/// What a buggy program does to one chunk at `off`: (off, dev, dst, src).
type ChunkBug = Box<dyn Fn(u64, &mut Contents, &mut Contents, &Contents)>;

/// The output of a chunked transform of `filled(41)` with `bug(chunk, dev, dst)` applied to
/// chunk 5 of 8 instead of the right steps.
fn with_bug(bug: impl Fn(u64, &mut Contents, &mut Contents, &Contents)) -> Contents {
    let src = filled(41);
    let (mut dev, mut dst) = (Contents::new(N), filled(43));
    let chunk = N / 8;
    for c in 0..8 {
        let off = c * chunk;
        if c == 5 {
            bug(off, &mut dev, &mut dst, &src);
            continue;
        }
        dev.copy_from(off, &src, off, chunk);
        dev.transform(off, chunk, 2.0, 1.0);
        dst.copy_from(off, &dev, off, chunk);
    }
    dst
}

fn expected() -> Contents {
    let mut want = filled(41);
    want.transform(0, N, 2.0, 1.0);
    want
}

#[test]
fn comparison_passes_the_right_output_and_names_each_bug() {
    let chunk = N / 8;
    let right = with_bug(|off, dev, dst, src| {
        dev.copy_from(off, src, off, chunk);
        dev.transform(off, chunk, 2.0, 1.0);
        dst.copy_from(off, dev, off, chunk);
    });
    assert_eq!(right.first_mismatch(&expected()).unwrap(), None);
    let bugs: [(&str, ChunkBug); 4] = [
        ("fill 43", Box::new(|_, _, _, _| {})), // skipped chunk
        (
            "fill 41 from float 131072", // wrong offset: chunk 4's data
            Box::new(move |off, dev, dst, _| dst.copy_from(off, dev, off - chunk, chunk)),
        ),
        (
            "fill 43", // copy back in the wrong direction: dst -> dev
            Box::new(move |off, dev, dst, src| {
                dev.copy_from(off, src, off, chunk);
                dev.transform(off, chunk, 2.0, 1.0);
                dev.copy_from(off, dst, off, chunk);
            }),
        ),
        (
            "2 times", // kernel applied twice
            Box::new(move |off, dev, dst, src| {
                dev.copy_from(off, src, off, chunk);
                dev.transform(off, chunk, 2.0, 1.0);
                dev.transform(off, chunk, 2.0, 1.0);
                dst.copy_from(off, dev, off, chunk);
            }),
        ),
    ];
    for (says, bug) in bugs {
        let got = with_bug(bug);
        let m = got.first_mismatch(&expected()).unwrap().expect(says);
        assert_eq!(m.index, 5 * chunk / 4, "{says}");
        assert_eq!(m.expected, t(fill_pattern_f32(41, m.index)));
        let note = m.note.unwrap_or_default();
        assert!(note.contains(says), "{says}: {note}");
    }
}

#[test]
fn misaligned_byte_copies_are_byte_exact() {
    let src = filled(7);
    let mut dst = Contents::new(64);
    dst.copy_from(6, &src, 0, 10); // floats 0, 1 and half of 2, shifted by 6 bytes
    let mut bytes = [0u8; 64];
    for i in 0..16u64 {
        let b = dst.read_f32(i).unwrap().to_le_bytes();
        bytes[i as usize * 4..][..4].copy_from_slice(&b);
    }
    let mut want = [0u8; 64];
    for i in 0..10 {
        want[6 + i] = fill_pattern_f32(7, i as u64 / 4).to_le_bytes()[i % 4];
    }
    assert_eq!(bytes, want);
}

#[test]
fn kernel_output_keeps_exact_values_through_partial_aligned_copies() {
    let mut dev = filled(3);
    dev.transform(0, N, 2.0, 1.0);
    let mut host = Contents::new(64);
    host.copy_from(2, &dev, 2, 8); // bytes 2..10: halves of floats 0 and 2, all of 1
    let whole = t(fill_pattern_f32(3, 1));
    assert_eq!(host.read_f32(1).unwrap(), whole);
    let half = host.read_f32(0).unwrap().to_le_bytes();
    assert_eq!(half[2..], t(fill_pattern_f32(3, 0)).to_le_bytes()[2..]);
    assert_eq!(half[..2], [0, 0]);
}

#[test]
fn what_the_model_cannot_compute_is_an_error_and_never_passes() {
    let mut dev = filled(3);
    dev.write(0, 16, Base::Opaque(SPUN));
    assert!(dev.read_f32(0).is_err());
    let mut shifted = Contents::new(64);
    let mut out = filled(3);
    out.transform(0, 64, 2.0, 1.0);
    shifted.copy_from(1, &out, 0, 32); // kernel output moved by one byte
    assert!(shifted.read_f32(1).is_err());
    let m = dev
        .first_mismatch(&filled(3))
        .unwrap()
        .expect("opaque never matches");
    assert_eq!((m.index, m.got), (0, None));
    let same = dev.clone();
    assert!(
        dev.first_mismatch(&same).is_err(),
        "nothing to expect from an opaque source"
    );
}

#[test]
fn equal_values_with_other_histories_compare_equal() {
    // A fill read a whole pattern period later holds the same values.
    let period = crate::gpu::FILL_PATTERN_PERIOD * 4;
    let mut a = Contents::new(4096);
    a.put(
        0,
        4096,
        vec![(0, 4096, Piece::new(Base::Fill { seed: 1 }, period))],
    );
    let mut b = Contents::new(4096);
    b.fill(1);
    assert_eq!(a.first_mismatch(&b).unwrap(), None);
    // Unwritten memory and a memset of zero are the same bytes.
    let mut z = Contents::new(4096);
    z.write(0, 4096, Base::Memset(0));
    assert_eq!(Contents::new(4096).first_mismatch(&z).unwrap(), None);
    // Host-written floats equal to the fill pass; one different float does not.
    let mut w = Contents::new(64);
    for i in 0..16 {
        w.write(i * 4, 4, Base::Word(fill_pattern_f32(1, i).to_bits()));
    }
    let mut f = Contents::new(64);
    f.fill(1);
    assert_eq!(w.first_mismatch(&f).unwrap(), None);
    w.write(40, 4, Base::Word(0.5f32.to_bits()));
    assert_eq!(w.first_mismatch(&f).unwrap().map(|m| m.index), Some(10));
}

#[test]
fn repeated_kernels_count_up_instead_of_growing() {
    let mut c = filled(2);
    for _ in 0..1000 {
        c.transform(0, N, 1.0, 0.5);
    }
    assert_eq!(c.piece_count(), 1);
    assert_eq!(c.slice(0, 4)[0].2.chain.len(), 1);
    let mut x = fill_pattern_f32(2, 9);
    for _ in 0..1000 {
        x = Kernel::transform_host(x, 1.0, 0.5);
    }
    assert_eq!(c.read_f32(9).unwrap(), x);
}
