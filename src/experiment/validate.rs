//! Checking a caller's options against one experiment's declaration: absurd or inconsistent
//! requests become clear errors before any GPU call. Apart from `options.rs` because it reads the
//! registry's list (which flags apply to which experiment), and every experiment reads
//! `options.rs`: kept there, the list would loop back through every experiment (issue 20).

use super::ExperimentError;
use super::options::{
    ExperimentOptions, MAX_CHUNKS, MAX_CHUNKS_TIMES_STREAMS, MAX_STREAMS, check_size,
};
use super::spec::{ExperimentSpec, Param};

impl ExperimentOptions {
    /// Reject zero, absurd or inconsistent options for experiment `spec` with a message that
    /// says what to change.
    pub fn validate(&self, spec: &ExperimentSpec) -> Result<(), ExperimentError> {
        let bad = |msg: String| Err(ExperimentError::InvalidOption(msg));
        if let Some(size) = self.size {
            check_size(size).map_err(ExperimentError::InvalidOption)?;
        }
        if let Some(streams) = self.streams
            && !(1..=MAX_STREAMS).contains(&streams)
        {
            return bad(format!(
                "--streams must be 1 to {MAX_STREAMS}, got {streams}"
            ));
        }
        if let Some(chunks) = self.chunks
            && !(1..=MAX_CHUNKS).contains(&chunks)
        {
            return bad(format!("--chunks must be 1 to {MAX_CHUNKS}, got {chunks}"));
        }
        if let Some(reps) = self.repetitions
            && !(1..=1000).contains(&reps)
        {
            return bad(format!("repetitions must be 1 to 1000, got {reps}"));
        }
        if let (Some(s), Some(c)) = (self.streams, self.chunks)
            && u64::from(s) * u64::from(c) > MAX_CHUNKS_TIMES_STREAMS
        {
            return bad(format!(
                "--streams {s} x --chunks {c} is more than {MAX_CHUNKS_TIMES_STREAMS} operations per stage"
            ));
        }
        for (set, param, flag) in [
            (self.streams.is_some(), Param::Streams, "--streams"),
            (self.chunks.is_some(), Param::Chunks, "--chunks"),
            (self.host_mem.is_some(), Param::HostMem, "--host-mem"),
            (self.issue_order.is_some(), Param::Order, "--order"),
        ] {
            if set && !spec.takes(param) {
                let takers: Vec<&str> = super::registry::ALL
                    .iter()
                    .filter(|e| e.takes(param))
                    .map(|e| e.id)
                    .collect();
                return bad(format!(
                    "{flag} does not apply to {}; it applies to {}",
                    spec.id,
                    takers.join(", ")
                ));
            }
        }
        if spec.takes(Param::Chunks) {
            self.validate_chunking()?;
        }
        Ok(())
    }

    /// Every chunk must hold a whole number of f32s (a multiple of 4 bytes).
    fn validate_chunking(&self) -> Result<(), ExperimentError> {
        if let (Some(size), Some(chunks)) = (self.size, self.chunks) {
            let c = u64::from(chunks);
            if size < 4 * c || size % c != 0 || (size / c) % 4 != 0 {
                return Err(ExperimentError::InvalidOption(format!(
                    "--size {size} cannot be split into {chunks} chunks of a whole number of f32s \
                     (each chunk must be a multiple of 4 bytes); pick a power-of-two size or chunk count"
                )));
            }
        }
        Ok(())
    }
}
