//! [`HostAccess`] for [`CudaGpu`]: the host buffers hold the real bytes, so reads, writes and
//! comparisons touch them directly; every float is compared.
#![allow(unsafe_code)]

use super::CudaGpu;
use super::memory::{HostAlloc, check_range};
use crate::gpu::{
    Expect, GpuError, HostAccess, HostBuf, Kernel, Mismatch, TRANSFORM_A, TRANSFORM_B,
    fill_pattern_f32, same_value,
};

impl CudaGpu {
    fn host_ref(&self, buf: HostBuf) -> Result<&HostAlloc, GpuError> {
        self.host
            .get(&buf.0)
            .ok_or_else(|| GpuError::Invalid(format!("unknown host buffer {}", buf.0)))
    }
}

/// Floats `off / 4 ..` of `h`, `bytes / 4` of them, after checking the range.
fn floats<'a>(h: &'a HostAlloc, what: &str, off: u64, bytes: u64) -> Result<&'a [f32], GpuError> {
    check_range(what, h.bytes, off, bytes)?;
    let (lo, n) = ((off / 4) as usize, (bytes / 4) as usize);
    Ok(&h.as_f32()[lo..lo + n])
}

impl HostAccess for CudaGpu {
    fn host_fill(&mut self, buf: HostBuf, seed: u32) -> Result<(), GpuError> {
        let h = self.host_buf(buf)?;
        for (i, x) in h.as_f32_mut().iter_mut().enumerate() {
            *x = fill_pattern_f32(seed, i as u64);
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
        check_range("fill", h.bytes, off, bytes)?;
        let (first, n) = ((off / 4) as usize, (bytes / 4) as usize);
        for (i, x) in h.as_f32_mut().iter_mut().skip(first).take(n).enumerate() {
            *x = fill_pattern_f32(seed, i as u64);
        }
        Ok(())
    }

    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> Result<f32, GpuError> {
        let h = self.host_ref(buf)?;
        let off = index.saturating_mul(4);
        Ok(floats(h, "read", off, 4)?[0])
    }

    fn host_write_f32(&mut self, buf: HostBuf, index: u64, value: f32) -> Result<(), GpuError> {
        let h = self.host_buf(buf)?;
        check_range("write", h.bytes, index.saturating_mul(4), 4)?;
        h.as_f32_mut()[index as usize] = value;
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
        // `copy` allows them to overlap (the same buffer), as `memmove` does.
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
        seed: u32,
    ) -> Result<bool, GpuError> {
        crate::gpu::host_access::whole_floats("check", off, bytes)?;
        let got = floats(self.host_ref(buf)?, "check", off, bytes)?;
        // Float 0 of the pattern is at `off`, as academy.cuh counts from the pointer.
        Ok(got.iter().zip(0u64..).all(|(&g, i)| {
            let want = Kernel::transform_host(fill_pattern_f32(seed, i), TRANSFORM_A, TRANSFORM_B);
            same_value(want, g)
        }))
    }

    fn host_compare(
        &mut self,
        src: HostBuf,
        dst: HostBuf,
        bytes: u64,
        expect: Expect,
    ) -> Result<Option<Mismatch>, GpuError> {
        let want = floats(self.host_ref(src)?, "compared source", 0, bytes)?;
        let got = floats(self.host_ref(dst)?, "compared destination", 0, bytes)?;
        let bad = want
            .iter()
            .zip(got)
            .position(|(&w, &g)| !same_value(expect.apply(w), g));
        Ok(bad.map(|k| Mismatch {
            index: k as u64,
            expected: expect.apply(want[k]),
            got: Some(got[k]),
            note: None,
        }))
    }
}
