//! The host's own accesses in the checker: reads and writes of memory an op in flight may
//! still write or read, frees of memory it may still use, and elapsed times read from events
//! not known to have happened.

use super::{Checker, HazardKind, messages};
use crate::exercise::log::{Range, RegionId};

impl<'a> Checker<'a> {
    /// `cudaEventElapsedTime` on an event the host does not know has completed: CUDA answers
    /// cudaErrorNotReady, and a program that ignores it times nothing.
    pub(super) fn elapsed(&mut self, line: u32, events: [u32; 2]) {
        for ev in events {
            let pending = match self.model.last_record(ev) {
                Ok(Some((op, _))) if !self.model.host_knows_done(op) => Some(op),
                _ => None,
            };
            if let Some(&rec_line) = pending.and_then(|op| self.record_lines.get(&op)) {
                self.report(
                    HazardKind::ReadBeforeSync,
                    line,
                    Some(rec_line),
                    format!("`cudaEventElapsedTime` reads the event recorded on line {rec_line} before it is known to have happened (CUDA answers cudaErrorNotReady); call `cudaEventSynchronize` on it first"),
                );
            }
        }
    }

    pub(super) fn host_access(&mut self, line: u32, range: &Range, what: &str, write: bool) {
        if !self.touched(range.region) {
            return;
        }
        let all: Vec<usize> = (0..self.in_flight.len()).collect();
        self.host_access_against(line, range, what, write, &all);
    }

    /// A host access against the in-flight ops numbered `ops`.
    pub(super) fn host_access_against(
        &mut self,
        line: u32,
        range: &Range,
        what: &str,
        write: bool,
        ops: &[usize],
    ) {
        if !self.touched(range.region) {
            return;
        }
        let mut found = Vec::new();
        for o in ops.iter().filter_map(|&i| self.in_flight.get(i)) {
            let op_writes = o.writes().iter().any(|r| r.overlaps(range));
            let op_reads = o.reads().iter().any(|r| r.overlaps(range));
            // A host write conflicts with any use; a host read only with a device write.
            if op_writes || (write && op_reads) {
                found.push((o.line, o.op.call.clone(), op_writes));
            }
        }
        let name = self.name(range.region);
        for (other, call, op_writes) in found {
            let (kind, message) = if write {
                let doing = if op_writes { "writing" } else { "reading" };
                (
                    HazardKind::WriteWhileInFlight,
                    format!(
                        "{what} of `{name}` while the `{call}` on line {other} may still be {doing} it; wait for it first (cudaStreamSynchronize or an event)"
                    ),
                )
            } else {
                (
                    HazardKind::ReadBeforeSync,
                    format!(
                        "{what} of `{name}` before the `{call}` on line {other} is known to have finished writing it; synchronise first (cudaStreamSynchronize, cudaEventSynchronize or cudaDeviceSynchronize)"
                    ),
                )
            };
            self.report(kind, line, Some(other), message);
        }
    }

    /// Whether an op in flight reads or writes `region`.
    pub(super) fn touched(&self, region: RegionId) -> bool {
        self.touching.get(&region).is_some_and(|&n| n > 0)
    }

    /// Freeing memory queued work may still use. The free is not counted as a
    /// synchronisation: the API promises none (today's driver waits; `ordering::rules`).
    pub(super) fn release(&mut self, line: u32, region: RegionId, call: &str) {
        let users: Vec<(u32, String)> = self
            .in_flight
            .iter()
            .filter(|o| {
                o.reads()
                    .iter()
                    .chain(o.writes())
                    .any(|r| r.region == region)
            })
            .map(|o| (o.line, o.op.call.clone()))
            .collect();
        for (other, op) in users {
            let message = messages::free_in_flight(self, call, region, &op, other);
            self.report(HazardKind::FreeWhileInFlight, line, Some(other), message);
        }
    }
}
