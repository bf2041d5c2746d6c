//! Events: `cudaEventCreate(WithFlags)`, `cudaEventDestroy`, `cudaEventRecord`,
//! `cudaEventSynchronize` and `cudaEventElapsedTime`, each logged and passed to the backend;
//! and the event argument every event call reads.

use super::args::{Args, NumberOut};
use super::errors;
use super::eval::stop;
use super::value::Value;
use super::{Interp, Res};
use crate::exercise::log::Call;
use crate::gpu::EventId;

impl Interp<'_> {
    /// `cudaEventCreate(&event)`, or with `flags` `cudaEventCreateWithFlags(&event, flags)`
    /// (`cudaEventDisableTiming` is bit 2).
    pub(super) fn event_create(&mut self, a: &Args, flags: bool) -> Res<Value> {
        let flags = if flags { a.int(1)? } else { 0 };
        let place = a.place(0)?;
        self.gpu_op(a.pos)?;
        let r = self.gpu.event_create(flags & 2 == 0);
        let e = self.m(a.pos, a.name, r)?;
        self.model.create_event(e.0);
        self.log(Call::EventCreate { event: e });
        self.write_place(&place, Value::Event(e), a.pos)?;
        Ok(Value::Int(0))
    }

    /// `cudaEventDestroy(event)`.
    pub(super) fn event_destroy(&mut self, a: &Args) -> Res<Value> {
        let e = self.event_arg(a, 0)?;
        self.log(Call::EventDestroy { event: e });
        let r = self.gpu.event_destroy(e);
        self.m(a.pos, a.name, r)?;
        let r = self.model.destroy_event(e.0);
        self.ordered(a.pos, a.name, r)?;
        Ok(Value::Int(0))
    }

    /// `cudaEventRecord(event[, stream])`.
    pub(super) fn event_record(&mut self, a: &Args) -> Res<Value> {
        let e = self.event_arg(a, 0)?;
        let s = self.stream_arg(a, 1)?;
        self.gpu_op(a.pos)?;
        self.log(Call::EventRecord {
            event: e,
            stream: s,
        });
        let r = self.gpu.event_record(e, s);
        self.m(a.pos, a.name, r)?;
        let r = self.model.record(e.0, s.0);
        self.ordered(a.pos, a.name, r)?;
        Ok(Value::Int(0))
    }

    /// `cudaEventSynchronize(event)`.
    pub(super) fn event_synchronize(&mut self, a: &Args) -> Res<Value> {
        let e = self.event_arg(a, 0)?;
        self.log(Call::EventSync { event: e });
        let r = self.gpu.event_sync(e);
        self.m(a.pos, a.name, r)?;
        let r = self.model.sync_event(e.0);
        self.ordered(a.pos, a.name, r)?;
        Ok(Value::Int(0))
    }

    /// `cudaEventElapsedTime(&ms, start, end)`: an error code, with `ms` unchanged, for an
    /// event never recorded or not yet complete, as CUDA answers.
    pub(super) fn event_elapsed_time(&mut self, a: &Args) -> Res<Value> {
        let out = a.number_out(0)?;
        let (start, end) = (self.event_arg(a, 1)?, self.event_arg(a, 2)?);
        for (e, which) in [(start, "start"), (end, "end")] {
            if !self.model.ever_recorded(e.0) {
                return Ok(self.cuda_error(
                    a.name,
                    errors::INVALID_HANDLE,
                    format!("the {which} event was never recorded; call `cudaEventRecord` on it first (`ms` is unchanged)"),
                ));
            }
        }
        self.log(Call::EventElapsed { start, end });
        // CUDA answers cudaErrorNotReady, leaving `ms` as it was, while either event is still
        // pending: ask the backend without waiting.
        for (e, which) in [(start, "start"), (end, "end")] {
            let r = self.gpu.event_query(e);
            if !self.m(a.pos, a.name, r)? {
                return Ok(self.cuda_error(
                    a.name,
                    errors::NOT_READY,
                    format!("the {which} event has not completed yet, so `ms` is unchanged; call `cudaEventSynchronize` on it first"),
                ));
            }
        }
        let r = self.gpu.event_elapsed_ms(start, end);
        let ms = self.m(a.pos, a.name, r)?;
        let ms = Value::Float(f64::from(ms));
        match out {
            NumberOut::Var(place) => self.write_place(&place, ms, a.pos)?,
            // `&ms[i]` of a host buffer: a host write, logged as the program's own.
            NumberOut::Mem(region, off) => self.host_store(region, off, &ms, a.at(0))?,
        }
        Ok(Value::Int(0))
    }

    pub(super) fn event_arg(&self, a: &Args, i: usize) -> Res<EventId> {
        match a.vals.get(i) {
            Some(Value::Event(e)) if self.model.event_exists(e.0) => Ok(*e),
            Some(Value::Event(_)) => Err(stop(a.pos, "this event was destroyed")),
            Some(v) => Err(stop(
                a.pos,
                format!(
                    "argument {} of `{}` must be an event, not {}",
                    i + 1,
                    a.name,
                    v.describe()
                ),
            )),
            None => Err(stop(a.pos, format!("`{}` needs an event", a.name))),
        }
    }
}
