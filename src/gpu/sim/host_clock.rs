//! The host's virtual clock: it advances by each API call's cost and jumps forward when a call
//! blocks until the device reaches some point.

/// Host time in µs since the simulator started, and the timeline origin.
#[derive(Debug, Default)]
pub(super) struct HostClock {
    now_us: f64,
    origin_us: f64,
}

impl HostClock {
    /// The absolute host time.
    pub(super) fn now(&self) -> f64 {
        self.now_us
    }

    /// Spend `us` in an API call.
    pub(super) fn spend(&mut self, us: f64) {
        self.now_us += us;
    }

    /// Block until the absolute time `t` (no-op if already past it).
    pub(super) fn wait_until(&mut self, t: f64) {
        self.now_us = self.now_us.max(t);
    }

    /// Make now the origin of [`HostClock::since_origin`].
    pub(super) fn set_origin(&mut self) {
        self.origin_us = self.now_us;
    }

    /// The origin, absolute.
    pub(super) fn origin(&self) -> f64 {
        self.origin_us
    }

    /// Time since the origin.
    pub(super) fn since_origin(&self) -> f64 {
        self.now_us - self.origin_us
    }
}
