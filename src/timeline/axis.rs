//! Time-axis ticks: round steps (1, 2 or 5 times a power of ten) in a unit chosen by the visible
//! span (ns below 1 µs, µs below 1 ms, ms below 1 s, else s), spaced so labels never collide.

use crate::timeline::TimeScale;

/// One tick: where it is, which column it falls in, and its label (e.g. `2.5 ms`).
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    pub us: f64,
    pub column: u16,
    pub label: String,
}

/// The unit for a visible span in microseconds: its name and how many microseconds one unit is.
pub fn unit_for_span(span_us: f64) -> (&'static str, f64) {
    if span_us < 1.0 {
        ("ns", 1e-3)
    } else if span_us < 1e3 {
        ("µs", 1.0)
    } else if span_us < 1e6 {
        ("ms", 1e3)
    } else {
        ("s", 1e6)
    }
}

/// The smallest round step (1, 2 or 5 times a power of ten) that is at least `raw`.
pub fn nice_step(raw: f64) -> f64 {
    if !raw.is_finite() || raw <= 0.0 {
        return 1.0;
    }
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|step| *step >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// Ticks for `scale`, at least `gap` columns apart counting their labels (so a label of width w
/// needs w + gap columns).
pub fn ticks(scale: &TimeScale, gap: u16) -> Vec<Tick> {
    let span = scale.span_us();
    if scale.columns == 0 || !span.is_finite() || span <= 0.0 {
        return Vec::new();
    }
    let (unit, per_unit) = unit_for_span(scale.span_us());
    let span = scale.span_us() / per_unit;
    // Labels are at most ~8 characters ("1234.5 µs"); start from that estimate and widen the step
    // until the widest real label fits.
    let mut step = nice_step(span * f64::from(8 + gap) / f64::from(scale.columns));
    for _ in 0..8 {
        let list = ticks_with_step(scale, step, unit, per_unit);
        let widest = list
            .iter()
            .map(|t| t.label.chars().count())
            .max()
            .unwrap_or(0);
        // One spare column absorbs rounding tick positions to whole columns.
        let needed = (widest + usize::from(gap) + 1) as f64 * span / f64::from(scale.columns);
        if step >= needed * (1.0 - 1e-9) {
            return list;
        }
        step = nice_step(needed);
    }
    ticks_with_step(scale, step, unit, per_unit)
}

fn ticks_with_step(scale: &TimeScale, step: f64, unit: &str, per_unit: f64) -> Vec<Tick> {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let first = (scale.start_us / per_unit / step).ceil() as i64;
    let last = (scale.end_us / per_unit / step).floor() as i64;
    // Guard against absurd counts (a degenerate scale): a screen never needs more than this.
    let last = last.min(first + 1000);
    (first..=last)
        .filter_map(|k| {
            let value = k as f64 * step;
            let us = value * per_unit;
            let column = scale.column_of(us).round();
            if column < 0.0 || column >= f64::from(scale.columns) {
                return None;
            }
            let label = if value.abs() < step / 2.0 {
                format!("0 {unit}")
            } else {
                format!("{value:.decimals$} {unit}")
            };
            Some(Tick {
                us,
                column: column as u16,
                label,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(scale: &TimeScale) -> Vec<String> {
        ticks(scale, 2).into_iter().map(|t| t.label).collect()
    }

    #[test]
    fn nice_steps_are_one_two_five() {
        assert_eq!(nice_step(0.7), 1.0);
        assert_eq!(nice_step(1.3), 2.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(7.0), 10.0);
        assert_eq!(nice_step(120.0), 200.0);
        assert!((nice_step(0.03) - 0.05).abs() < 1e-12);
    }

    #[test]
    fn unit_follows_the_span() {
        assert_eq!(unit_for_span(0.5).0, "ns");
        assert_eq!(unit_for_span(500.0).0, "µs");
        assert_eq!(unit_for_span(5_000.0).0, "ms");
        assert_eq!(unit_for_span(5_000_000.0).0, "s");
    }

    #[test]
    fn milliseconds_window_gets_round_ms_labels() {
        let s = TimeScale::fit_range(0.0, 10_000.0, 100);
        let expected: Vec<String> = (0..10).map(|ms| format!("{ms} ms")).collect();
        assert_eq!(labels(&s), expected);
        assert_eq!(ticks(&s, 2)[3].column, 30);
    }

    #[test]
    fn sub_microsecond_windows_use_nanoseconds() {
        // Narrower than zooming reaches (MIN_WINDOW_US), but a scale may be built directly.
        let s = TimeScale {
            start_us: 10.0,
            end_us: 10.8,
            ..TimeScale::fit_range(0.0, 100.0, 80)
        };
        let l = labels(&s);
        assert!(!l.is_empty());
        assert!(l.iter().all(|x| x.ends_with(" ns")), "{l:?}");
    }

    #[test]
    fn fractional_steps_print_decimals() {
        // 2.5 ms over 100 columns: step 0.5 ms (labels ~6 wide + gap 2 -> 0.2 ms raw).
        let s = TimeScale::fit_range(0.0, 2_500.0, 100);
        let l = labels(&s);
        assert!(l.contains(&"0.5 ms".to_string()), "{l:?}");
    }

    #[test]
    fn labels_never_collide() {
        for columns in [10u16, 20, 40, 80, 200] {
            for span in [0.3, 7.0, 950.0, 12_345.0, 3e6] {
                let s = TimeScale::fit_range(1.0, 1.0 + span, columns);
                let t = ticks(&s, 1);
                for pair in t.windows(2) {
                    let width = pair[0].label.chars().count() as u16;
                    assert!(pair[1].column > pair[0].column + width, "{t:?}");
                }
            }
        }
    }
}
