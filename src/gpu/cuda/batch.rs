//! `cuMemcpyBatchAsync_v2`, the CUDA 13.0 prototype of the batched copy (the 12.8 one took a
//! `failIdx` out-parameter that 13.0 dropped), through cudarc's binding under its `cuda-13000`
//! feature. A driver older than 13.0 lacks the symbol: it is asked for ([`symbols::present`])
//! before the first call, because cudarc panics on a missing one.
#![allow(unsafe_code)]

use cudarc::driver::sys;

use super::CudaGpu;
use super::error::check;
use super::memory::check_range;
use super::symbols;
use super::timeline::Issued;
use crate::gpu::{BatchCopy, GpuError, SrcAccessOrder, StreamId, total_bytes};
use crate::report::OpKind;

const CALL: &str = "cuMemcpyBatchAsync";

fn driver_order(order: SrcAccessOrder) -> sys::CUmemcpySrcAccessOrder {
    use sys::CUmemcpySrcAccessOrder as O;
    match order {
        SrcAccessOrder::Stream => O::CU_MEMCPY_SRC_ACCESS_ORDER_STREAM,
        SrcAccessOrder::DuringApiCall => O::CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL,
        SrcAccessOrder::Any => O::CU_MEMCPY_SRC_ACCESS_ORDER_ANY,
    }
}

impl CudaGpu {
    /// One batch of host-to-device copies (see [`crate::gpu::Driver::copy_h2d_batch_async`]),
    /// recorded as one timeline op of all its bytes (CUPTI's records of the call merge into it).
    pub(super) fn copy_batch(
        &mut self,
        stream: StreamId,
        copies: &[BatchCopy],
        order: SrcAccessOrder,
    ) -> Result<(), GpuError> {
        if !symbols::present(symbols::BATCH_COPY) {
            return Err(GpuError::Driver {
                call: CALL.into(),
                message: "the loaded CUDA driver has no cuMemcpyBatchAsync_v2 (batched copies \
                          need a CUDA 13.0 driver, r580 or later); update the NVIDIA driver or \
                          use --backend sim"
                    .into(),
            });
        }
        if copies.is_empty() {
            return Err(GpuError::Invalid(
                "a batched copy needs at least one copy".into(),
            ));
        }
        let s = self.stream(stream)?;
        let BatchArrays {
            mut dsts,
            mut srcs,
            mut sizes,
            host_mem,
        } = self.batch_arrays(copies)?;
        let mut attrs = self.batch_attrs(order);
        // One set of attributes for every copy: it applies from copy 0 on.
        let mut attrs_idx: usize = 0;
        let issue_us = if self.recorder.recording() {
            self.recorder.before_issue()
        } else {
            0.0
        };
        // SAFETY: the symbol is exported (asked above); the three arrays hold `copies.len()`
        // entries and live until the call returns (the driver reads them during the call); each
        // range lies inside a live allocation owned by `self`, which stays alive and unmoved
        // until `host_free`/`device_free`, both of which synchronise the context first (as for
        // `ops.rs`'s single copies); `attrs` and `attrs_idx` are one valid entry each; `s` is a
        // live stream of this context, or null: the legacy default stream, which the Driver API
        // reference says the call refuses; the driver is asked anyway, so that its own answer is
        // what the experiment's check reads.
        let rc = unsafe {
            sys::cuMemcpyBatchAsync_v2(
                dsts.as_mut_ptr(),
                srcs.as_mut_ptr(),
                sizes.as_mut_ptr(),
                copies.len(),
                &mut attrs,
                &mut attrs_idx,
                1,
                s,
            )
        };
        check(CALL, rc)?;
        if self.recorder.recording() {
            let op = Issued {
                line: self.recorder.source_line,
                stream: stream.0,
                kind: OpKind::H2d,
                bytes: total_bytes(copies),
                host_mem,
                label: "H2D batch",
                issue_us,
                end_event: None,
            };
            self.record(s, op)?;
        }
        Ok(())
    }
}

/// The three arrays `cuMemcpyBatchAsync` takes, checked against the allocations, and the host
/// memory kind of the first source.
struct BatchArrays {
    dsts: Vec<sys::CUdeviceptr>,
    srcs: Vec<sys::CUdeviceptr>,
    sizes: Vec<usize>,
    host_mem: Option<crate::report::HostMemKind>,
}

impl CudaGpu {
    /// Each copy's device destination, host source and size, each range checked inside its
    /// allocation.
    fn batch_arrays(&mut self, copies: &[BatchCopy]) -> Result<BatchArrays, GpuError> {
        let mut dsts = Vec::with_capacity(copies.len());
        let mut srcs = Vec::with_capacity(copies.len());
        let mut sizes = Vec::with_capacity(copies.len());
        let mut host_mem = None;
        for c in copies {
            let d = self.dev_buf(c.dst)?;
            check_range("device", d.bytes, c.dst_off, c.bytes)?;
            dsts.push(d.ptr + c.dst_off);
            let h = self.host_buf(c.src)?;
            check_range("host", h.bytes, c.src_off, c.bytes)?;
            host_mem.get_or_insert(h.kind);
            let off = usize::try_from(c.src_off).map_err(|_| GpuError::Invalid("offset".into()))?;
            // SAFETY: `off` is inside the allocation (checked above).
            let hptr = unsafe { h.ptr().add(off) };
            // With unified addressing (every 64-bit CUDA platform) a host pointer is a valid
            // `CUdeviceptr` source for the driver's pointer-to-pointer copies.
            srcs.push(hptr as sys::CUdeviceptr);
            sizes.push(usize::try_from(c.bytes).map_err(|_| GpuError::Invalid("size".into()))?);
        }
        Ok(BatchArrays {
            dsts,
            srcs,
            sizes,
            host_mem,
        })
    }

    /// The attributes every copy of the batch shares: `order`, from host to this device.
    fn batch_attrs(&self, order: SrcAccessOrder) -> sys::CUmemcpyAttributes {
        sys::CUmemcpyAttributes {
            srcAccessOrder: driver_order(order),
            srcLocHint: sys::CUmemLocation {
                type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_HOST,
                id: 0,
            },
            dstLocHint: sys::CUmemLocation {
                type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
                id: self.device,
            },
            flags: 0,
        }
    }
}
