//! A small in-memory `Machine` for tests: contents are kept as descriptions (which fill seed,
//! shifted how, transformed how often), so 256 MiB buffers cost nothing; time follows a plain
//! model (one copy engine per direction, one compute queue, pageable copies block the host at a
//! fifth of pinned bandwidth, pinned allocation is slow). It also records every call by name.

mod contents;

use std::collections::HashMap;

use contents::{Fill, Seg, carry, put};

use cuda_academy::exercise::machine::{EventId, MResult, Machine};
use cuda_academy::gpu::{DevBuf, DeviceInfo, HostBuf, StreamId, StreamKind};
use cuda_academy::report::{BackendInfo, BackendKind, HostMemKind, Op, OpKind, TimingSource};

const PINNED_BYTES_PER_US: f64 = 50_000.0; // 50 GB/s
const PAGEABLE_BYTES_PER_US: f64 = 10_000.0; // 10 GB/s
const KERNEL_BYTES_PER_US: f64 = 1_000_000.0; // 1 TB/s
const PIN_BYTES_PER_US: f64 = 3_000.0; // ~350 ms per GiB
const CALL_US: f64 = 2.0;

#[derive(Default)]
struct Buf {
    bytes: u64,
    kind: Option<HostMemKind>,
    segs: Vec<Seg>,
}

pub struct FakeMachine {
    info: DeviceInfo,
    host: HashMap<u32, Buf>,
    dev: HashMap<u32, Buf>,
    next: u32,
    now: f64,
    ready: HashMap<u32, f64>,
    blocking: HashMap<u32, bool>,
    events: HashMap<u32, f64>,
    engines: [f64; 3], // H2D, D2H, compute
    ops: Vec<Op>,
    /// Every call by contract name, in order.
    pub calls: Vec<&'static str>,
}

impl FakeMachine {
    pub fn new() -> Self {
        FakeMachine {
            info: DeviceInfo {
                backend: BackendInfo {
                    kind: BackendKind::Simulated,
                    device: "fake".into(),
                    profile: None,
                    reason: Some("test".into()),
                    timing: TimingSource::Model,
                },
                name: "fake".into(),
                compute_capability: (9, 0),
                total_mem: 80 << 30,
                free_mem: 80 << 30,
                copy_engines: 2,
                kernels_available: true,
                holds_host_bytes: true,
                simulated_host_bytes: None,
            },
            host: HashMap::new(),
            dev: HashMap::new(),
            next: 1,
            now: 0.0,
            ready: HashMap::new(),
            blocking: HashMap::new(),
            events: HashMap::new(),
            engines: [0.0; 3],
            ops: Vec::new(),
            calls: Vec::new(),
        }
    }

    fn id(&mut self) -> u32 {
        self.next += 1;
        self.next
    }

    /// When work queued on `s` may start: its stream, plus the legacy stream's barriers.
    fn waits(&self, s: u32) -> f64 {
        let own = self.ready.get(&s).copied().unwrap_or(0.0);
        if s == 0 {
            self.blocking
                .iter()
                .filter(|(_, b)| **b)
                .map(|(k, _)| self.ready.get(k).copied().unwrap_or(0.0))
                .fold(own, f64::max)
        } else if self.blocking.get(&s) == Some(&true) {
            own.max(self.ready.get(&0).copied().unwrap_or(0.0))
        } else {
            own
        }
    }

    /// Queue an op of `dur_us` on stream `s` and engine `e`; returns its end.
    fn queue(
        &mut self,
        s: StreamId,
        e: usize,
        dur_us: f64,
        kind: OpKind,
        bytes: u64,
        label: &str,
    ) -> f64 {
        self.now += CALL_US;
        let start = self.now.max(self.waits(s.0)).max(self.engines[e]);
        let end = start + dur_us;
        self.engines[e] = end;
        self.ready.insert(s.0, end);
        self.ops.push(Op {
            stream: s.0,
            kind,
            start_us: start,
            end_us: end,
            bytes,
            host_mem: None,
            engine: Some(e as u32),
            start_inferred: false,
            label: label.into(),
        });
        end
    }
}

