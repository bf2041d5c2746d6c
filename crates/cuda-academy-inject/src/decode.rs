//! One driver call's arguments as fields of its `api` line, by the shape of its parameters
//! (`ids::Shape`, one struct of `layout` each): copies, memsets, launches, stream and event
//! calls, allocations. Each group answers `Err(line)` for a shape that is not its own.

use crate::api::{Args, c_text};
use crate::ids::Shape;
use crate::json::Line;
use crate::layout::*;

/// The parameters as `$t`.
macro_rules! params {
    ($args:expr, $t:ty) => {
        // SAFETY: the caller of the group's function promises params is a $t (ids.rs's
        // table, checked by layout_tests.rs).
        unsafe { $args.get::<$t>() }
    };
}

impl Args<'_> {
    /// # Safety
    /// `params` has the layout of `shape`; `data` is the callback's data.
    pub unsafe fn decode(&self, shape: Shape, line: Line, data: &CallbackData, name: &str) -> Line {
        if self.params.is_null() || shape == Shape::Plain {
            return line;
        }
        // SAFETY: the caller's promise, handed on to each group.
        unsafe {
            self.copy(shape, line)
                .or_else(|line| self.set(shape, line))
                .or_else(|line| self.launch(shape, line, data))
                .or_else(|line| self.queue(shape, line, name))
                .or_else(|line| self.memory(shape, line))
                .unwrap_or_else(|line| line)
        }
    }

    /// Copies: direction, addresses, bytes, stream.
    ///
    /// # Safety
    /// `params` has the layout of `shape`.
    unsafe fn copy(&self, shape: Shape, line: Line) -> Result<Line, Line> {
        let copy = |line: Line, kind: &str, dst: u64, src: u64, bytes: usize| {
            line.str("copy", kind)
                .u64("dst", dst)
                .u64("src", src)
                .u64("bytes", bytes as u64)
        };
        Ok(match shape {
            Shape::CopyHtoD => {
                let a = params!(self, CopyHtoD);
                copy(line, "htod", a.dstDevice, a.srcHost as u64, a.ByteCount)
            }
            Shape::CopyHtoDAsync => {
                let a = params!(self, CopyHtoDAsync);
                self.stream(
                    copy(line, "htod", a.dstDevice, a.srcHost as u64, a.ByteCount),
                    a.hStream,
                )
            }
            Shape::CopyDtoH => {
                let a = params!(self, CopyDtoH);
                copy(line, "dtoh", a.dstHost as u64, a.srcDevice, a.ByteCount)
            }
            Shape::CopyDtoHAsync => {
                let a = params!(self, CopyDtoHAsync);
                self.stream(
                    copy(line, "dtoh", a.dstHost as u64, a.srcDevice, a.ByteCount),
                    a.hStream,
                )
            }
            Shape::CopyDtoD => {
                let a = params!(self, CopyDtoD);
                copy(line, "dtod", a.dstDevice, a.srcDevice, a.ByteCount)
            }
            Shape::CopyDtoDAsync => {
                let a = params!(self, CopyDtoDAsync);
                self.stream(
                    copy(line, "dtod", a.dstDevice, a.srcDevice, a.ByteCount),
                    a.hStream,
                )
            }
            Shape::CopyUnified => {
                let a = params!(self, CopyUnified);
                copy(line, "default", a.dst, a.src, a.ByteCount)
            }
            Shape::CopyUnifiedAsync => {
                let a = params!(self, CopyUnifiedAsync);
                self.stream(copy(line, "default", a.dst, a.src, a.ByteCount), a.hStream)
            }
            Shape::CopyPeer => {
                let a = params!(self, CopyPeer);
                copy(line, "peer", a.dstDevice, a.srcDevice, a.ByteCount)
                    .u64("dst_ctx", a.dstContext as u64)
                    .u64("src_ctx", a.srcContext as u64)
            }
            Shape::CopyPeerAsync => {
                let a = params!(self, CopyPeerAsync);
                self.stream(
                    copy(line, "peer", a.dstDevice, a.srcDevice, a.ByteCount)
                        .u64("dst_ctx", a.dstContext as u64)
                        .u64("src_ctx", a.srcContext as u64),
                    a.hStream,
                )
            }
            Shape::CopyDesc => {
                let a = params!(self, CopyDesc);
                line.str("copy", "descriptor").u64("desc", a.pCopy as u64)
            }
            Shape::CopyDescAsync => {
                let a = params!(self, CopyDescAsync);
                self.stream(
                    line.str("copy", "descriptor").u64("desc", a.pCopy as u64),
                    a.hStream,
                )
            }
            Shape::CopyBatchAsync => {
                let a = params!(self, CopyBatchAsync);
                self.stream(
                    line.str("copy", "batch").u64("count", a.count as u64),
                    a.hStream,
                )
            }
            _ => return Err(line),
        })
    }

    /// Memsets: destination, value, element width, count (and pitch and height for 2D).
    ///
    /// # Safety
    /// `params` has the layout of `shape`.
    unsafe fn set(&self, shape: Shape, line: Line) -> Result<Line, Line> {
        let set = |line: Line,
                   dst: u64,
                   value: u64,
                   width: u64,
                   count: usize,
                   pitch: Option<usize>,
                   height: Option<usize>| {
            let line = line
                .u64("dst", dst)
                .u64("value", value)
                .u64("elem", width)
                .u64("count", count as u64);
            match (pitch, height) {
                (Some(pitch), Some(height)) => {
                    line.u64("pitch", pitch as u64).u64("height", height as u64)
                }
                _ => line,
            }
        };
        Ok(match shape {
            Shape::SetD8 => {
                let a = params!(self, SetD8);
                set(line, a.dstDevice, a.uc.into(), 1, a.N, None, None)
            }
            Shape::SetD8Async => {
                let a = params!(self, SetD8Async);
                self.stream(
                    set(line, a.dstDevice, a.uc.into(), 1, a.N, None, None),
                    a.hStream,
                )
            }
            Shape::SetD16 => {
                let a = params!(self, SetD16);
                set(line, a.dstDevice, a.us.into(), 2, a.N, None, None)
            }
            Shape::SetD16Async => {
                let a = params!(self, SetD16Async);
                self.stream(
                    set(line, a.dstDevice, a.us.into(), 2, a.N, None, None),
                    a.hStream,
                )
            }
            Shape::SetD32 => {
                let a = params!(self, SetD32);
                set(line, a.dstDevice, a.ui.into(), 4, a.N, None, None)
            }
            Shape::SetD32Async => {
                let a = params!(self, SetD32Async);
                self.stream(
                    set(line, a.dstDevice, a.ui.into(), 4, a.N, None, None),
                    a.hStream,
                )
            }
            Shape::Set2D8 => {
                let a = params!(self, Set2D8);
                set(
                    line,
                    a.dstDevice,
                    a.uc.into(),
                    1,
                    a.Width,
                    Some(a.dstPitch),
                    Some(a.Height),
                )
            }
            Shape::Set2D8Async => {
                let a = params!(self, Set2D8Async);
                self.stream(
                    set(
                        line,
                        a.dstDevice,
                        a.uc.into(),
                        1,
                        a.Width,
                        Some(a.dstPitch),
                        Some(a.Height),
                    ),
                    a.hStream,
                )
            }
            Shape::Set2D16 => {
                let a = params!(self, Set2D16);
                set(
                    line,
                    a.dstDevice,
                    a.us.into(),
                    2,
                    a.Width,
                    Some(a.dstPitch),
                    Some(a.Height),
                )
            }
            Shape::Set2D16Async => {
                let a = params!(self, Set2D16Async);
                self.stream(
                    set(
                        line,
                        a.dstDevice,
                        a.us.into(),
                        2,
                        a.Width,
                        Some(a.dstPitch),
                        Some(a.Height),
                    ),
                    a.hStream,
                )
            }
            Shape::Set2D32 => {
                let a = params!(self, Set2D32);
                set(
                    line,
                    a.dstDevice,
                    a.ui.into(),
                    4,
                    a.Width,
                    Some(a.dstPitch),
                    Some(a.Height),
                )
            }
            Shape::Set2D32Async => {
                let a = params!(self, Set2D32Async);
                self.stream(
                    set(
                        line,
                        a.dstDevice,
                        a.ui.into(),
                        4,
                        a.Width,
                        Some(a.dstPitch),
                        Some(a.Height),
                    ),
                    a.hStream,
                )
            }
            _ => return Err(line),
        })
    }

    /// Launches: kernel name, grid, block, shared memory, stream.
    ///
    /// # Safety
    /// `params` has the layout of `shape`.
    unsafe fn launch(&self, shape: Shape, line: Line, data: &CallbackData) -> Result<Line, Line> {
        let dims = |line: Line, g: [u32; 3], b: [u32; 3], shared: u32| {
            // SAFETY: symbolName is the kernel's name on launch callbacks (or NULL).
            let kernel = unsafe { c_text(data.symbolName) };
            line.str("kernel", &kernel)
                .dim3("grid", g.map(u64::from))
                .dim3("block", b.map(u64::from))
                .u64("shared", u64::from(shared))
        };
        Ok(match shape {
            Shape::Launch => {
                let a = params!(self, Launch);
                let line = self.stream(
                    dims(
                        line,
                        [a.gridDimX, a.gridDimY, a.gridDimZ],
                        [a.blockDimX, a.blockDimY, a.blockDimZ],
                        a.sharedMemBytes,
                    )
                    .u64("func", a.f as u64),
                    a.hStream,
                );
                // SAFETY: kernelParams is the launch's, valid for the callback.
                unsafe { with_params(line, a.f, a.kernelParams) }
            }
            Shape::LaunchCoop => {
                let a = params!(self, LaunchCoop);
                let line = self.stream(
                    dims(
                        line,
                        [a.gridDimX, a.gridDimY, a.gridDimZ],
                        [a.blockDimX, a.blockDimY, a.blockDimZ],
                        a.sharedMemBytes,
                    )
                    .u64("func", a.f as u64),
                    a.hStream,
                );
                // SAFETY: kernelParams is the launch's, valid for the callback.
                unsafe { with_params(line, a.f, a.kernelParams) }
            }
            Shape::LaunchEx => {
                let a = params!(self, LaunchEx);
                let line = line.u64("func", a.f as u64);
                // SAFETY: kernelParams is the launch's, valid for the callback.
                let line = unsafe { with_params(line, a.f, a.kernelParams) };
                if a.config.is_null() {
                    return Ok(line);
                }
                // SAFETY: a non-NULL config points at the caller's CUlaunchConfig for the call.
                let c = unsafe { a.config.read_unaligned() };
                self.stream(
                    dims(
                        line,
                        [c.gridDimX, c.gridDimY, c.gridDimZ],
                        [c.blockDimX, c.blockDimY, c.blockDimZ],
                        c.sharedMemBytes,
                    ),
                    c.hStream,
                )
            }
            _ => return Err(line),
        })
    }

    /// Streams, events, context synchronisation and host functions.
    ///
    /// # Safety
    /// `params` has the layout of `shape`.
    unsafe fn queue(&self, shape: Shape, line: Line, name: &str) -> Result<Line, Line> {
        Ok(match shape {
            Shape::StreamCreate => {
                let a = params!(self, StreamCreate);
                let line = line.u64("flags", a.Flags.into());
                // SAFETY: phStream is where the call wrote the new stream.
                match unsafe { self.output(a.phStream.cast::<u64>()) } {
                    Some(s) => self.stream(line, s as Handle),
                    None => line,
                }
            }
            Shape::StreamCreatePrio => {
                let a = params!(self, StreamCreatePrio);
                let line = line
                    .u64("flags", a.flags.into())
                    .i64("priority", a.priority.into());
                // SAFETY: as for cuStreamCreate.
                match unsafe { self.output(a.phStream.cast::<u64>()) } {
                    Some(s) => self.stream(line, s as Handle),
                    None => line,
                }
            }
            Shape::StreamHandle => {
                let a = params!(self, StreamHandle);
                // The id of a stream being destroyed is no longer asked for.
                if !name.starts_with("cuStreamDestroy") {
                    self.stream(line, a.hStream)
                } else {
                    line.u64("stream", a.hStream as u64)
                }
            }
            Shape::StreamWaitEvent => {
                let a = params!(self, StreamWaitEvent);
                self.stream(
                    line.u64("event", a.hEvent as u64)
                        .u64("flags", a.Flags.into()),
                    a.hStream,
                )
            }
            Shape::EventCreate => {
                let a = params!(self, EventCreate);
                let line = line.u64("flags", a.Flags.into());
                // SAFETY: phEvent is where the call wrote the new event.
                match unsafe { self.output(a.phEvent.cast::<u64>()) } {
                    Some(e) => line.u64("event", e),
                    None => line,
                }
            }
            Shape::EventRecord => {
                let a = params!(self, EventRecord);
                self.stream(line.u64("event", a.hEvent as u64), a.hStream)
            }
            Shape::EventRecordFlags => {
                let a = params!(self, EventRecordFlags);
                self.stream(
                    line.u64("event", a.hEvent as u64)
                        .u64("flags", a.flags.into()),
                    a.hStream,
                )
            }
            Shape::EventHandle => {
                let a = params!(self, EventHandle);
                line.u64("event", a.hEvent as u64)
            }
            Shape::CtxSync => {
                let a = params!(self, CtxSync);
                line.u64("sync_ctx", a.ctx as u64)
            }
            Shape::HostFunc => {
                let a = params!(self, HostFunc);
                self.stream(
                    line.u64("host_fn", a.fn_ as u64)
                        .u64("user_data", a.userData as u64),
                    a.hStream,
                )
            }
            _ => return Err(line),
        })
    }

    /// Allocations and frees: memory kind, address, bytes.
    ///
    /// # Safety
    /// `params` has the layout of `shape`.
    unsafe fn memory(&self, shape: Shape, line: Line) -> Result<Line, Line> {
        Ok(match shape {
            Shape::MemAlloc => {
                let a = params!(self, MemAlloc);
                // SAFETY: dptr is where the call wrote the allocation.
                let ptr = unsafe { self.output(a.dptr) };
                alloc(line, "device", ptr, a.bytesize)
            }
            Shape::MemAllocPitch => {
                let a = params!(self, MemAllocPitch);
                // SAFETY: dptr and pPitch are where the call wrote the allocation and its pitch.
                let (ptr, pitch) =
                    unsafe { (self.output(a.dptr), self.output(a.pPitch.cast::<u64>())) };
                let bytes = pitch
                    .map_or(a.WidthInBytes, |p| p as usize)
                    .saturating_mul(a.Height);
                alloc(line, "device", ptr, bytes)
                    .u64("height", a.Height as u64)
                    .u64("pitch", pitch.unwrap_or(0))
            }
            Shape::MemAllocManaged => {
                let a = params!(self, MemAllocManaged);
                // SAFETY: as for cuMemAlloc.
                let ptr = unsafe { self.output(a.dptr) };
                alloc(line, "managed", ptr, a.bytesize).u64("flags", a.flags.into())
            }
            Shape::MemFree => {
                let a = params!(self, MemFree);
                line.str("mem", "device").u64("ptr", a.dptr)
            }
            Shape::MemAllocHost => {
                let a = params!(self, MemAllocHost);
                // SAFETY: pp is where the call wrote the host pointer.
                let ptr = unsafe { self.output(a.pp.cast::<u64>()) };
                alloc(line, "pinned", ptr, a.bytesize)
            }
            Shape::MemHostAlloc => {
                let a = params!(self, MemHostAlloc);
                // SAFETY: as for cuMemAllocHost.
                let ptr = unsafe { self.output(a.pp.cast::<u64>()) };
                alloc(line, "pinned", ptr, a.bytesize).u64("flags", a.Flags.into())
            }
            Shape::MemFreeHost => {
                let a = params!(self, MemFreeHost);
                line.str("mem", "pinned").u64("ptr", a.p as u64)
            }
            Shape::MemHostRegister => {
                let a = params!(self, MemHostRegister);
                line.str("mem", "registered")
                    .u64("ptr", a.p as u64)
                    .u64("bytes", a.bytesize as u64)
                    .u64("flags", a.Flags.into())
            }
            Shape::MemHostUnregister => {
                let a = params!(self, MemHostUnregister);
                line.str("mem", "registered").u64("ptr", a.p as u64)
            }
            Shape::MemAllocAsync => {
                let a = params!(self, MemAllocAsync);
                // SAFETY: as for cuMemAlloc.
                let ptr = unsafe { self.output(a.dptr) };
                self.stream(alloc(line, "device", ptr, a.bytesize), a.hStream)
            }
            Shape::MemAllocPoolAsync => {
                let a = params!(self, MemAllocPoolAsync);
                // SAFETY: as for cuMemAlloc.
                let ptr = unsafe { self.output(a.dptr) };
                self.stream(
                    alloc(line, "device", ptr, a.bytesize).u64("pool", a.pool as u64),
                    a.hStream,
                )
            }
            Shape::MemFreeAsync => {
                let a = params!(self, MemFreeAsync);
                self.stream(line.str("mem", "device").u64("ptr", a.dptr), a.hStream)
            }
            _ => return Err(line),
        })
    }
}

/// `params` (each 8-byte parameter's value, `null` for others) and `params_cut`, when the
/// launch's parameters can be read (`params::read`); else `params_error`, why not. A launch
/// without `kernelParams` (parameters through `extra`, or none) gets neither.
///
/// # Safety
/// `kernel_params` is the launch's `kernelParams`, during its callback.
unsafe fn with_params(line: Line, func: Handle, kernel_params: Handle) -> Line {
    if kernel_params == 0 {
        return line;
    }
    // SAFETY: the caller's promise.
    match unsafe { crate::params::read(func, kernel_params) } {
        Ok(p) if p.cut => line.u64_list("params", &p.values).bool("params_cut", true),
        Ok(p) => line.u64_list("params", &p.values),
        Err(why) => line.str("params_error", &why),
    }
}

/// An allocation's memory kind, address (when the call succeeded) and size.
fn alloc(line: Line, mem: &str, ptr: Option<u64>, bytes: usize) -> Line {
    let line = line.str("mem", mem).u64("bytes", bytes as u64);
    match ptr {
        Some(ptr) => line.u64("ptr", ptr),
        None => line,
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
