//! Streams, events, synchronisation, and the C and `academy.cuh` helpers (`printf`, `report`,
//! `fill_input`, `check_output`, `host_work`, `now_ms`, `min`/`max`).

use super::OutputCheck;
use super::calls::Args;
use super::errors;
use super::eval::stop;
use super::value::Value;
use super::{Interp, Res, limits};
use crate::exercise::log::{Call, MemKind};
use crate::exercise::{FILL_SEED, printf};
use crate::gpu::{EventId, StreamId, StreamKind};

impl Interp<'_> {
    pub(super) fn helper(&mut self, a: &Args) -> Res<Value> {
        let pos = a.pos;
        match a.name {
            "cudaStreamCreate" | "cudaStreamCreateWithFlags" => {
                let flags = if a.name == "cudaStreamCreate" {
                    a.arity(1, 1)?;
                    0
                } else {
                    a.arity(2, 2)?;
                    a.int(1)?
                };
                let place = a.place(0)?;
                self.gpu_op(pos)?;
                let kind = if flags & 1 != 0 {
                    StreamKind::NonBlocking
                } else {
                    StreamKind::Blocking
                };
                let r = self.gpu.stream_create(kind);
                let s = self.m(pos, a.name, r)?;
                self.streams.insert(s);
                let name = self.place_label(&place);
                self.log(Call::StreamCreate {
                    stream: s,
                    blocking: kind == StreamKind::Blocking,
                    name,
                });
                self.write_place(&place, Value::Stream(s), pos)?;
            }
            "cudaStreamDestroy" => {
                a.arity(1, 1)?;
                let s = self.stream_arg(a, 0)?;
                if s == StreamId::LEGACY_DEFAULT || Some(s) == self.per_thread {
                    return Err(stop(pos, "a default stream cannot be destroyed"));
                }
                self.log(Call::StreamDestroy { stream: s });
                let r = self.gpu.stream_destroy(s);
                self.m(pos, a.name, r)?;
                self.streams.remove(&s);
            }
            "cudaStreamSynchronize" => {
                a.arity(1, 1)?;
                let s = self.stream_arg(a, 0)?;
                self.log(Call::StreamSync { stream: s });
                let r = self.gpu.stream_sync(s);
                self.m(pos, a.name, r)?;
            }
            "cudaDeviceSynchronize" => {
                a.arity(0, 0)?;
                self.log(Call::DeviceSync);
                let r = self.gpu.device_sync();
                self.m(pos, a.name, r)?;
            }
            "cudaEventCreate" | "cudaEventCreateWithFlags" => {
                let flags = if a.name == "cudaEventCreate" {
                    a.arity(1, 1)?;
                    0
                } else {
                    a.arity(2, 2)?;
                    a.int(1)?
                };
                let place = a.place(0)?;
                self.gpu_op(pos)?;
                let r = self.gpu.event_create(flags & 2 == 0);
                let e = self.m(pos, a.name, r)?;
                self.events.insert(e);
                self.log(Call::EventCreate { event: e });
                self.write_place(&place, Value::Event(e), pos)?;
            }
            "cudaEventDestroy" => {
                a.arity(1, 1)?;
                let e = self.event_arg(a, 0)?;
                self.log(Call::EventDestroy { event: e });
                let r = self.gpu.event_destroy(e);
                self.m(pos, a.name, r)?;
                self.events.remove(&e);
            }
            "cudaEventRecord" => {
                a.arity(1, 2)?;
                let e = self.event_arg(a, 0)?;
                let s = self.stream_arg(a, 1)?;
                self.gpu_op(pos)?;
                self.log(Call::EventRecord {
                    event: e,
                    stream: s,
                });
                let r = self.gpu.event_record(e, s);
                self.m(pos, a.name, r)?;
                self.recorded.insert(e);
            }
            "cudaEventSynchronize" => {
                a.arity(1, 1)?;
                let e = self.event_arg(a, 0)?;
                self.log(Call::EventSync { event: e });
                let r = self.gpu.event_sync(e);
                self.m(pos, a.name, r)?;
            }
            "cudaEventElapsedTime" => {
                a.arity(3, 3)?;
                let place = a.place(0)?;
                let (start, end) = (self.event_arg(a, 1)?, self.event_arg(a, 2)?);
                for (e, which) in [(start, "start"), (end, "end")] {
                    if !self.recorded.contains(&e) {
                        return Ok(self.cuda_error(
                            a.name,
                            errors::INVALID_HANDLE,
                            format!("the {which} event was never recorded; call `cudaEventRecord` on it first (`ms` is unchanged)"),
                        ));
                    }
                }
                self.log(Call::EventElapsed { start, end });
                // CUDA answers cudaErrorNotReady, leaving `ms` as it was, while either event
                // is still pending: ask the backend without waiting.
                for (e, which) in [(start, "start"), (end, "end")] {
                    let r = self.gpu.event_query(e);
                    if !self.m(pos, a.name, r)? {
                        return Ok(self.cuda_error(
                            a.name,
                            errors::NOT_READY,
                            format!("the {which} event has not completed yet, so `ms` is unchanged; call `cudaEventSynchronize` on it first"),
                        ));
                    }
                }
                let r = self.gpu.event_elapsed_ms(start, end);
                let ms = self.m(pos, a.name, r)?;
                self.write_place(&place, Value::Float(f64::from(ms)), pos)?;
            }
            "cudaStreamWaitEvent" => {
                a.arity(2, 3)?;
                let s = self.stream_arg(a, 0)?;
                let e = self.event_arg(a, 1)?;
                self.gpu_op(pos)?;
                self.log(Call::StreamWaitEvent {
                    stream: s,
                    event: e,
                });
                let r = self.gpu.stream_wait_event(s, e);
                self.m(pos, a.name, r)?;
            }
            "cudaGetLastError" | "cudaPeekAtLastError" => {
                a.arity(0, 0)?;
                let code = self.last_error;
                if a.name == "cudaGetLastError" {
                    self.last_error = 0;
                }
                return Ok(Value::Int(code));
            }
            "cudaGetErrorString" | "cudaGetErrorName" => {
                a.arity(1, 1)?;
                let code = a.int(0)?;
                let text = if a.name == "cudaGetErrorName" {
                    errors::name(code)
                } else {
                    errors::text(code)
                };
                return Ok(Value::Str(text.into()));
            }
            _ => return self.academy(a),
        }
        Ok(Value::Int(0))
    }

    pub(super) fn event_arg(&self, a: &Args, i: usize) -> Res<EventId> {
        match a.vals.get(i) {
            Some(Value::Event(e)) if self.events.contains(e) => Ok(*e),
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

    fn academy(&mut self, a: &Args) -> Res<Value> {
        let pos = a.pos;
        match a.name {
            "printf" => {
                if a.vals.is_empty() {
                    return Err(stop(pos, "`printf` needs a format string"));
                }
                // Step cost (issue 21): formatting costs in proportion to the text.
                self.charge(pos, limits::text_steps(a.str(0)?.len()))?;
                let rest = a.vals.get(1..).unwrap_or_default();
                let text = printf::format(a.str(0)?, rest).map_err(|m| stop(pos, m))?;
                self.print(&text);
                Ok(Value::Int(text.len() as i64))
            }
            "report" => {
                a.arity(2, 2)?;
                let (name, value) = (a.str(0)?.to_string(), a.num(1)?);
                if name.is_empty()
                    || name.len() > 64
                    || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    return Err(stop(
                        pos,
                        "a metric name is letters, digits and `_`, e.g. \"pinned_gbps\"",
                    ));
                }
                self.print(&format!("report {name} = {value:.6}\n"));
                self.out.metrics.insert(name, value);
                Ok(Value::Void)
            }
            "min" | "max" => {
                a.arity(2, 2)?;
                let (x, y) = (a.val(0)?, a.val(1)?);
                let (fx, fy) = (a.num(0)?, a.num(1)?);
                let first = if a.name == "min" { fx <= fy } else { fx >= fy };
                Ok(if first { x.clone() } else { y.clone() })
            }
            "now_ms" => {
                a.arity(0, 0)?;
                Ok(Value::Float(self.gpu.host_now_us() / 1000.0))
            }
            "host_work" => {
                a.arity(1, 1)?;
                let ms = a.num(0)?;
                if !(0.0..=10_000.0).contains(&ms) {
                    return Err(stop(pos, "`host_work` takes 0 to 10000 milliseconds"));
                }
                let start_us = self.gpu.host_now_us();
                self.gpu.host_busy_us(ms * 1000.0);
                let end_us = self.gpu.host_now_us();
                self.out.host_work.push(super::HostSpan {
                    line: self.line,
                    start_us,
                    end_us,
                });
                Ok(Value::Void)
            }
            "fill_input" | "check_output" => self.fill_or_check(a),
            other => Err(stop(
                pos,
                format!(
                    "`{other}` is not supported here; {}",
                    crate::exercise::parse::OUTSIDE_THE_SUBSET
                ),
            )),
        }
    }

    /// `fill_input(h + i, n)` / `check_output(h + i, n)`: the pattern's float 0 is at the
    /// pointer, as in academy.cuh, whatever the offset.
    fn fill_or_check(&mut self, a: &Args) -> Res<Value> {
        a.arity(2, 2)?;
        let ((r, off), n) = (a.ptr(0)?, a.count(1)?);
        let range = self.span(a, r, off, n.saturating_mul(4))?;
        let region = self.regions[r].clone();
        if region.kind == MemKind::Device {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` runs on the host; `{}` is device memory",
                    a.name,
                    self.region_name(r)
                ),
            ));
        }
        let Some(h) = region.host else {
            return Err(stop(a.pos, "host buffer missing"));
        };
        if a.name == "check_output" {
            // Step cost (issue 21): a comparison over `n` floats.
            self.charge(a.pos, limits::bulk_steps(n))?;
            self.log(Call::HostRead {
                range,
                what: "check_output".into(),
            });
            let res = self
                .gpu
                .host_holds_transform_of_fill(h, off, n * 4, FILL_SEED);
            let ok = self.m(a.pos, "check_output", res)?;
            self.out.output_checks.push((self.line, ok));
            self.out.checks.push(OutputCheck {
                line: self.line,
                passed: ok,
                range,
            });
            return Ok(Value::Bool(ok));
        }
        self.log(Call::HostWrite {
            range,
            what: "fill_input".into(),
        });
        // Step cost (issue 21): a fill of `n` floats, whole buffer or part.
        self.charge(a.pos, limits::bulk_steps(n))?;
        let res = if off == 0 && n * 4 == region.bytes {
            // The whole buffer: also its first touch, as the backend's fill models it.
            self.gpu.host_fill(h, FILL_SEED)
        } else {
            self.gpu.host_fill_range(h, off, n * 4, FILL_SEED)
        };
        self.m(a.pos, "fill_input", res)?;
        Ok(Value::Void)
    }

    fn print(&mut self, text: &str) {
        // Bounded: a print in a runaway loop must not fill memory before the step budget ends it.
        if self.out.output.len() < 64 * 1024 {
            self.out.output.push_str(text);
        }
    }
}
