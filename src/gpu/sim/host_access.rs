//! [`HostAccess`] for the simulator: host reads compute a float from its buffer's description,
//! host writes and copies change descriptions, and comparisons are exact
//! (`contents/compare.rs`). Each first runs the device up to the host's time, so it sees the
//! effects of the ops that have ended by then and no others (`effects.rs`). None of it costs simulated time: the experiments time device work,
//! and the exercises time `host_work` explicitly.

use super::SimGpu;
use super::contents::{Base, Contents, Piece};
use crate::gpu::{
    Expect, GpuError, HostAccess, HostBuf, HostView, Mismatch, SPIN_ADD, TRANSFORM_A, TRANSFORM_B,
    UnifiedBuf,
};

impl SimGpu {
    fn host_contents(&self, buf: HostBuf) -> Result<&Contents, GpuError> {
        Ok(&self.host.get(buf.0)?.contents)
    }

    fn host_contents_mut(&mut self, buf: HostBuf) -> Result<&mut Contents, GpuError> {
        Ok(&mut self.host.get_mut(buf.0)?.contents)
    }
}

impl HostAccess for SimGpu {
    fn host_fill(&mut self, buf: HostBuf, seed: u32) -> Result<(), GpuError> {
        self.catch_up()?;
        self.fill_host(buf, seed)
    }

    fn host_fill_range(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        seed: u32,
    ) -> Result<(), GpuError> {
        crate::gpu::host_access::whole_floats("fill", off, bytes)?;
        let c = self.host_contents_mut(buf)?;
        c.check_range("fill", off, bytes)?;
        if bytes > 0 {
            // `write` starts the pattern's stream at `off`: float 0 of the pattern lands there.
            c.write(off, bytes, Base::Fill { seed });
        }
        Ok(())
    }

    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> Result<f32, GpuError> {
        self.catch_up()?;
        self.host_contents(buf)?.read_f32(index)
    }

    fn host_write_f32(&mut self, buf: HostBuf, index: u64, value: f32) -> Result<(), GpuError> {
        self.catch_up()?;
        let c = self.host_contents_mut(buf)?;
        let off = index.saturating_mul(4);
        c.check_range("write", off, 4)?;
        c.write(off, 4, Base::Word(value.to_bits()));
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
        self.catch_up()?;
        let from = self.host_contents(src)?;
        from.check_range("host copy source", src_off, bytes)?;
        let from = from.clone();
        let to = self.host_contents_mut(dst)?;
        to.check_range("host copy destination", dst_off, bytes)?;
        to.copy_from(dst_off, &from, src_off, bytes);
        Ok(())
    }

    fn host_holds_transform_of_fill(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        (seed, spins): (u32, u32),
    ) -> Result<bool, GpuError> {
        self.catch_up()?;
        let c = self.host_contents(buf)?;
        c.check_range("check", off, bytes)?;
        crate::gpu::host_access::whole_floats("check", off, bytes)?;
        let got = Contents::from_spans(bytes, rebased(c, off, bytes));
        // Float 0 of the pattern is at `off`, as academy.cuh counts from the pointer.
        let mut want = Piece::new(Base::Fill { seed }, 0);
        for _ in 0..spins {
            want.push_step(1.0, SPIN_ADD);
        }
        want.push_step(TRANSFORM_A, TRANSFORM_B);
        let want = Contents::from_spans(bytes, vec![(0, bytes, want)]);
        Ok(got.first_mismatch(&want)?.is_none())
    }

    fn host_compare(
        &mut self,
        src: HostBuf,
        dst: HostBuf,
        bytes: u64,
        expect: Expect,
    ) -> Result<Option<Mismatch>, GpuError> {
        self.catch_up()?;
        let (from, to) = (self.host_contents(src)?, self.host_contents(dst)?);
        from.check_range("compared source", 0, bytes)?;
        to.check_range("compared destination", 0, bytes)?;
        let mut want = Contents::from_spans(bytes, rebased(from, 0, bytes));
        if let Expect::Transform { a, b } = expect {
            want.transform(0, bytes & !3, a, b);
        }
        let got = Contents::from_spans(bytes, rebased(to, 0, bytes));
        got.first_mismatch(&want)
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

/// The spans of `c[off ..][.. bytes]`, moved to start at 0.
fn rebased(c: &Contents, off: u64, bytes: u64) -> Vec<super::contents::Span> {
    c.slice(off, off + bytes)
        .into_iter()
        .map(|(s, e, p)| (s - off, e - off, p))
        .collect()
}
