//! [`HostAccess`] for [`CudaGpu`]: the host buffers hold the real bytes, so reads, writes and
//! comparisons touch them directly; every float is compared. Every access is one volatile load or
//! store through [`HostAlloc::read_f32`]/[`HostAlloc::write_f32`], never a Rust slice: a copy
//! engine may be writing the same bytes (a learner's racy program), see `memory.rs`.
#![allow(unsafe_code)]

use super::CudaGpu;
use super::memory::{HostAlloc, check_range};
use crate::gpu::{
    Expect, GpuError, HostAccess, HostBuf, HostView, Kernel, Mismatch, SPIN_ADD, TRANSFORM_A,
    TRANSFORM_B, UnifiedBuf, fill_pattern_f32, same_value,
};

impl CudaGpu {
    fn host_ref(&self, buf: HostBuf) -> Result<&HostAlloc, GpuError> {
        self.host
            .get(&buf.0)
            .ok_or_else(|| GpuError::Invalid(format!("unknown host buffer {}", buf.0)))
    }
}

/// Float `i` of `h`; callers check the range first, so `None` (past the end) reads as NaN rather
/// than a panic, and NaN matches no expected value.
fn at(h: &HostAlloc, i: usize) -> f32 {
    h.read_f32(i).unwrap_or(f32::NAN)
}

/// The float indices `off / 4 ..` of `h`, `bytes / 4` of them, after checking the range.
fn range(
    h: &HostAlloc,
    what: &str,
    off: u64,
    bytes: u64,
) -> Result<std::ops::Range<usize>, GpuError> {
    check_range(what, h.bytes, off, bytes)?;
    let (lo, n) = ((off / 4) as usize, (bytes / 4) as usize);
    Ok(lo..lo + n)
}

impl HostAccess for CudaGpu {
    fn host_fill(&mut self, buf: HostBuf, seed: u32) -> Result<(), GpuError> {
        let h = self.host_buf(buf)?;
        for i in 0..h.floats() {
            h.write_f32(i, fill_pattern_f32(seed, i as u64));
        }
        h.zero_tail();
        Ok(())
    }

    fn host_fill_range(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        seed: u32,
    ) -> Result<(), GpuError> {
        crate::gpu::host_access::whole_floats("fill", off, bytes)?;
        let h = self.host_buf(buf)?;
        let floats = range(h, "fill", off, bytes)?;
        // Float 0 of the pattern is at `off`, as academy.cuh counts from the pointer.
        for (k, i) in floats.enumerate() {
            h.write_f32(i, fill_pattern_f32(seed, k as u64));
        }
        Ok(())
    }

    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> Result<f32, GpuError> {
        let h = self.host_ref(buf)?;
        let i = range(h, "read", index.saturating_mul(4), 4)?.start;
        Ok(at(h, i))
    }

    fn host_write_f32(&mut self, buf: HostBuf, index: u64, value: f32) -> Result<(), GpuError> {
        let h = self.host_buf(buf)?;
        let i = range(h, "write", index.saturating_mul(4), 4)?.start;
        h.write_f32(i, value);
        Ok(())
    }

    fn host_copy(
        &mut self,
        dst: HostBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        let from = self.host_ref(src)?;
        check_range("host copy source", from.bytes, src_off, bytes)?;
        let from = from.ptr();
        let to = self.host_ref(dst)?;
        check_range("host copy destination", to.bytes, dst_off, bytes)?;
        // SAFETY: both ranges were checked to lie inside live allocations owned by `self`;
        // `copy` allows them to overlap (the same buffer), as `memmove` does. Raw pointers only,
        // no reference: if a learner's program copies while a copy engine writes either range,
        // the bytes copied are old or new ones (any bytes are valid floats), as in the C program.
        unsafe {
            std::ptr::copy(
                from.add(src_off as usize),
                to.ptr().add(dst_off as usize),
                bytes as usize,
            );
        }
        Ok(())
    }

    fn host_holds_transform_of_fill(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        (seed, spins): (u32, u32),
    ) -> Result<bool, GpuError> {
        crate::gpu::host_access::whole_floats("check", off, bytes)?;
        let h = self.host_ref(buf)?;
        let floats = range(h, "check", off, bytes)?;
        // Float 0 of the pattern is at `off`, as academy.cuh counts from the pointer; each
        // spin pass added SPIN_ADD, one addition at a time as the kernel did.
        Ok(floats.zip(0u64..).all(|(i, k)| {
            let spun = (0..spins).fold(fill_pattern_f32(seed, k), |x, _| x + SPIN_ADD);
            let want = Kernel::transform_host(spun, TRANSFORM_A, TRANSFORM_B);
            same_value(want, at(h, i))
        }))
    }

    fn host_compare(
        &mut self,
        src: HostBuf,
        dst: HostBuf,
        bytes: u64,
        expect: Expect,
    ) -> Result<Option<Mismatch>, GpuError> {
        let (want, got) = (self.host_ref(src)?, self.host_ref(dst)?);
        let floats = range(want, "compared source", 0, bytes)?;
        range(got, "compared destination", 0, bytes)?;
        // One load per float on each side, kept: a second load could see a different value.
        Ok(floats
            .map(|k| (k, at(want, k), at(got, k)))
            .find(|&(_, w, g)| !same_value(expect.apply(w), g))
            .map(|(k, w, g)| Mismatch {
                index: k as u64,
                expected: expect.apply(w),
                got: Some(g),
                note: None,
            }))
    }

    fn unified_fill(&mut self, buf: UnifiedBuf, seed: u32) -> Result<(), GpuError> {
        self.fill_unified(buf, seed)
    }

    fn host_sum_strided(
        &mut self,
        view: HostView,
        bytes: u64,
        stride: u64,
    ) -> Result<f64, GpuError> {
        self.sum_strided(view, bytes, stride)
    }
}
