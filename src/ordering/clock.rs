//! Vector clocks over streams: for each stream, how many of its operations are known complete.
//! The ordering model keeps one per stream (what the next op there waits for), one per event
//! (what its last record captured) and one for the host (what it knows has completed).

use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Clock(BTreeMap<u32, u64>);

impl Clock {
    /// Operations of `stream` covered: the first `get(stream)` ops issued to it.
    pub fn get(&self, stream: u32) -> u64 {
        self.0.get(&stream).copied().unwrap_or(0)
    }

    /// Cover the first `seq` ops of `stream` (never fewer than already covered).
    pub fn cover(&mut self, stream: u32, seq: u64) {
        let mine = self.0.entry(stream).or_default();
        *mine = (*mine).max(seq);
    }

    /// Whether op number `seq` (1-based) of `stream` is covered.
    pub fn covers(&self, stream: u32, seq: u64) -> bool {
        seq <= self.get(stream)
    }

    /// Learn everything `other` knows.
    pub fn join(&mut self, other: &Clock) {
        for (s, n) in &other.0 {
            self.cover(*s, *n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Clock;

    #[test]
    fn join_keeps_the_larger_count_per_stream() {
        let mut a = Clock::default();
        a.cover(1, 3);
        a.cover(2, 1);
        let mut b = Clock::default();
        b.cover(1, 2);
        b.cover(3, 4);
        a.join(&b);
        assert_eq!((a.get(1), a.get(2), a.get(3), a.get(4)), (3, 1, 4, 0));
        assert!(a.covers(1, 3) && !a.covers(1, 4));
        a.cover(1, 1);
        assert_eq!(a.get(1), 3, "cover never goes back");
    }
}
