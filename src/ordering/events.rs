//! Events: a record captures what its stream's next op would wait for; a wait orders its
//! stream's later ops after the event's last record at the time of the wait call.

use super::{Clock, Event, Issued, Model, OpRef, Refused};

impl Model {
    /// A new event `id` (never recorded).
    pub fn create_event(&mut self, id: u32) {
        self.events.insert(id, Event::default());
    }

    pub fn destroy_event(&mut self, id: u32) -> Result<(), Refused> {
        self.events
            .remove(&id)
            .map(|_| ())
            .ok_or(Refused::UnknownEvent(id))
    }

    /// `cudaEventRecord(event, stream)`: an op of `stream` capturing what it is ordered after.
    pub fn record(&mut self, event: u32, stream: u32) -> Result<Issued, Refused> {
        if !self.events.contains_key(&event) {
            return Err(Refused::UnknownEvent(event));
        }
        let issued = self.issue(stream)?;
        let mut captured = issued.after.clone();
        captured.cover(issued.op.stream, issued.op.seq);
        if let Some(e) = self.events.get_mut(&event) {
            e.record = Some((issued.op, captured));
        }
        Ok(issued)
    }

    /// The event's last record and what it captured (`None` if never recorded).
    pub fn last_record(&self, event: u32) -> Result<Option<(OpRef, &Clock)>, Refused> {
        let e = self
            .events
            .get(&event)
            .ok_or(Refused::UnknownEvent(event))?;
        Ok(e.record.as_ref().map(|(op, c)| (*op, c)))
    }

    /// Whether event `id` exists (created and not destroyed).
    pub fn event_exists(&self, id: u32) -> bool {
        self.events.contains_key(&id)
    }

    /// Whether event `id` exists and was recorded at least once.
    pub fn ever_recorded(&self, id: u32) -> bool {
        self.events.get(&id).is_some_and(|e| e.record.is_some())
    }

    /// The events that exist, in id order.
    pub fn live_events(&self) -> impl Iterator<Item = u32> + '_ {
        self.events.keys().copied()
    }

    /// `cudaStreamWaitEvent(stream, event)`: a marker op of `stream` after the event's last
    /// record, so the stream's later ops wait for it.
    pub fn wait_event(&mut self, stream: u32, event: u32) -> Result<Issued, Refused> {
        let extra = self
            .last_record(event)?
            .map(|(op, clock)| (op, clock.clone()));
        self.issue_after(stream, extra)
    }
}
