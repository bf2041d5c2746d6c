//! Device ops in the checker: each issued op is ordered by the model, judged against every op in
//! flight that nothing orders before it (a `device-race`, or a host function's conflict booked
//! at its body's line), and joins the ops in flight until the host learns it has completed.

use super::{Checker, HazardKind, InFlight, messages, regions};
use crate::exercise::log::{DeviceOp, DeviceOpKind, HostWait};
use crate::ordering::{Issued, LEGACY};

impl<'a> Checker<'a> {
    pub(super) fn device(&mut self, at: usize, line: u32, op: &'a DeviceOp) {
        let Ok(issued) = self.model.issue(op.stream.0) else {
            return;
        };
        // The model's barrier at the issue, destroyed-but-busy blocking streams included (read
        // before the host learns what this call waited for).
        let fenced = self.model.legacy_barrier_streams().next().is_some();
        // A host function's accesses are known once its body has run (`host_funcs.rs`).
        if op.kind != DeviceOpKind::HostFunc {
            // First, so a use after the free gets the message that says so.
            self.use_after_free_async(line, op);
            self.device_races(line, op, &issued);
        }
        match op.host_wait() {
            HostWait::None | HostWait::SourceTaken => {}
            HostWait::Staged => self.model.learn_before(&issued),
            HostWait::Completion => self.model.learn_op(&issued),
        }
        if op.pageable_async {
            let message = messages::pageable_async(self, op);
            self.report(HazardKind::PageableAsync, line, None, message);
        }
        if self.overlap && op.stream.0 == LEGACY && fenced {
            self.report(
                HazardKind::DefaultStream,
                line,
                None,
                format!("`{}` on the legacy default stream waits for, and holds up, every blocking stream (Runtime API, \"Stream synchronization behavior\"); issue it to a stream of its own and order it with events where it must wait. A stream made with cudaStreamNonBlocking unties work from the legacy stream, but then nothing orders the work left on stream 0 with it", op.call),
            );
        }
        for r in regions(&op.reads, &op.writes) {
            *self.touching.entry(r).or_insert(0) += 1;
        }
        self.in_flight_by_stream
            .entry(issued.op.stream)
            .or_default()
            .push(self.in_flight.len());
        self.in_flight.push(InFlight {
            issued,
            line,
            op,
            at,
            source_taken: matches!(op.host_wait(), HostWait::SourceTaken | HostWait::Staged),
            body: None,
        });
    }

    /// `op` against every device op still in flight that the model does not order before it.
    /// `op` uses memory a `cudaFreeAsync` issued before it freed: undefined whatever orders
    /// them (Runtime API, `cudaFreeAsync`: "After this API returns, accessing the memory from
    /// any subsequent work launched on the GPU ... results in undefined behavior"), reported as
    /// a `device-race` with the free's line, as the corpus books a use outside the allocation's
    /// stream order (rule M).
    fn use_after_free_async(&mut self, line: u32, op: &DeviceOp) {
        if op.kind == DeviceOpKind::FreeAsync {
            if let Some(w) = op.writes.first() {
                self.freed_async.insert(w.region, line);
            }
            return;
        }
        let used: Vec<(u32, crate::exercise::log::RegionId)> = op
            .reads
            .iter()
            .chain(&op.writes)
            .filter_map(|r| self.freed_async.get(&r.region).map(|&l| (l, r.region)))
            .collect();
        for (free_line, region) in used {
            let name = self.name(region);
            let message = format!(
                "`{}` uses `{name}` after the `cudaFreeAsync` on line {free_line} freed it (undefined: the pool may already have given the memory to another allocation); free it after its last use, in the same stream or after an event that follows that use",
                op.call
            );
            self.report(HazardKind::DeviceRace, line, Some(free_line), message);
        }
    }

    pub(super) fn device_races(&mut self, line: u32, op: &DeviceOp, issued: &Issued) {
        let mut found = Vec::new();
        let mut host = Vec::new();
        // Ops of `op`'s own stream are ordered before it; on another stream, an op's seq grows
        // with its index, and the model orders `op` after every op up to some seq of that
        // stream: newest first, stop at the first one ordered.
        let unordered = self
            .in_flight_by_stream
            .iter()
            .filter(|&(&stream, _)| stream != issued.op.stream)
            .flat_map(|(_, ops)| {
                ops.iter()
                    .rev()
                    .filter_map(|&i| self.in_flight.get(i))
                    .take_while(|o| !issued.is_after(o.issued.op))
            });
        for o in unordered {
            // A host function's accesses are the host's: booked at the body's line.
            if let Some(body) = &o.body {
                host.extend(body.conflicts(
                    op.reads.iter().chain(&op.writes),
                    &op.writes,
                    line,
                    &op.call,
                ));
                continue;
            }
            let conflict = o
                .writes()
                .iter()
                .find(|w| op.reads.iter().chain(&op.writes).any(|x| x.overlaps(w)))
                .or_else(|| {
                    o.reads()
                        .iter()
                        .find(|r| op.writes.iter().any(|w| w.overlaps(r)))
                });
            if let Some(range) = conflict {
                found.push((o.line, o.op, range.region));
            }
        }
        for (other_line, other, region) in found {
            let message =
                messages::device_race(self, (op, issued.op.stream), other, other_line, region);
            self.report(HazardKind::DeviceRace, line, Some(other_line), message);
        }
        self.report_body_conflicts(host);
    }
}
