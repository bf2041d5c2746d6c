//! A trace's driver calls as the exercises' call log ([`Entry`] rows of `exercise::log`), so
//! that the one hazard checker and ordering model judge a real program as they judge an
//! exercise. Real driver calls map onto the same rows of `exercise::calls` (`cuMemAlloc_v2` is
//! `cudaMalloc`, `cuMemcpyHtoDAsync_v2` is `cudaMemcpyAsync`, ...). A trace has no source
//! lines: an entry's `line` is the call's number among the trace's driver calls (1-based).
//!
//! A kernel touches what its pointer parameters point into: a parameter value (the library
//! records each 8- and 4-byte one) inside a known allocation is a range from that pointer, as
//! many elements (the pointee's size from the mangled name) as the kernel's last integer
//! parameter says, the `(T *p, …, size_t n)` idiom, when that fits in the allocation, else to
//! its end (assumed either way: the trace cannot say how far the kernel goes), read only when
//! the kernel's mangled name says pointer to const (`mangled`), else read and written. A
//! launch whose parameters the library could not read is logged touching nothing (counted in
//! `kernels`: races with it are not watched). Host accesses are not recorded (no page
//! guarding), so host-side races are not watched.

use std::collections::HashMap;

use super::driver_calls::{self, Driver};
use super::mangled;
use crate::attach::file::{ApiCall, Record, Trace};
use crate::exercise::calls::CallId;
use crate::exercise::log::{Call, DeviceOp, DeviceOpKind, Entry, MemKind, Range, RegionId};
use crate::gpu::{EventId, StreamId};
use crate::ordering::rules::{self, Way};

/// The log of a trace, with what names its allocations in messages.
#[derive(Debug, Default)]
pub struct Imported {
    pub log: Vec<Entry>,
    pub names: HashMap<RegionId, String>,
    /// Per entry's line (the call number): the driver call's name.
    pub calls: HashMap<u32, String>,
    /// Kernel launches logged without the memory they touch (their parameters not read).
    pub kernels: u64,
    /// The first such launch's reason, as the library recorded it (`params_error`).
    pub params_refused: Option<String>,
    /// Per launch's line whose ranges were assumed from its pointer parameters: what was
    /// assumed, for the finding to say.
    pub assumed: HashMap<u32, String>,
}

/// One allocation the trace saw, or a host block it inferred from a copy (pageable).
struct Region {
    base: u64,
    bytes: u64,
    id: RegionId,
    kind: MemKind,
}

#[derive(Default)]
struct Importer {
    out: Imported,
    /// The allocations alive now (a free removes one).
    regions: Vec<Region>,
    /// How many regions were ever made: the next one's id (ids are never reused, so a block
    /// allocated at a freed one's address is another allocation).
    made: u32,
    /// Allocations whose address a later allocation returned before their free's record came
    /// (threads: the free's record is written when it returns, after the other thread's
    /// allocation may already have got the memory): the free, when it comes, is theirs.
    freed_early: HashMap<u64, Vec<RegionId>>,
    streams: HashMap<u64, StreamId>,
    events: HashMap<u64, EventId>,
    line: u32,
}

/// The call log of `trace`'s successful driver calls, in file order.
pub fn import(trace: &Trace) -> Imported {
    let mut im = Importer::default();
    for record in &trace.records {
        if let Record::Api(call) = record {
            im.line += 1;
            if call.ret == 0 {
                im.call(call);
            }
        }
    }
    im.out
}

/// The kernel's count, by the usual `(T *p, ..., size_t n)` idiom: the value of its last
/// integer parameter whose value the trace holds, with that parameter's index.
fn last_count(shapes: &[mangled::Shape], values: &[Option<u64>]) -> Option<(u64, usize)> {
    shapes.iter().enumerate().rev().find_map(|(i, s)| {
        s.integer
            .then(|| values.get(i).copied().flatten())
            .flatten()
            .map(|v| (v, i))
    })
}

/// The legacy default stream's handles: null, and `CU_STREAM_LEGACY` (1).
fn is_legacy(handle: u64) -> bool {
    handle <= 1
}

/// `CU_STREAM_PER_THREAD`.
const PER_THREAD: u64 = 2;

impl Importer {
    fn push(&mut self, name: &str, call: Call) {
        self.out.calls.insert(self.line, name.to_string());
        self.out.log.push(Entry {
            line: self.line,
            call,
        });
    }

