//! Copies and memsets: which way each goes, checked ranges, the log entry, the backend call.

use super::args::Args;
use super::eval::stop;
use super::value::{LEGACY_HANDLE, PER_THREAD, PER_THREAD_HANDLE, Value};
use super::{Interp, Res};
use crate::exercise::calls::CallId;
use crate::exercise::log::{Call, DeviceOp, DeviceOpKind, HostWait, MemKind, Range, RegionId};
use crate::gpu::StreamId;
use crate::ordering::rules::{self, Way};

impl Interp<'_> {
    /// Check that `bytes` from `off` lie inside live allocation `r`; returns its range.
    pub(super) fn span(&self, a: &Args, r: usize, off: u64, bytes: u64) -> Res<Range> {
        let region = &self.regions[r];
        let name = self.region_name(r);
        if region.freed {
            return Err(stop(
                a.pos,
                format!("`{}` uses `{name}` after it was freed", a.name),
            ));
        }
        if off.saturating_add(bytes) > region.bytes {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` of {bytes} bytes at byte {off} runs past the end of `{name}` ({} bytes)",
                    a.name, region.bytes
                ),
            ));
        }
        Ok(self.range(r, off, bytes))
    }

    /// The stream argument `i` (absent means the legacy default stream), checked to be alive.
    pub(super) fn stream_arg(&mut self, a: &Args, i: usize) -> Res<StreamId> {
        let s = match a.vals.get(i) {
            None | Some(Value::Int(0 | LEGACY_HANDLE) | Value::Null) => StreamId::LEGACY_DEFAULT,
            Some(Value::Int(PER_THREAD_HANDLE)) => return self.per_thread_stream(a),
            Some(Value::Stream(s)) if *s == PER_THREAD => return self.per_thread_stream(a),
            Some(Value::Stream(s)) => *s,
            Some(v) => {
                return Err(stop(
                    a.at(i),
                    format!(
                        "argument {} of `{}` must be a stream, not {}",
                        i + 1,
                        a.name,
                        v.describe()
                    ),
                ));
            }
        };
        if self.model.check_stream(s.0).is_err() {
            return Err(stop(
                a.at(i),
                "this stream was destroyed (or never created)",
            ));
        }
        Ok(s)
    }

    /// `cudaStreamPerThread`: the per-thread default stream, made on first use. It is a
    /// blocking stream (it synchronises with the legacy default stream: Runtime API, "Stream
    /// synchronization behavior"), which is how the backend makes it.
    fn per_thread_stream(&mut self, a: &Args) -> Res<StreamId> {
        if let Some(s) = self.model.per_thread_stream() {
            return Ok(StreamId(s));
        }
        let r = self.gpu.stream_create(crate::gpu::StreamKind::Blocking);
        let s = self.m(a.pos, "cudaStreamPerThread", r)?;
        self.model.create_per_thread_stream(s.0);
        self.log(Call::PerThreadStream { stream: s });
        Ok(s)
    }

    /// `cudaMemcpy` (`sync`) and `cudaMemcpyAsync`.
    pub(super) fn memcpy_cuda(&mut self, a: &Args, sync: bool) -> Res<Value> {
        let ((dr, doff), (sr, soff), bytes, kind) = (a.ptr(0)?, a.ptr(1)?, a.count(2)?, a.int(3)?);
        let stream = if sync {
            StreamId::LEGACY_DEFAULT
        } else {
            self.stream_arg(a, 4)?
        };
        let (dst, src) = (
            self.span(a, dr, doff, bytes)?,
            self.span(a, sr, soff, bytes)?,
        );
        let (d_dev, s_dev) = (
            self.regions[dr].kind == MemKind::Device,
            self.regions[sr].kind == MemKind::Device,
        );
        let (op, expected) = match (s_dev, d_dev) {
            (false, true) => (DeviceOpKind::CopyH2D, 1),
            (true, false) => (DeviceOpKind::CopyD2H, 2),
            (true, true) => (DeviceOpKind::CopyD2D, 3),
            (false, false) => return self.memcpy_host(a, !sync),
        };
        if kind != expected && kind != 4 {
            return Err(stop(
                a.at(3),
                format!(
                    "the copy kind does not match the pointers: this copy goes {}",
                    ["", "host to device", "device to host", "device to device"][expected as usize]
                ),
            ));
        }
        let host_side = if s_dev { dr } else { sr };
        let pageable = !(s_dev && d_dev)
            && self.regions[host_side].kind == MemKind::Pageable
            && !self.regions[host_side].registered;
        let way = match op {
            DeviceOpKind::CopyH2D => Way::HostToDevice,
            DeviceOpKind::CopyD2H => Way::DeviceToHost,
            _ => Way::DeviceToDevice,
        };
        let rule = rules::copy(sync, way, pageable);
        self.device_op(
            a,
            DeviceOp {
                stream,
                kind: op,
                call: a.name.to_string(),
                reads: vec![src],
                writes: vec![dst],
                rule: Some(rule),
                pageable_async: !sync && pageable,
                body_accesses: vec![],
            },
        )?;
        // The backend's copy is asynchronous: the rule says which stream syncs make this call
        // wait as it promises (a synchronous pageable upload syncs first, "a stream sync is
        // performed before the copy is initiated"; one that completes syncs after).
        let syncs = rule.host_syncs();
        if syncs.before {
            let r = self.gpu.stream_sync(StreamId::LEGACY_DEFAULT);
            self.m(a.pos, a.name, r)?;
        }
        if op == DeviceOpKind::CopyD2H {
            // Where the program's result lands: `output-correct` wants it checked in full.
            self.out.output_region = Some((RegionId(dr as u32), self.regions[dr].bytes));
        }
        let result = self.start_copy(op, stream, (dr, doff), (sr, soff), bytes);
        self.m(a.pos, a.name, result)?;
        if syncs.after {
            let r = self.gpu.stream_sync(StreamId::LEGACY_DEFAULT);
            self.m(a.pos, a.name, r)?;
        }
        Ok(Value::Int(0))
    }

    /// Queue the backend's copy of `bytes` from allocation `src` to `dst` (each an index and a
    /// byte offset) on `stream`, in the direction `op` names.
    fn start_copy(
        &mut self,
        op: DeviceOpKind,
        stream: StreamId,
        (dr, doff): (usize, u64),
        (sr, soff): (usize, u64),
        bytes: u64,
    ) -> Result<(), crate::gpu::GpuError> {
        let (dst_h, dst_d) = (self.regions[dr].host, self.regions[dr].dev);
        let (src_h, src_d) = (self.regions[sr].host, self.regions[sr].dev);
        match op {
            DeviceOpKind::CopyH2D => match (dst_d, src_h) {
                (Some(dd), Some(hs)) => self.gpu.copy_h2d_async(stream, dd, doff, hs, soff, bytes),
                _ => Ok(()),
            },
            DeviceOpKind::CopyD2H => match (dst_h, src_d) {
                (Some(hd), Some(ds)) => self.gpu.copy_d2h_async(stream, hd, doff, ds, soff, bytes),
                _ => Ok(()),
            },
            _ => match (dst_d, src_d) {
                (Some(dd), Some(ds)) => self.gpu.copy_d2d_async(stream, dd, doff, ds, soff, bytes),
                _ => Ok(()),
            },
        }
    }

    /// `memcpy` (or `cudaMemcpy` between two host buffers): a host read and a host write.
    /// `is_async` for `cudaMemcpyAsync`, which this subset does not take between host buffers.
    pub(super) fn memcpy_host(&mut self, a: &Args, is_async: bool) -> Res<Value> {
        if is_async {
            return Err(stop(
                a.pos,
                "`cudaMemcpyAsync` between two host buffers is not supported here; use `memcpy`",
            ));
        }
        let ((dr, doff), (sr, soff), bytes) = (a.ptr(0)?, a.ptr(1)?, a.count(2)?);
        let (dst, src) = (
            self.span(a, dr, doff, bytes)?,
            self.span(a, sr, soff, bytes)?,
        );
        if self.regions[dr].kind == MemKind::Device || self.regions[sr].kind == MemKind::Device {
            return Err(stop(
                a.pos,
                "`memcpy` cannot reach device memory; use `cudaMemcpy`",
            ));
        }
        self.log(Call::HostRead {
            range: src,
            what: a.name.to_string(),
        });
        self.log(Call::HostWrite {
            range: dst,
            what: a.name.to_string(),
        });
        let (Some(hd), Some(hs)) = (self.regions[dr].host, self.regions[sr].host) else {
            return Err(stop(a.pos, "host buffer missing"));
        };
        // Step cost (issue 21): a copy of `bytes / 4` floats.
        self.charge(a.pos, super::limits::bulk_steps(bytes / 4))?;
        let r = self.gpu.host_copy(hd, doff, hs, soff, bytes);
        self.m(a.pos, a.name, r)?;
        Ok(Value::Int(0))
    }

    /// `cudaMemset` (`sync`) and `cudaMemsetAsync`.
    pub(super) fn memset(&mut self, a: &Args, sync: bool) -> Res<Value> {
        let ((r, off), byte, bytes) = (a.ptr(0)?, a.int(1)?, a.count(2)?);
        let stream = if sync {
            StreamId::LEGACY_DEFAULT
        } else {
            self.stream_arg(a, 3)?
        };
        let range = self.span(a, r, off, bytes)?;
        let Some(d) = self.regions[r].dev else {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` sets device memory; `{}` is host memory",
                    a.name,
                    self.region_name(r)
                ),
            ));
        };
        self.device_op(
            a,
            DeviceOp {
                stream,
                kind: DeviceOpKind::Memset,
                call: a.name.to_string(),
                reads: vec![],
                writes: vec![range],
                // `cudaMemset` on device memory does not make the host wait either: the row's
                // rule (MEMSET, or ASYNC_OP for `cudaMemsetAsync`) says what the host may rely on.
                rule: memset_id(sync).row().rule(),
                pageable_async: false,
                body_accesses: vec![],
            },
        )?;
        let result = self.gpu.memset_async(stream, d, off, bytes, byte as u8);
        self.m(a.pos, a.name, result)?;
        Ok(Value::Int(0))
    }

    pub(super) fn device_op(&mut self, a: &Args, op: DeviceOp) -> Res<()> {
        self.gpu_op(a.pos)?;
        self.run_host_funcs_before(&op)?;
        // The backend tags the ops this call queues with the line, for the timeline.
        self.gpu.set_source_line(Some(self.line));
        let r = self.model.issue(op.stream.0);
        let issued = self.ordered(a.pos, a.name, r)?;
        // What the host may rely on after the call, as the checker reads it from the log.
        match op.host_wait() {
            HostWait::None | HostWait::SourceTaken => {}
            HostWait::Staged => self.model.learn_before(&issued),
            HostWait::Completion => self.model.learn_op(&issued),
        }
        self.log(Call::Device(op));
        Ok(())
    }
}

/// The row of a memset: `cudaMemset` when `sync`, else `cudaMemsetAsync`.
fn memset_id(sync: bool) -> CallId {
    if sync {
        CallId::CudaMemset
    } else {
        CallId::CudaMemsetAsync
    }
}
