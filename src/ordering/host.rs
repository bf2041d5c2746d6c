//! What the host knows has completed: stream, event and device synchronisation, a query that
//! answered "done", the calls whose rule makes the host wait for their op; and the destroyed
//! streams forgotten once their work is known done.

use super::{Clock, Issued, Model, OpRef, Refused};

impl Model {
    /// How many destroyed streams waits have looked at (see `forget_looks`).
    pub fn forget_looks(&self) -> u64 {
        self.forget_looks
    }

    /// What the host knows has completed.
    pub fn host(&self) -> &Clock {
        &self.host
    }

    /// Whether the host knows `op` has completed.
    pub fn host_knows_done(&self, op: OpRef) -> bool {
        self.host.covers(op.stream, op.seq)
    }

    /// What the host waits for in `cudaStreamSynchronize(id)` (for the legacy stream, the
    /// blocking streams' earlier work too: probe case `sync-legacy-waits-blocking`); the host
    /// learns it.
    pub fn sync_stream(&mut self, id: u32) -> Result<Vec<OpRef>, Refused> {
        let (direct, after) = self.frontier(id)?;
        self.learn(&after);
        Ok(direct)
    }

    /// What the host waits for in `cudaEventSynchronize(event)`; the host learns it.
    pub fn sync_event(&mut self, event: u32) -> Result<Option<OpRef>, Refused> {
        let Some((op, clock)) = self.last_record(event)?.map(|(o, c)| (o, c.clone())) else {
            return Ok(None);
        };
        self.learn(&clock);
        Ok(Some(op))
    }

    /// What the host waits for in `cudaDeviceSynchronize`: every stream's last op, destroyed
    /// ones included; the host learns all of it.
    pub fn sync_device(&mut self) -> Vec<OpRef> {
        let mut all = Clock::default();
        let mut last = Vec::new();
        for (id, s) in &self.streams {
            all.join(&s.tail);
            last.extend(s.last(*id));
        }
        self.learn(&all);
        last
    }

    /// What `cudaStreamQuery(id)` asks about: the ops that must have completed for it to
    /// answer `cudaSuccess`. Call [`Model::learn_stream`] when it did.
    pub fn query_stream(&self, id: u32) -> Result<Vec<OpRef>, Refused> {
        Ok(self.frontier(id)?.0)
    }

    /// The host saw stream `id` idle (a query answered `cudaSuccess`).
    pub fn learn_stream(&mut self, id: u32) -> Result<(), Refused> {
        let (_, after) = self.frontier(id)?;
        self.learn(&after);
        Ok(())
    }

    /// The host saw event `id` complete (a query answered `cudaSuccess`).
    pub fn learn_event(&mut self, event: u32) -> Result<(), Refused> {
        self.sync_event(event).map(|_| ())
    }

    /// The host waited for `issued` itself (a call whose rule makes the host wait for it).
    pub fn learn_op(&mut self, issued: &Issued) {
        let mut c = issued.after.clone();
        c.cover(issued.op.stream, issued.op.seq);
        self.learn(&c);
    }

    /// The host waited for what `issued` is ordered after, not for the op itself (a
    /// synchronous copy from pageable memory syncs its stream first).
    pub fn learn_before(&mut self, issued: &Issued) {
        self.learn(&issued.after);
    }

    fn learn(&mut self, c: &Clock) {
        self.host.join(c);
        self.forget_finished();
    }

    /// Destroyed streams whose work the host knows is done no longer hold anything.
    pub(super) fn forget_finished(&mut self) {
        let (host, streams) = (&self.host, &mut self.streams);
        self.forget_looks += self.destroyed.len() as u64;
        self.destroyed.retain(|id| match streams.get(id) {
            // Created again under its old number: alive, no longer destroyed.
            Some(s) if s.alive => false,
            Some(s) if host.covers(*id, s.seq) => {
                streams.remove(id);
                false
            }
            Some(_) => true,
            None => false,
        });
    }
}
