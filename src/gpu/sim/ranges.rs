//! A set of byte ranges, used to remember which bytes of a buffer hold no real data.
//!
//! With data movement off ([`super::SimGpu::set_move_data`]) copies and kernels only mark the
//! bytes they would have written; reading such a byte later is an error instead of a wrong value.

/// Disjoint, sorted, non-touching half-open ranges `[start, end)`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct RangeSet {
    ranges: Vec<(u64, u64)>,
}

impl RangeSet {
    /// Add `[start, end)`, merging with neighbours.
    pub(super) fn insert(&mut self, start: u64, end: u64) {
        if start >= end {
            return;
        }
        let (mut lo, mut hi) = (start, end);
        // Every range that touches or overlaps [lo, hi) merges into it.
        self.ranges.retain(|&(a, b)| {
            if b < lo || a > hi {
                true
            } else {
                lo = lo.min(a);
                hi = hi.max(b);
                false
            }
        });
        let at = self.ranges.partition_point(|&(a, _)| a < lo);
        self.ranges.insert(at, (lo, hi));
    }

    /// Remove `[start, end)`, splitting ranges that straddle it.
    pub(super) fn remove(&mut self, start: u64, end: u64) {
        if start >= end || self.ranges.is_empty() {
            return;
        }
        let mut kept = Vec::with_capacity(self.ranges.len() + 1);
        for &(a, b) in &self.ranges {
            if b <= start || a >= end {
                kept.push((a, b));
                continue;
            }
            if a < start {
                kept.push((a, start));
            }
            if b > end {
                kept.push((end, b));
            }
        }
        self.ranges = kept;
    }

    /// Whether any byte of `[start, end)` is in the set.
    pub(super) fn intersects(&self, start: u64, end: u64) -> bool {
        self.ranges.iter().any(|&(a, b)| a < end && b > start)
    }

    /// The parts of `[start, end)` in the set, shifted so `start` maps to `to`.
    pub(super) fn shifted(&self, start: u64, end: u64, to: u64) -> Vec<(u64, u64)> {
        self.ranges
            .iter()
            .filter(|&&(a, b)| a < end && b > start)
            .map(|&(a, b)| (a.max(start) - start + to, b.min(end) - start + to))
            .collect()
    }

    /// Forget every range.
    pub(super) fn clear(&mut self) {
        self.ranges.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::RangeSet;

    #[test]
    fn insert_merges_touching_and_overlapping() {
        let mut s = RangeSet::default();
        s.insert(10, 20);
        s.insert(30, 40);
        s.insert(20, 30);
        assert_eq!(s.ranges, vec![(10, 40)]);
        s.insert(0, 5);
        assert_eq!(s.ranges, vec![(0, 5), (10, 40)]);
    }

    #[test]
    fn remove_splits() {
        let mut s = RangeSet::default();
        s.insert(0, 100);
        s.remove(40, 60);
        assert_eq!(s.ranges, vec![(0, 40), (60, 100)]);
        assert!(!s.intersects(40, 60));
        assert!(s.intersects(39, 41));
    }

    #[test]
    fn shifted_maps_the_overlap() {
        let mut s = RangeSet::default();
        s.insert(10, 20);
        assert_eq!(s.shifted(15, 30, 100), vec![(100, 105)]);
        assert!(s.shifted(20, 30, 0).is_empty());
    }
}