    fn call(&mut self, c: &ApiCall) {
        let Some(driver) = driver_calls::of(&c.name) else {
            return;
        };
        let n = c.name.as_str();
        match driver {
            Driver::Copy => self.copy(c),
            Driver::Memset => self.memset(c),
            Driver::HostFunc => self.queued(c, DeviceOpKind::HostFunc, "cudaLaunchHostFunc", None),
            Driver::Launch => self.launch(c),
            Driver::AllocAsync => self.alloc_async(c),
            Driver::FreeAsync => self.free_async(c),
            Driver::AllocDevice => {
                self.alloc(c, MemKind::Device, CallId::CudaMalloc);
            }
            Driver::AllocPinned => {
                self.alloc(c, MemKind::Pinned, CallId::CudaMallocHost);
            }
            Driver::Register => self.register(c),
            Driver::Unregister => {
                if let Some(id) = self.region_at(c.ptr.unwrap_or(0)).map(|r| r.id) {
                    self.push(n, Call::Unregister { region: id });
                }
            }
            Driver::FreeHost => self.free(c, CallId::CudaFreeHost),
            Driver::Free => self.free(c, CallId::CudaFree),
            Driver::StreamCreate => self.stream_create(c),
            Driver::StreamDestroy => {
                let stream = self.stream(c);
                if stream != StreamId::LEGACY_DEFAULT {
                    self.push(n, Call::StreamDestroy { stream });
                }
            }
            Driver::StreamSynchronize => {
                let stream = self.stream(c);
                self.push(n, Call::StreamSync { stream });
            }
            Driver::StreamWaitEvent => {
                let stream = self.stream(c);
                if let Some(event) = self.event_of(c) {
                    self.push(n, Call::StreamWaitEvent { stream, event });
                }
            }
            Driver::EventCreate => self.event_create(c),
            Driver::EventRecord => {
                let stream = self.stream(c);
                if let Some(event) = self.event_of(c) {
                    self.push(n, Call::EventRecord { event, stream });
                }
            }
            Driver::EventSynchronize => {
                if let Some(event) = self.event_of(c) {
                    self.push(n, Call::EventSync { event });
                }
            }
            Driver::EventDestroy => {
                if let Some(event) = c.event.and_then(|e| self.events.remove(&e)) {
                    self.push(n, Call::EventDestroy { event });
                }
            }
            Driver::CtxSynchronize => self.push(n, Call::DeviceSync),
        }
    }

    /// A stream-ordered op of `c`'s stream that is no copy, memset or kernel (`label` is the
    /// runtime call it stands for), writing `range` when it has one.
    fn queued(&mut self, c: &ApiCall, kind: DeviceOpKind, label: &str, range: Option<Range>) {
        let stream = self.stream(c);
        let op = DeviceOp::queued(
            stream,
            kind,
            label.into(),
            vec![],
            range.into_iter().collect(),
        );
        self.push(&c.name, Call::Device(op));
    }

    /// `cuMemAllocAsync`: an allocation, and the stream-ordered op that makes it.
    fn alloc_async(&mut self, c: &ApiCall) {
        if let Some(range) = self.alloc(c, MemKind::Device, CallId::CudaMallocAsync) {
            self.queued(c, DeviceOpKind::AllocAsync, "cudaMallocAsync", Some(range));
        }
    }

    /// `cuMemFreeAsync`: the stream-ordered op that writes (ends) the whole allocation.
    fn free_async(&mut self, c: &ApiCall) {
        if let Some(r) = self.region_at(c.ptr.unwrap_or(0)) {
            let range = Range {
                region: r.id,
                start: 0,
                end: r.bytes,
            };
            self.queued(c, DeviceOpKind::FreeAsync, "cudaFreeAsync", Some(range));
        }
    }

    /// `cuEventCreate`: the event's handle gets the next id.
    fn event_create(&mut self, c: &ApiCall) {
        if let Some(handle) = c.event {
            let id = EventId(self.events.len() as u32 + 1);
            self.events.insert(handle, id);
            self.push(&c.name, Call::EventCreate { event: id });
        }
    }

    /// The event a call names, if the trace saw it made.
    fn event_of(&self, c: &ApiCall) -> Option<EventId> {
        c.event.and_then(|e| self.events.get(&e).copied())
    }

    /// `cuStreamCreate*`: blocking unless flags has `CU_STREAM_NON_BLOCKING`.
    fn stream_create(&mut self, c: &ApiCall) {
        let Some(handle) = c.stream else { return };
        let id = StreamId(self.streams.len() as u32 + 1);
        self.streams.insert(handle, id);
        let blocking = c.flags.unwrap_or(0) & 1 == 0;
        self.push(
            &c.name,
            Call::StreamCreate {
                stream: id,
                blocking,
                name: format!("stream {}", id.0),
            },
        );
    }

