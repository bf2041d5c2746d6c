//! The per-configuration comparison both live simulator fixtures make (`sim_fixture`,
//! `sim_search`): live and simulated time of each configuration, the relative error, and issue
//! 10 §2's two targets.
#![allow(clippy::expect_used)]

use cuda_academy::experiment::pipeline::schedule::Config;

/// One configuration, live against simulated.
pub struct Row {
    pub config: Config,
    /// Live time (ms).
    pub live: f64,
    /// Simulated time (ms).
    pub sim: f64,
    /// Whether the run the costs were fitted from also timed this configuration.
    pub seen: bool,
}

impl Row {
    /// Simulated over live, less 1.
    pub fn err(&self) -> f64 {
        self.sim / self.live - 1.0
    }
}

/// Root mean square of the rows' relative errors.
pub fn rms(table: &[Row]) -> f64 {
    (table.iter().map(|r| r.err().powi(2)).sum::<f64>() / table.len() as f64).sqrt()
}

/// Every point within 10% of live.
pub fn assert_every_point_within_10_pct(table: &[Row]) {
    for r in table {
        assert!(
            r.err().abs() <= 0.10,
            "{}: simulated {:.3} ms, live {:.3} ms",
            r.config.describe(),
            r.sim,
            r.live
        );
    }
}

/// The configuration the simulator would choose among those the GPU ran runs, live, within 3%
/// of the live best.
pub fn assert_choice_within_3_pct(table: &[Row]) {
    let live_best = table.iter().map(|r| r.live).fold(f64::INFINITY, f64::min);
    let chosen = table
        .iter()
        .min_by(|a, b| a.sim.total_cmp(&b.sim))
        .expect("rows");
    eprintln!(
        "simulator's choice: {} ({:.3} ms live); live best {live_best:.3} ms",
        chosen.config.describe(),
        chosen.live
    );
    assert!(
        chosen.live <= live_best * 1.03,
        "chosen {} runs {:.3} ms live, best {live_best:.3} ms",
        chosen.config.describe(),
        chosen.live
    );
}
