//! The search's grid as report series and back: one series per (streams, issue order) of time
//! against chunk count (`ms_by_chunks_3_streams_per-chunk`), which the sweep view reads as a
//! streams x chunks table per order.

use std::collections::HashMap;

use crate::report::{Report, Series};

use super::super::metrics::{CHUNKS, MS};
use super::super::options::IssueOrder;
use super::schedule::Config;

const PREFIX: &str = "ms_by_chunks_";

/// One series per (streams, order): time against chunk count.
pub fn series(times: &HashMap<Config, f64>) -> Vec<Series> {
    let mut keys: Vec<(u32, &'static str)> =
        times.keys().map(|c| (c.streams, c.order.name())).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|(st, order)| {
            let mut points: Vec<(f64, f64)> = times
                .iter()
                .filter(|(c, _)| c.streams == st && c.order.name() == order)
                .map(|(c, t)| (f64::from(c.chunks), *t))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            Series {
                name: format!("{PREFIX}{st}_streams_{order}"),
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
        .flat_map(|((streams, order), points)| {
            points.iter().map(move |&(chunks, ms)| GridPoint {
                config: Config {
                    streams,
                    chunks: chunks as u32,
                    order,
                },
                ms,
            })
        })
        .collect()
}

/// `ms_by_chunks_3_streams_per-chunk` -> (3, per-chunk).
fn parse_name(name: &str) -> Option<(u32, IssueOrder)> {
    let rest = name.strip_prefix(PREFIX)?;
    let (streams, order) = rest.split_once("_streams_")?;
    let order = IssueOrder::ALL.into_iter().find(|o| o.name() == order)?;
    Some((streams.parse().ok()?, order))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_names_read_back_as_the_configurations_they_came_from() {
        let a = Config {
            streams: 3,
            chunks: 32,
            order: IssueOrder::BreadthFirst,
        };
        let b = Config {
            streams: 1,
            chunks: 2,
            order: IssueOrder::PerChunk,
        };
        let times: HashMap<Config, f64> = [(a, 5.7), (b, 9.1)].into_iter().collect();
        let report_series = series(&times);
        assert_eq!(report_series.len(), 2);
        let mut back: Vec<(Config, f64)> = report_series
            .iter()
            .filter_map(|s| Some((parse_name(&s.name)?, s.points.clone())))
            .flat_map(|((st, o), p)| {
                p.into_iter().map(move |(c, ms)| {
                    (
                        Config {
                            streams: st,
                            chunks: c as u32,
                            order: o,
                        },
                        ms,
                    )
                })
            })
            .collect();
        back.sort_by_key(|(c, _)| c.streams);
        assert_eq!(back, vec![(b, 9.1), (a, 5.7)]);
        assert_eq!(parse_name("pinned_h2d_gbps_by_size"), None);
    }
}
