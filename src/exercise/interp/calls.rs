//! A call of the table ([`crate::exercise::calls`]): its row found, its arity checked from the
//! row's signature, its host time booked, and its handler reached by an exhaustive match over
//! [`CallId`], so a row without a handler does not compile. NVTX annotations are in `nvtx`.

mod nvtx;

use super::args::Args;
use super::eval::stop;
use super::value::Value;
use super::{Interp, Res};
use crate::exercise::ast::{Expr, Pos};
use crate::exercise::calls::{self, CallId};
use crate::exercise::log::MemKind;
use crate::report::HostMemKind;

impl Interp<'_> {
    pub(super) fn call(&mut self, name: &str, exprs: &[Expr], pos: Pos) -> Res<Value> {
        let program = self.program;
        if let Some(f) = program.function(name) {
            return self.call_function(f, exprs, pos);
        }
        let mut vals = Vec::with_capacity(exprs.len());
        for e in exprs {
            vals.push(self.eval(e)?);
        }
        // A statement over several lines books the call where the call is written.
        self.line = pos.line;
        let a = Args {
            name,
            vals: &vals,
            exprs,
            pos,
        };
        let start_us = self.gpu.host_now_us();
        self.call_log_start = self.out.log.len();
        let result = self.checked(&a);
        self.book_host_time(name, start_us);
        // Host functions whose stream got to them meanwhile run now (`ordered.rs`).
        let value = result?;
        if self.collect.is_none() && !self.host_funcs.is_empty() {
            self.run_reached_host_funcs(false)?;
        }
        if !self.freed_async.is_empty() {
            self.release_freed_async()?;
        }
        Ok(value)
    }

    /// The call's row, its arity, then its handler.
    fn checked(&mut self, a: &Args) -> Res<Value> {
        // The parser refuses names outside the table; this answers one that got past it.
        let Some(row) = calls::find(a.name) else {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` is not supported here; {}",
                    a.name,
                    crate::exercise::parse::OUTSIDE_THE_SUBSET
                ),
            ));
        };
        if let Some(why) = row.arity_error(a.vals.len()) {
            return Err(stop(a.pos, why));
        }
        self.builtin(row.id, a)
    }

    /// A call the host spent time in (a wait, a blocking copy, `host_work`) goes on the
    /// timeline's host lane, with its line; calls that return at once are left off (on a real
    /// GPU every call takes a few microseconds). A host function's body runs in stream order,
    /// not on the host's time line.
    fn book_host_time(&mut self, name: &str, start_us: f64) {
        let end_us = self.gpu.host_now_us();
        if self.collect.is_some() || end_us - start_us < super::HOST_SPAN_MIN_US {
            return;
        }
        self.out.host_calls.push(crate::report::Op {
            stream: 0,
            kind: crate::report::OpKind::Host,
            start_us,
            end_us,
            bytes: 0,
            host_mem: None,
            engine: None,
            start_inferred: false,
            line: Some(self.line),
            label: name.to_string(),
        });
    }

    /// Each call's handler: one arm a row, no catch-all.
    fn builtin(&mut self, id: CallId, a: &Args) -> Res<Value> {
        use CallId as C;
        match id {
            C::Malloc => self.malloc(a),
            C::CudaMalloc => self.alloc_into(a, id, MemKind::Device, HostMemKind::Pinned),
            C::CudaMallocHost => self.alloc_into(a, id, MemKind::Pinned, HostMemKind::Pinned),
            C::CudaHostAlloc => self.host_alloc(a),
            C::Free | C::CudaFree | C::CudaFreeHost => self.free(a, id),
            C::CudaHostRegister => self.register(a, true),
            C::CudaHostUnregister => self.register(a, false),
            C::Memcpy => self.memcpy_host(a, false),
            C::CudaMemcpy => self.memcpy_cuda(a, true),
            C::CudaMemcpyAsync => self.memcpy_cuda(a, false),
            C::CudaMemset => self.memset(a, true),
            C::CudaMemsetAsync => self.memset(a, false),
            C::CudaStreamCreate => self.stream_create(a, false),
            C::CudaStreamCreateWithFlags => self.stream_create(a, true),
            C::CudaStreamDestroy => self.stream_destroy(a),
            C::CudaStreamSynchronize => self.stream_synchronize(a),
            C::CudaStreamWaitEvent => self.stream_wait_event(a),
            C::CudaDeviceSynchronize => self.device_synchronize(a),
            C::CudaEventCreate => self.event_create(a, false),
            C::CudaEventCreateWithFlags => self.event_create(a, true),
            C::CudaEventDestroy => self.event_destroy(a),
            C::CudaEventRecord => self.event_record(a),
            C::CudaEventSynchronize => self.event_synchronize(a),
            C::CudaEventElapsedTime => self.event_elapsed_time(a),
            C::CudaStreamQuery => self.stream_query(a),
            C::CudaEventQuery => self.event_query(a),
            C::CudaLaunchHostFunc => self.host_func(a),
            C::CudaMallocAsync => self.malloc_async(a),
            C::CudaFreeAsync => self.free_async(a),
            C::CudaGetLastError => Ok(self.last_error(true)),
            C::CudaPeekAtLastError => Ok(self.last_error(false)),
            C::CudaGetErrorString => super::errors::error_text(a, false),
            C::CudaGetErrorName => super::errors::error_text(a, true),
            C::NvtxRangePushA => nvtx::push_or_mark(a, nvtx::NO_PUSH_POP_TRACKING),
            C::NvtxMarkA => nvtx::push_or_mark(a, Value::Void),
            C::NvtxRangePop => Ok(nvtx::NO_PUSH_POP_TRACKING),
            C::Dim3 => super::academy::dim3(a),
            C::Printf => self.printf(a),
            C::Fprintf => self.fprintf(a),
            C::Exit => Err(super::Stop {
                exited: Some(a.int(0)?),
                ..stop(a.pos, "exit")
            }),
            C::Min => super::academy::min_max(a, true),
            C::Max => super::academy::min_max(a, false),
            C::FillInput => self.fill_input(a),
            C::CheckOutput => self.check_output(a),
            C::HostWork => self.host_work(a),
            C::NowMs => Ok(Value::Float(self.gpu.host_now_us() / 1000.0)),
            C::Report => self.report(a),
        }
    }
}
