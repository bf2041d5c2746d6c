//! The time stamps on records: milliseconds since the Unix epoch, strictly increasing within one
//! process, so two changes made in the same millisecond still have an order.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static LAST: AtomicU64 = AtomicU64::new(0);

/// Now, in milliseconds since the Unix epoch; later than every earlier call in this process.
pub fn now_ms() -> u64 {
    let wall = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let mut prev = LAST.load(Ordering::Relaxed);
    loop {
        let next = wall.max(prev.saturating_add(1));
        match LAST.compare_exchange_weak(prev, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(seen) => prev = seen,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn stamps_strictly_increase() {
        let a = super::now_ms();
        let b = super::now_ms();
        assert!(b > a && a > 1_600_000_000_000, "{a} {b}");
    }
}
