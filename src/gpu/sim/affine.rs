//! Kernels applied lazily: a list of `x = x * a + b` maps over byte ranges, in launch order.
//!
//! A `Transform` over 256 MiB would cost seconds of host time in a debug build; recording the map
//! costs nothing, copies carry the maps along with the bytes, and a read applies the maps that
//! cover the value, in order, with the same `f32` arithmetic as
//! [`crate::gpu::Kernel::transform_host`], so results are bit-identical to computing eagerly.

/// One pending transform over the `f32`s of `[start, end)` (both multiples of 4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Map {
    pub(super) start: u64,
    pub(super) end: u64,
    pub(super) a: f32,
    pub(super) b: f32,
}

/// Pending maps, oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Maps {
    maps: Vec<Map>,
}

impl Maps {
    pub(super) fn len(&self) -> usize {
        self.maps.len()
    }

    pub(super) fn push(&mut self, map: Map) {
        if map.start < map.end {
            self.maps.push(map);
        }
    }

    /// Forget the maps over `[start, end)` (the bytes there were overwritten).
    pub(super) fn remove(&mut self, start: u64, end: u64) {
        if self.maps.is_empty() || start >= end {
            return;
        }
        let mut kept = Vec::with_capacity(self.maps.len() + 1);
        for &m in &self.maps {
            if m.end <= start || m.start >= end {
                kept.push(m);
                continue;
            }
            if m.start < start {
                kept.push(Map { end: start, ..m });
            }
            if m.end > end {
                kept.push(Map { start: end, ..m });
            }
        }
        self.maps = kept;
    }

    /// The maps' parts over `[start, end)`, shifted so `start` maps to `to`, oldest first.
    pub(super) fn shifted(&self, start: u64, end: u64, to: u64) -> impl Iterator<Item = Map> + '_ {
        self.maps
            .iter()
            .filter(move |m| m.start < end && m.end > start)
            .map(move |m| Map {
                start: m.start.max(start) - start + to,
                end: m.end.min(end) - start + to,
                ..*m
            })
    }

    /// Whether any map covers a byte of `[start, end)`.
    pub(super) fn intersects(&self, start: u64, end: u64) -> bool {
        self.maps.iter().any(|m| m.start < end && m.end > start)
    }

    /// `x`, the raw value of the `f32` at byte `off`, after every map over it.
    pub(super) fn apply(&self, off: u64, x: f32) -> f32 {
        self.maps
            .iter()
            .filter(|m| m.start <= off && off < m.end)
            .fold(x, |x, m| crate::gpu::Kernel::transform_host(x, m.a, m.b))
    }

    /// Take every map, leaving none (to apply them eagerly).
    pub(super) fn take(&mut self) -> Vec<Map> {
        std::mem::take(&mut self.maps)
    }

    pub(super) fn clear(&mut self) {
        self.maps.clear();
    }
}