    /// The stream a call names: created ones by handle, null and `CU_STREAM_LEGACY` the legacy
    /// default stream, `CU_STREAM_PER_THREAD` the per-thread one (made on first use).
    fn stream(&mut self, c: &ApiCall) -> StreamId {
        let handle = c.stream.unwrap_or(0);
        if is_legacy(handle) {
            return StreamId::LEGACY_DEFAULT;
        }
        if let Some(id) = self.streams.get(&handle) {
            return *id;
        }
        // A stream made before tracing began, or the per-thread one: blocking either way.
        let id = StreamId(self.streams.len() as u32 + 1);
        self.streams.insert(handle, id);
        let call = if handle == PER_THREAD {
            Call::PerThreadStream { stream: id }
        } else {
            Call::StreamCreate {
                stream: id,
                blocking: true,
                name: format!("stream {}", id.0),
            }
        };
        self.out.log.push(Entry {
            line: self.line,
            call,
        });
        id
    }

    fn region_at(&self, addr: u64) -> Option<&Region> {
        self.regions
            .iter()
            .rev()
            .find(|r| r.base <= addr && addr < r.base.saturating_add(r.bytes.max(1)))
    }

    fn new_region(&mut self, base: u64, bytes: u64, kind: MemKind, call: CallId) -> RegionId {
        let id = RegionId(self.made);
        self.made += 1;
        self.regions.push(Region {
            base,
            bytes,
            id,
            kind,
        });
        let what = match kind {
            MemKind::Device => "device",
            MemKind::Pinned => "pinned",
            MemKind::Pageable => "pageable",
        };
        self.out
            .names
            .insert(id, format!("{what} memory at {base:#x}"));
        self.out.log.push(Entry {
            line: self.line,
            call: Call::Alloc {
                region: id,
                kind,
                bytes,
                call,
            },
        });
        id
    }

    fn alloc(&mut self, c: &ApiCall, kind: MemKind, call: CallId) -> Option<Range> {
        let (ptr, bytes) = (c.ptr?, c.bytes?);
        // The address is still held: its owner was freed by a record not yet read.
        while let Some(at) = self.regions.iter().position(|r| r.base == ptr) {
            let old = self.regions.remove(at);
            self.freed_early.entry(ptr).or_default().push(old.id);
        }
        let region = self.new_region(ptr, bytes, kind, call);
        self.out.calls.insert(self.line, c.name.clone());
        Some(Range {
            region,
            start: 0,
            end: bytes,
        })
    }

    fn register(&mut self, c: &ApiCall) {
        let (Some(ptr), Some(bytes)) = (c.ptr, c.bytes) else {
            return;
        };
        let id = match self.region_at(ptr) {
            Some(r) if r.kind == MemKind::Pageable => r.id,
            _ => self.new_region(ptr, bytes, MemKind::Pageable, CallId::Malloc),
        };
        self.push(&c.name, Call::Register { region: id });
    }

    fn free(&mut self, c: &ApiCall, call: CallId) {
        let Some(ptr) = c.ptr else { return };
        if let Some(early) = self.freed_early.get_mut(&ptr)
            && !early.is_empty()
        {
            let region = early.remove(0);
            self.push(&c.name, Call::Free { region, call });
            return;
        }
        let Some(at) = self.regions.iter().rposition(|r| r.base == ptr) else {
            return;
        };
        let region = self.regions.remove(at).id;
        self.push(&c.name, Call::Free { region, call });
    }

    /// The range at `addr` of `bytes`; host memory no allocation holds is `malloc` memory
    /// (pageable), a block made for it.
    fn range(&mut self, addr: u64, bytes: u64, host: bool) -> Range {
        if let Some(r) = self.region_at(addr) {
            let start = addr - r.base;
            return Range {
                region: r.id,
                start,
                end: start + bytes,
            };
        }
        let kind = if host {
            MemKind::Pageable
        } else {
            MemKind::Device
        };
        let call = if host {
            CallId::Malloc
        } else {
            CallId::CudaMalloc
        };
        let region = self.new_region(addr, bytes, kind, call);
        Range {
            region,
            start: 0,
            end: bytes,
        }
    }

    fn is_pageable(&self, range: &Range) -> bool {
        self.regions
            .iter()
            .any(|r| r.id == range.region && r.kind == MemKind::Pageable)
    }

