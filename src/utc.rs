//! UTC calendar time for file names (`progress.json.corrupt-<time>`, exported traces) and the
//! date a profile was recorded, without a date-time dependency: every format of one instant
//! needs only the civil-from-days conversion.

use std::time::{SystemTime, UNIX_EPOCH};

/// A moment in UTC, to the second; times before 1970 read as 1970-01-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utc {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u64,
    pub minute: u64,
    pub second: u64,
}

impl Utc {
    pub fn at(time: SystemTime) -> Utc {
        let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let days = i64::try_from(secs / 86_400).unwrap_or(0);
        let rem = secs % 86_400;
        let (year, month, day) = civil_from_days(days);
        Utc {
            year,
            month,
            day,
            hour: rem / 3600,
            minute: rem % 3600 / 60,
            second: rem % 60,
        }
    }

    /// `YYYYMMDD`.
    pub fn date(&self) -> String {
        format!("{:04}{:02}{:02}", self.year, self.month, self.day)
    }

    /// `YYYY-MM-DD` (ISO 8601), as recorded profiles store it.
    pub fn iso_date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// `HHMMSS`.
    pub fn time(&self) -> String {
        format!("{:02}{:02}{:02}", self.hour, self.minute, self.second)
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    // Both fit: month is 1..=12 and day 1..=31 by construction.
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn known_instants() {
        let at = |secs| Utc::at(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(
            (at(0).date(), at(0).time()),
            ("19700101".into(), "000000".into())
        );
        // 2024-02-29 23:59:59 UTC, a leap day.
        let leap = at(1_709_251_199);
        assert_eq!(
            (leap.date(), leap.time()),
            ("20240229".into(), "235959".into())
        );
        // 2026-11-29 17:30:59 UTC.
        let t = at(1_795_973_459);
        assert_eq!((t.date(), t.time()), ("20261129".into(), "173059".into()));
        assert_eq!(t.iso_date(), "2026-11-29");
    }
}
