//! Streams and device-wide synchronisation: `cudaStreamCreate(WithFlags)`,
//! `cudaStreamDestroy`, `cudaStreamSynchronize`, `cudaStreamWaitEvent` and
//! `cudaDeviceSynchronize`, each logged and passed to the backend.

use super::args::Args;
use super::eval::stop;
use super::value::Value;
use super::{Interp, Res};
use crate::exercise::log::Call;
use crate::gpu::{StreamId, StreamKind};

impl Interp<'_> {
    /// `cudaStreamCreate(&stream)`, or with `flags` `cudaStreamCreateWithFlags(&stream, flags)`
    /// (`cudaStreamNonBlocking` is bit 1).
    pub(super) fn stream_create(&mut self, a: &Args, flags: bool) -> Res<Value> {
        let flags = if flags { a.int(1)? } else { 0 };
        let place = a.place(0)?;
        self.gpu_op(a.pos)?;
        let kind = if flags & 1 != 0 {
            StreamKind::NonBlocking
        } else {
            StreamKind::Blocking
        };
        let r = self.gpu.stream_create(kind);
        let s = self.m(a.pos, a.name, r)?;
        self.model.create_stream(s.0, kind == StreamKind::Blocking);
        let name = self.place_label(&place);
        self.log(Call::StreamCreate {
            stream: s,
            blocking: kind == StreamKind::Blocking,
            name,
        });
        self.write_place(&place, Value::Stream(s), a.pos)?;
        Ok(Value::Int(0))
    }

    /// `cudaStreamDestroy(stream)`: not of a default stream.
    pub(super) fn stream_destroy(&mut self, a: &Args) -> Res<Value> {
        let s = self.stream_arg(a, 0)?;
        if s == StreamId::LEGACY_DEFAULT || Some(s.0) == self.model.per_thread_stream() {
            return Err(stop(a.pos, "a default stream cannot be destroyed"));
        }
        self.log(Call::StreamDestroy { stream: s });
        let r = self.gpu.stream_destroy(s);
        self.m(a.pos, a.name, r)?;
        let r = self.model.destroy_stream(s.0);
        self.ordered(a.pos, a.name, r)?;
        Ok(Value::Int(0))
    }

    /// `cudaStreamSynchronize(stream)`.
    pub(super) fn stream_synchronize(&mut self, a: &Args) -> Res<Value> {
        let s = self.stream_arg(a, 0)?;
        self.log(Call::StreamSync { stream: s });
        let r = self.gpu.stream_sync(s);
        self.m(a.pos, a.name, r)?;
        let r = self.model.sync_stream(s.0);
        self.ordered(a.pos, a.name, r)?;
        Ok(Value::Int(0))
    }

    /// `cudaDeviceSynchronize()`.
    pub(super) fn device_synchronize(&mut self, a: &Args) -> Res<Value> {
        self.log(Call::DeviceSync);
        let r = self.gpu.device_sync();
        self.m(a.pos, a.name, r)?;
        self.model.sync_device();
        Ok(Value::Int(0))
    }

    /// `cudaStreamWaitEvent(stream, event[, flags])`.
    pub(super) fn stream_wait_event(&mut self, a: &Args) -> Res<Value> {
        let s = self.stream_arg(a, 0)?;
        let e = self.event_arg(a, 1)?;
        self.gpu_op(a.pos)?;
        self.log(Call::StreamWaitEvent {
            stream: s,
            event: e,
        });
        let r = self.gpu.stream_wait_event(s, e);
        self.m(a.pos, a.name, r)?;
        let r = self.model.wait_event(s.0, e.0);
        self.ordered(a.pos, a.name, r)?;
        Ok(Value::Int(0))
    }
}