impl Machine for FakeMachine {
    fn info(&self) -> &DeviceInfo {
        &self.info
    }
    fn host_alloc(&mut self, bytes: u64, kind: HostMemKind) -> MResult<HostBuf> {
        self.calls.push("host_alloc");
        self.now += if kind == HostMemKind::Pageable {
            1.0
        } else {
            bytes as f64 / PIN_BYTES_PER_US
        };
        let id = self.id();
        self.host.insert(
            id,
            Buf {
                bytes,
                kind: Some(kind),
                segs: Vec::new(),
            },
        );
        Ok(HostBuf(id))
    }
    fn host_free(&mut self, buf: HostBuf) -> MResult<()> {
        self.calls.push("host_free");
        self.host.remove(&buf.0);
        Ok(())
    }
    fn host_register(&mut self, buf: HostBuf) -> MResult<()> {
        self.calls.push("host_register");
        if let Some(b) = self.host.get_mut(&buf.0) {
            b.kind = Some(HostMemKind::Registered);
            self.now += b.bytes as f64 / (PIN_BYTES_PER_US * 30.0);
        }
        Ok(())
    }
    fn host_unregister(&mut self, buf: HostBuf) -> MResult<()> {
        self.calls.push("host_unregister");
        if let Some(b) = self.host.get_mut(&buf.0) {
            b.kind = Some(HostMemKind::Pageable);
        }
        Ok(())
    }
    fn host_fill(&mut self, buf: HostBuf, seed: u32) -> MResult<()> {
        self.calls.push("host_fill");
        if let Some(b) = self.host.get_mut(&buf.0) {
            b.segs = vec![Seg {
                start: 0,
                end: b.bytes,
                fill: Fill::Pattern {
                    seed,
                    origin: 0,
                    t: 0,
                },
            }];
        }
        Ok(())
    }
    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> MResult<f32> {
        self.calls.push("host_read_f32");
        let o = index * 4;
        let seg = self
            .host
            .get(&buf.0)
            .and_then(|b| b.segs.iter().find(|s| s.start <= o && o < s.end).copied());
        Ok(seg.map_or(f32::NAN, |s| contents::value(s.fill, o)))
    }
    fn host_write_f32(&mut self, buf: HostBuf, index: u64, value: f32) -> MResult<()> {
        self.calls.push("host_write_f32");
        if let Some(b) = self.host.get_mut(&buf.0) {
            let o = index * 4;
            put(
                &mut b.segs,
                o,
                o + 4,
                vec![Seg {
                    start: o,
                    end: o + 4,
                    fill: Fill::Value(value),
                }],
            );
        }
        Ok(())
    }
    fn host_copy(
        &mut self,
        dst: HostBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        self.calls.push("host_copy");
        let moved = carry(
            &self.host[&src.0].segs,
            src_off,
            bytes,
            dst_off as i64 - src_off as i64,
            0,
        );
        if let Some(b) = self.host.get_mut(&dst.0) {
            put(&mut b.segs, dst_off, dst_off + bytes, moved);
        }
        Ok(())
    }
    fn host_holds_transform_of_fill(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        seed: u32,
    ) -> MResult<bool> {
        self.calls.push("host_holds_transform_of_fill");
        let Some(b) = self.host.get(&buf.0) else {
            return Ok(false);
        };
        let mut covered = off;
        for s in b
            .segs
            .iter()
            .filter(|s| s.end > off && s.start < off + bytes)
        {
            let right = s.start <= covered
                && matches!(s.fill, Fill::Pattern { seed: sd, origin, t: 1 } if sd == seed && origin == off as i64);
            if !right {
                return Ok(false);
            }
            covered = s.end;
        }
        Ok(covered >= off + bytes)
    }
    fn device_alloc(&mut self, bytes: u64) -> MResult<DevBuf> {
        self.calls.push("device_alloc");
        self.now += 10.0;
        let id = self.id();
        self.dev.insert(
            id,
            Buf {
                bytes,
                kind: None,
                segs: Vec::new(),
            },
        );
        Ok(DevBuf(id))
    }
    fn device_free(&mut self, buf: DevBuf) -> MResult<()> {
        self.calls.push("device_free");
        self.dev.remove(&buf.0);
        Ok(())
    }
    fn stream_create(&mut self, kind: StreamKind) -> MResult<StreamId> {
        self.calls.push("stream_create");
        let id = self.id();
        self.blocking.insert(id, kind == StreamKind::Blocking);
        Ok(StreamId(id))
    }
    fn stream_destroy(&mut self, stream: StreamId) -> MResult<()> {
        self.calls.push("stream_destroy");
        self.blocking.remove(&stream.0);
        Ok(())
    }
    fn stream_sync(&mut self, stream: StreamId) -> MResult<()> {
        self.calls.push("stream_sync");
        self.now = self
            .now
            .max(self.ready.get(&stream.0).copied().unwrap_or(0.0));
        Ok(())
    }
    fn device_sync(&mut self) -> MResult<()> {
        self.calls.push("device_sync");
        self.now = self.ready.values().copied().fold(self.now, f64::max);
        Ok(())
    }
    fn copy_h2d_async(
        &mut self,
        s: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        self.calls.push("copy_h2d_async");
        let pageable = self.host[&src.0].kind == Some(HostMemKind::Pageable);
        let rate = if pageable {
            PAGEABLE_BYTES_PER_US
        } else {
            PINNED_BYTES_PER_US
        };
        let end = self.queue(s, 0, bytes as f64 / rate, OpKind::H2d, bytes, "H2D");
        if pageable {
            self.now = end; // the driver stages pageable memory: the call returns when done
        }
        let moved = carry(
            &self.host[&src.0].segs,
            src_off,
            bytes,
            dst_off as i64 - src_off as i64,
            0,
        );
        if let Some(b) = self.dev.get_mut(&dst.0) {
            put(&mut b.segs, dst_off, dst_off + bytes, moved);
        }
        Ok(())
    }
    fn copy_d2h_async(
        &mut self,
        s: StreamId,
        dst: HostBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        self.calls.push("copy_d2h_async");
        let pageable = self.host[&dst.0].kind == Some(HostMemKind::Pageable);
        let rate = if pageable {
            PAGEABLE_BYTES_PER_US
        } else {
            PINNED_BYTES_PER_US
        };
        let end = self.queue(s, 1, bytes as f64 / rate, OpKind::D2h, bytes, "D2H");
        if pageable {
            self.now = end;
        }
        let moved = carry(
            &self.dev[&src.0].segs,
            src_off,
            bytes,
            dst_off as i64 - src_off as i64,
            0,
        );
        if let Some(b) = self.host.get_mut(&dst.0) {
            put(&mut b.segs, dst_off, dst_off + bytes, moved);
        }
        Ok(())
    }
    fn copy_d2d_async(
        &mut self,
        s: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        self.calls.push("copy_d2d_async");
        self.queue(
            s,
            2,
            bytes as f64 / KERNEL_BYTES_PER_US,
            OpKind::Kernel,
            bytes,
            "D2D",
        );
        let moved = carry(
            &self.dev[&src.0].segs,
            src_off,
            bytes,
            dst_off as i64 - src_off as i64,
            0,
        );
        if let Some(b) = self.dev.get_mut(&dst.0) {
            put(&mut b.segs, dst_off, dst_off + bytes, moved);
        }
        Ok(())
    }
    fn memset_async(
        &mut self,
        s: StreamId,
        dst: DevBuf,
        off: u64,
        bytes: u64,
        byte: u8,
    ) -> MResult<()> {
        self.calls.push("memset_async");
        self.queue(
            s,
            2,
            bytes as f64 / KERNEL_BYTES_PER_US,
            OpKind::Kernel,
            bytes,
            "memset",
        );
        let fill = if byte == 0 {
            Fill::Zero
        } else {
            Fill::Value(f32::NAN)
        };
        if let Some(b) = self.dev.get_mut(&dst.0) {
            put(
                &mut b.segs,
                off,
                off + bytes,
                vec![Seg {
                    start: off,
                    end: off + bytes,
                    fill,
                }],
            );
        }
        Ok(())
    }
    fn launch_transform_into(
        &mut self,
        s: StreamId,
        src: DevBuf,
        src_off: u64,
        dst: DevBuf,
        dst_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        self.calls.push("launch_transform_into");
        self.queue(
            s,
            2,
            2.0 * bytes as f64 / KERNEL_BYTES_PER_US,
            OpKind::Kernel,
            bytes,
            "transform",
        );
        let moved = carry(
            &self.dev[&src.0].segs,
            src_off,
            bytes,
            dst_off as i64 - src_off as i64,
            1,
        );
        if let Some(b) = self.dev.get_mut(&dst.0) {
            put(&mut b.segs, dst_off, dst_off + bytes, moved);
        }
        Ok(())
    }
    fn launch_spin_cycles(&mut self, s: StreamId, cycles: u64) -> MResult<()> {
        self.calls.push("launch_spin_cycles");
        self.queue(s, 2, cycles as f64 / 1_800.0, OpKind::Kernel, 0, "spin");
        Ok(())
    }
    fn event_create(&mut self, _timing: bool) -> MResult<EventId> {
        self.calls.push("event_create");
        let id = self.id();
        self.events.insert(id, 0.0);
        Ok(EventId(id))
    }
    fn event_destroy(&mut self, ev: EventId) -> MResult<()> {
        self.calls.push("event_destroy");
        self.events.remove(&ev.0);
        Ok(())
    }
    fn event_record(&mut self, ev: EventId, stream: StreamId) -> MResult<()> {
        self.calls.push("event_record");
        self.now += CALL_US;
        let t = self.now.max(self.waits(stream.0));
        self.events.insert(ev.0, t);
        self.ready.insert(stream.0, t);
        Ok(())
    }
    fn event_sync(&mut self, ev: EventId) -> MResult<()> {
        self.calls.push("event_sync");
        self.now = self.now.max(self.events.get(&ev.0).copied().unwrap_or(0.0));
        Ok(())
    }
    fn event_elapsed_ms(&mut self, start: EventId, end: EventId) -> MResult<f32> {
        self.calls.push("event_elapsed_ms");
        Ok(((self.events[&end.0] - self.events[&start.0]) / 1000.0) as f32)
    }
    fn stream_wait_event(&mut self, stream: StreamId, ev: EventId) -> MResult<()> {
        self.calls.push("stream_wait_event");
        let t = self.events.get(&ev.0).copied().unwrap_or(0.0);
        let r = self.ready.entry(stream.0).or_default();
        *r = r.max(t);
        Ok(())
    }
    fn host_now_us(&mut self) -> f64 {
        self.now
    }
    fn host_busy_us(&mut self, us: f64) -> MResult<()> {
        self.calls.push("host_busy_us");
        self.now += us;
        Ok(())
    }
    fn timeline_begin(&mut self) -> MResult<()> {
        self.ops.clear();
        Ok(())
    }
    fn timeline_end(&mut self) -> MResult<Vec<Op>> {
        Ok(std::mem::take(&mut self.ops))
    }
}
