//! The search's grid as report series and back: one series per (streams, issue order, taper) of
//! time against chunk count (`ms_by_chunks_3_streams_per-chunk`, and
//! `ms_by_chunks_3_streams_taper4_per-chunk` for chunks whose ends are 1/4 of the others), which
//! the sweep view reads as a streams x chunks table per order.

use std::collections::HashMap;

use crate::report::{Report, Series};

use super::super::metrics::{CHUNKS, MS};
use super::super::options::IssueOrder;
use super::schedule::Config;

const PREFIX: &str = "ms_by_chunks_";

const TAPER: &str = "taper";

/// One series per (streams, order, taper): time against chunk count.
pub fn series(times: &HashMap<Config, f64>) -> Vec<Series> {
    let key = |c: &Config| (c.streams, c.order.name(), c.effective_taper());
    let mut keys: Vec<(u32, &'static str, u32)> = times.keys().map(key).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|(st, order, taper)| {
            let mut points: Vec<(f64, f64)> = times
                .iter()
                .filter(|(c, _)| key(c) == (st, order, taper))
                .map(|(c, t)| (f64::from(c.chunks), *t))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let shape = if taper > 1 {
                format!("{TAPER}{taper}_")
            } else {
                String::new()
            };
            Series {
                name: format!("{PREFIX}{st}_streams_{shape}{order}"),
                x_unit: CHUNKS.into(),
                y_unit: MS.into(),
                points,
            }
        })
        .collect()
}

/// One configuration the search timed, and its time in ms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridPoint {
    pub config: Config,
    pub ms: f64,
}

/// Every configuration a pipeline report's search timed (empty for other reports).
pub fn points(report: &Report) -> Vec<GridPoint> {
    report
        .series
        .iter()
        .filter_map(|s| Some((parse_name(&s.name)?, &s.points)))
        .flat_map(|(base, points)| {
            points.iter().map(move |&(chunks, ms)| GridPoint {
                config: Config {
                    chunks: chunks as u32,
                    ..base
                },
                ms,
            })
        })
        .collect()
}

/// `ms_by_chunks_3_streams_taper4_per-chunk` -> 3 streams, per-chunk, taper 4 (chunks 0).
fn parse_name(name: &str) -> Option<Config> {
    let rest = name.strip_prefix(PREFIX)?;
    let (streams, rest) = rest.split_once("_streams_")?;
    let (taper, order) = match rest.strip_prefix(TAPER).and_then(|r| r.split_once('_')) {
        Some((taper, order)) => (taper.parse().ok()?, order),
        None => (1, rest),
    };
    let order = IssueOrder::ALL.into_iter().find(|o| o.name() == order)?;
    Some(Config {
        taper,
        ..Config::equal(streams.parse().ok()?, 0, order)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_names_read_back_as_the_configurations_they_came_from() {
        let a = Config::equal(3, 32, IssueOrder::BreadthFirst);
        let b = Config::equal(1, 2, IssueOrder::PerChunk);
        let t = Config { taper: 4, ..a };
        let times: HashMap<Config, f64> = [(a, 5.7), (b, 9.1), (t, 5.5)].into_iter().collect();
        let report_series = series(&times);
        assert_eq!(report_series.len(), 3);
        let mut back: Vec<(Config, f64)> = report_series
            .iter()
            .filter_map(|s| Some((parse_name(&s.name)?, s.points.clone())))
            .flat_map(|(base, p)| {
                p.into_iter().map(move |(c, ms)| {
                    (
                        Config {
                            chunks: c as u32,
                            ..base
                        },
                        ms,
                    )
                })
            })
            .collect();
        back.sort_by_key(|(c, _)| (c.streams, c.taper));
        assert_eq!(back, vec![(b, 9.1), (a, 5.7), (t, 5.5)]);
        assert_eq!(parse_name("pinned_h2d_gbps_by_size"), None);
    }
}