    fn copy(&mut self, c: &ApiCall) {
        let (Some(dst), Some(src), Some(bytes)) = (c.dst, c.src, c.bytes) else {
            return;
        };
        let (way, kind) = match c.copy.as_deref() {
            Some("htod") => (Way::HostToDevice, DeviceOpKind::CopyH2D),
            Some("dtoh") => (Way::DeviceToHost, DeviceOpKind::CopyD2H),
            Some("dtod") => (Way::DeviceToDevice, DeviceOpKind::CopyD2D),
            // Unified-addressing copies: which side is host is known from the allocations.
            Some("default") => match (self.host_side(src), self.host_side(dst)) {
                (true, false) => (Way::HostToDevice, DeviceOpKind::CopyH2D),
                (false, true) => (Way::DeviceToHost, DeviceOpKind::CopyD2H),
                _ => (Way::DeviceToDevice, DeviceOpKind::CopyD2D),
            },
            _ => return,
        };
        let src_range = self.range(src, bytes, way == Way::HostToDevice);
        let dst_range = self.range(dst, bytes, way == Way::DeviceToHost);
        let sync = !c.name.contains("Async");
        let host = match way {
            Way::HostToDevice => Some(src_range),
            Way::DeviceToHost => Some(dst_range),
            Way::DeviceToDevice => None,
        };
        let pageable = host.is_some_and(|r| self.is_pageable(&r));
        let stream = self.stream(c);
        let name = if sync {
            "cudaMemcpy"
        } else {
            "cudaMemcpyAsync"
        };
        let mut op = DeviceOp::queued(stream, kind, name.into(), vec![src_range], vec![dst_range]);
        op.rule = Some(rules::copy(sync, way, pageable));
        op.pageable_async = !sync && pageable;
        self.push(&c.name, Call::Device(op));
    }

    /// Whether `addr` is host memory: in a host allocation, or in none (then `malloc`'s).
    fn host_side(&self, addr: u64) -> bool {
        self.region_at(addr)
            .is_none_or(|r| r.kind != MemKind::Device)
    }

    /// A kernel launch, touching what its pointer parameters point into.
    fn launch(&mut self, c: &ApiCall) {
        let stream = self.stream(c);
        let kernel = c.kernel.clone().unwrap_or_else(|| "kernel".into());
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        match &c.params {
            None => {
                self.out.kernels += 1;
                if self.out.params_refused.is_none() {
                    self.out.params_refused = c.params_error.clone();
                }
            }
            Some(values) => {
                let shapes = mangled::shapes(&kernel);
                let count = last_count(&shapes, values);
                let mut said = Vec::new();
                for (index, value) in values.iter().enumerate() {
                    let Some(r) = value.and_then(|v| self.region_at(v).map(|r| (v, r))) else {
                        continue;
                    };
                    let (addr, region) = r;
                    let start = addr - region.base;
                    let to_end = region.bytes.saturating_sub(start);
                    let shape = shapes.get(index);
                    // `T *p` with a count `n`: the kernel touches `n` elements from `p`, when
                    // that fits in the allocation; else, to the allocation's end.
                    let counted = shape
                        .and_then(|s| s.elem_bytes)
                        .zip(count)
                        .map(|(elem, (n, at))| (n.saturating_mul(elem), at))
                        .filter(|(bytes, _)| *bytes > 0 && *bytes <= to_end);
                    let range = Range {
                        region: region.id,
                        start,
                        end: start + counted.map_or(to_end, |(bytes, _)| bytes),
                    };
                    let extent = match counted {
                        Some((bytes, at)) => {
                            format!("{bytes} bytes: parameter {} elements", at + 1)
                        }
                        None => "to the end of its allocation".to_string(),
                    };
                    let what = match shape.map_or(mangled::Param::Unknown, |s| s.param) {
                        mangled::Param::ConstPointer => {
                            reads.push(range);
                            "read"
                        }
                        mangled::Param::Unknown => {
                            writes.push(range);
                            "read and written (its type is not known from the name)"
                        }
                        mangled::Param::Pointer | mangled::Param::Value => {
                            writes.push(range);
                            "read and written"
                        }
                    };
                    said.push(format!("parameter {} {what}, {extent}", index + 1));
                }
                if !said.is_empty() {
                    self.out.assumed.insert(
                        self.line,
                        format!(
                            "the kernel's ranges are assumed: each pointer parameter from its address, as many elements as the kernel's last integer parameter, or to the end of its allocation ({})",
                            said.join("; ")
                        ),
                    );
                }
            }
        }
        let op = DeviceOp::queued(
            stream,
            DeviceOpKind::Kernel,
            format!("{kernel}<<<…>>>"),
            reads,
            writes,
        );
        self.push(&c.name, Call::Device(op));
    }

    fn memset(&mut self, c: &ApiCall) {
        let Some(dst) = c.dst else { return };
        let bytes = c.elem.unwrap_or(1) * c.count.unwrap_or(0) * c.height.unwrap_or(1).max(1);
        let range = self.range(dst, bytes, false);
        let stream = self.stream(c);
        let name = if c.name.contains("Async") {
            "cudaMemsetAsync"
        } else {
            "cudaMemset"
        };
        let op = DeviceOp::queued(
            stream,
            DeviceOpKind::Memset,
            name.into(),
            vec![],
            vec![range],
        );
        self.push(&c.name, Call::Device(op));
    }
}
