//! Allocation, release and page-locking: `malloc`/`free`, `cudaMalloc`/`cudaFree`,
//! `cudaMallocHost`/`cudaHostAlloc`/`cudaFreeHost`, `cudaHostRegister`/`cudaHostUnregister`,
//! each checked against the limits and the kind of memory it takes.

use super::args::Args;
use super::eval::stop;
use super::value::Value;
use super::{Interp, Region, Res};
use crate::exercise::ast::Elem;
use crate::exercise::calls::CallId;
use crate::exercise::log::{Call, MemKind, RegionId};
use crate::report::HostMemKind;

impl Interp<'_> {
    /// `malloc(bytes)`.
    pub(super) fn malloc(&mut self, a: &Args) -> Res<Value> {
        let bytes = a.count(0)?;
        let r = self.alloc(
            a,
            CallId::Malloc,
            MemKind::Pageable,
            bytes,
            HostMemKind::Pageable,
        )?;
        Ok(Value::Ptr {
            region: RegionId(r as u32),
            off: 0,
            elem: Elem::Float,
        })
    }

    /// `cudaHostAlloc(&ptr, bytes, flags)`: flags are an `unsigned int`, and a bit outside
    /// Portable (1), Mapped (2) and WriteCombined (4) is cudaErrorInvalidValue, as the Runtime
    /// API documents (review 2026-12-01b CK17: 0xFFFFFFFF and -1 returned cudaSuccess).
    pub(super) fn host_alloc(&mut self, a: &Args) -> Res<Value> {
        a.place(0)?;
        a.count(1)?;
        let flags = a.int(2)? as u32;
        if flags & !7 != 0 {
            return Ok(self.cuda_error(
                a.name,
                super::errors::INVALID_VALUE,
                format!("flags {flags:#x} have bits other than cudaHostAllocPortable (1), cudaHostAllocMapped (2) and cudaHostAllocWriteCombined (4); nothing was allocated"),
            ));
        }
        let host_kind = if flags & 4 != 0 {
            HostMemKind::WriteCombined
        } else {
            HostMemKind::Pinned
        };
        self.alloc_into(a, CallId::CudaHostAlloc, MemKind::Pinned, host_kind)
    }

    /// `cudaMalloc(&ptr, bytes)`, `cudaMallocHost(&ptr, bytes)` and `cudaHostAlloc`'s
    /// allocation: the pointer is written to `ptr`, whose name the messages use.
    pub(super) fn alloc_into(
        &mut self,
        a: &Args,
        call: CallId,
        kind: MemKind,
        host_kind: HostMemKind,
    ) -> Res<Value> {
        let place = a.place(0)?;
        let bytes = a.count(1)?;
        let r = self.alloc(a, call, kind, bytes, host_kind)?;
        let region = RegionId(r as u32);
        self.out
            .region_names
            .entry(region)
            .or_insert_with(|| place.name.clone());
        self.write_place(
            &place,
            Value::Ptr {
                region,
                off: 0,
                elem: Elem::Float,
            },
            a.pos,
        )?;
        Ok(Value::Int(0))
    }

    /// An allocation of `bytes` by `call`, checked against the limits and logged.
    pub(super) fn alloc(
        &mut self,
        a: &Args,
        call: CallId,
        kind: MemKind,
        bytes: u64,
        host_kind: HostMemKind,
    ) -> Res<usize> {
        self.gpu_op(a.pos)?;
        if bytes == 0 {
            return Err(stop(
                a.pos,
                format!("`{}` of 0 bytes: is the size right?", a.name),
            ));
        }
        let device = kind == MemKind::Device;
        let (used, limit, what) = if device {
            (
                self.device_bytes,
                self.gpu.info().free_mem,
                "the device's free memory",
            )
        } else {
            (
                self.host_bytes,
                self.limits.max_host_bytes,
                "the host memory an exercise may use",
            )
        };
        if used.saturating_add(bytes) > limit {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` of {bytes} bytes is more than {what} ({} bytes left): is the size right?",
                    a.name,
                    limit.saturating_sub(used)
                ),
            ));
        }
        let (host, dev) = if device {
            let r = self.gpu.device_alloc(bytes);
            (None, Some(self.m(a.pos, a.name, r)?))
        } else {
            let r = self.gpu.host_alloc(bytes, host_kind);
            (Some(self.m(a.pos, a.name, r)?), None)
        };
        if device {
            self.device_bytes += bytes;
        } else {
            self.host_bytes += bytes;
        }
        self.regions.push(Region {
            kind,
            host,
            dev,
            bytes,
            registered: false,
            freed: false,
        });
        let region = RegionId(self.regions.len() as u32 - 1);
        self.log(Call::Alloc {
            region,
            kind,
            bytes,
            call,
        });
        Ok(region.0 as usize)
    }

    /// `free`, `cudaFree` and `cudaFreeHost` (`id` says which).
    pub(super) fn free(&mut self, a: &Args, id: CallId) -> Res<Value> {
        if matches!(a.val(0)?, Value::Null) {
            return Ok(Value::Int(0));
        }
        let (r, off) = a.ptr(0)?;
        let name = self.region_name(r);
        let region = self.regions[r].clone();
        let want = match region.kind {
            MemKind::Pageable => CallId::Free,
            MemKind::Pinned => CallId::CudaFreeHost,
            MemKind::Device => CallId::CudaFree,
        };
        if region.freed || self.is_freed_async(r) {
            return Err(stop(a.pos, format!("`{name}` is freed twice")));
        }
        if off != 0 {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` needs the pointer the allocation returned, not `{name}` plus an offset",
                    a.name
                ),
            ));
        }
        if id != want {
            let message = format!(
                "`{name}` must be released with `{}`, not `{}`",
                want.name(),
                id.name()
            );
            if id == CallId::Free {
                // The C library's `free` of memory it did not allocate ends the program.
                return Err(stop(a.pos, message));
            }
            // The runtime refuses and the memory stays allocated (probes/ordering-h200.txt).
            return Ok(self.cuda_error(
                a.name,
                super::errors::INVALID_VALUE,
                format!("{message}; it stays allocated"),
            ));
        }
        self.log(Call::Free {
            region: RegionId(r as u32),
            call: id,
        });
        let result = match (region.host, region.dev) {
            (Some(h), _) => self.gpu.host_free(h),
            (_, Some(d)) => self.gpu.device_free(d),
            _ => Ok(()),
        };
        self.m(a.pos, a.name, result)?;
        if region.kind == MemKind::Device {
            self.device_bytes -= region.bytes;
        } else {
            self.host_bytes -= region.bytes;
        }
        self.regions[r].freed = true;
        Ok(Value::Int(0))
    }

    /// `cudaHostRegister` (`on`) and `cudaHostUnregister`.
    pub(super) fn register(&mut self, a: &Args, on: bool) -> Res<Value> {
        let (r, off) = a.ptr(0)?;
        let name = self.region_name(r);
        let region = self.regions[r].clone();
        if region.kind != MemKind::Pageable || region.freed {
            return Err(stop(
                a.pos,
                format!("`{}` takes live `malloc` memory; `{name}` is not", a.name),
            ));
        }
        if on && (off != 0 || a.count(1)? != region.bytes) {
            return Err(stop(
                a.pos,
                format!(
                    "registering part of an allocation is not supported here; register all of `{name}` ({} bytes)",
                    region.bytes
                ),
            ));
        }
        if region.registered == on {
            let state = if on {
                "already registered"
            } else {
                "not registered"
            };
            return Err(stop(a.pos, format!("`{name}` is {state}")));
        }
        let h = region
            .host
            .ok_or_else(|| stop(a.pos, "host buffer missing"))?;
        let region_id = RegionId(r as u32);
        let result = if on {
            self.log(Call::Register { region: region_id });
            self.gpu.host_register(h)
        } else {
            self.log(Call::Unregister { region: region_id });
            self.gpu.host_unregister(h)
        };
        self.m(a.pos, a.name, result)?;
        self.regions[r].registered = on;
        Ok(Value::Int(0))
    }
}
