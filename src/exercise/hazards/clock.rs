//! Vector clocks over streams: for each stream, how many of its operations are known complete.

use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Clock(BTreeMap<u32, u64>);

impl Clock {
    /// Operations of `stream` known complete.
    pub fn get(&self, stream: u32) -> u64 {
        self.0.get(&stream).copied().unwrap_or(0)
    }

    pub fn set(&mut self, stream: u32, seq: u64) {
        self.0.insert(stream, seq);
    }

    /// Learn everything `other` knows.
    pub fn join(&mut self, other: Option<&Clock>) {
        for (s, n) in other.map(|c| &c.0).into_iter().flatten() {
            let mine = self.0.entry(*s).or_default();
            *mine = (*mine).max(*n);
        }
    }
}
