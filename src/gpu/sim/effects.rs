//! What a device op does to buffer contents, applied when the op ends on the device, not when
//! it is issued: the data then follows the order the ordering model and the engines gave the
//! ops, so a race shows in the data as it does on a GPU (a host read before the copy back has
//! ended sees the old contents; a kernel not ordered after an upload may read the old input).
//!
//! A copy reads its source when it ends, except a copy from pageable memory, whose source the
//! driver has taken by the time the call returns (the H200 probe, case
//! `async-h2d-pageable-takes-source`): it carries a snapshot. Host accesses first run the
//! device up to the host's time ([`SimGpu::catch_up`]).

use super::SimGpu;
use super::contents::{Base, Contents};
use super::engines::OpId;
use crate::gpu::{DevBuf, GpuError, HostBuf, UnifiedBuf};

/// A place in a buffer.
#[derive(Debug, Clone, Copy)]
pub(super) enum Loc {
    Host(HostBuf, u64),
    Dev(DevBuf, u64),
    Unified(UnifiedBuf, u64),
}

/// Where a copy's bytes come from.
#[derive(Debug, Clone)]
pub(super) enum From {
    /// Read when the op ends.
    Live(Loc),
    /// Taken when the call was made (`bytes` long, from offset 0).
    Snapshot(Contents),
}

/// An op's effect on contents.
#[derive(Debug, Clone)]
pub(super) enum Effect {
    Copy {
        to: Loc,
        from: From,
        bytes: u64,
    },
    Write {
        to: Loc,
        bytes: u64,
        base: Base,
    },
    /// `out = in * a + b` in place.
    Transform {
        to: Loc,
        bytes: u64,
        a: f32,
        b: f32,
    },
    /// `cudaFreeAsync`: the buffer goes when the free's marker ends.
    FreeDevice(DevBuf),
    /// `dst[i] = src[i] * a + b` for every `stride`-th float of the first `bytes / 4`.
    Strided {
        to: Loc,
        from: Loc,
        bytes: u64,
        stride: u64,
        consts: (f32, f32),
    },
    /// `dst = src * a + b`.
    TransformInto {
        to: Loc,
        from: Loc,
        bytes: u64,
        a: f32,
        b: f32,
    },
}

impl SimGpu {
    /// Apply `effect` when op `id` ends.
    pub(super) fn defer(&mut self, id: OpId, effect: Effect) {
        self.pending.insert(id, effect);
    }

    /// Run the device up to the host's time, applying what ended meanwhile: before the host
    /// reads or writes a buffer.
    pub(super) fn catch_up(&mut self) -> Result<(), GpuError> {
        self.device.advance_to(self.clock.now())?;
        self.apply_finished();
        Ok(())
    }

    /// Apply the effects of the ops that ended, in the order they ended.
    pub(super) fn apply_finished(&mut self) {
        for id in self.device.take_finished() {
            if let Some(effect) = self.pending.remove(&id) {
                // A buffer freed meanwhile is gone with its contents: nothing to change.
                let _ = self.apply(effect);
            }
        }
    }

    /// A snapshot of `bytes` at `loc`, rebased to offset 0.
    pub(super) fn snapshot(&self, loc: Loc, bytes: u64) -> Result<Contents, GpuError> {
        let (c, off) = self.contents_at(loc)?;
        let spans = c
            .slice(off, off + bytes)
            .into_iter()
            .map(|(s, e, p)| (s - off, e - off, p))
            .collect();
        Ok(Contents::from_spans(bytes, spans))
    }

    fn contents_at(&self, loc: Loc) -> Result<(&Contents, u64), GpuError> {
        Ok(match loc {
            Loc::Host(b, off) => (&self.host.get(b.0)?.contents, off),
            Loc::Dev(b, off) => (self.dev.get(b.0)?, off),
            Loc::Unified(b, off) => (&self.unified.get(b.0)?.contents, off),
        })
    }

    fn contents_at_mut(&mut self, loc: Loc) -> Result<(&mut Contents, u64), GpuError> {
        Ok(match loc {
            Loc::Host(b, off) => (&mut self.host.get_mut(b.0)?.contents, off),
            Loc::Dev(b, off) => (self.dev.get_mut(b.0)?, off),
            Loc::Unified(b, off) => (&mut self.unified.get_mut(b.0)?.contents, off),
        })
    }

    fn apply(&mut self, effect: Effect) -> Result<(), GpuError> {
        match effect {
            Effect::Copy { to, from, bytes } => {
                let src = match from {
                    From::Live(loc) => self.snapshot(loc, bytes)?,
                    From::Snapshot(c) => c,
                };
                let (dst, off) = self.contents_at_mut(to)?;
                dst.copy_from(off, &src, 0, bytes);
            }
            Effect::Write { to, bytes, base } => {
                let (dst, off) = self.contents_at_mut(to)?;
                dst.write(off, bytes, base);
            }
            Effect::Transform { to, bytes, a, b } => {
                let (dst, off) = self.contents_at_mut(to)?;
                dst.transform(off, bytes, a, b);
            }
            Effect::FreeDevice(buf) => {
                let len = self.dev.get(buf.0)?.len();
                self.dev.remove(buf.0, len)?;
                self.info.free_mem = self.dev.total - self.dev.used;
            }
            Effect::Strided {
                to,
                from,
                bytes,
                stride,
                consts,
            } => {
                let src = self.snapshot(from, bytes)?;
                let (dst, _) = self.contents_at_mut(to)?;
                dst.transform_strided_from(&src, bytes, stride, consts);
            }
            Effect::TransformInto {
                to,
                from,
                bytes,
                a,
                b,
            } => {
                let src = self.snapshot(from, bytes)?;
                let (dst, off) = self.contents_at_mut(to)?;
                dst.copy_from(off, &src, 0, bytes);
                dst.transform(off, bytes, a, b);
            }
        }
        Ok(())
    }
}
