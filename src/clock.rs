//! The time now, from the platform's realtime clock (WASI's
//! `clock_time_get`; `SystemTime::now()` on the host), and its UTC date and
//! time as RFC 3339 text: std's `SystemTime` is not in a `no_std` module,
//! and the `wasi` crate's call is `unsafe`; and [`sleep`], a wait. A module
//! that never asks the time carries none of this.
//!
//! ```
//! use subako_tiny::{clock, text};
//!
//! let now = clock::now()?;
//! let line = text!("saved at ", now); // "saved at 2026-12-05T15:10:42Z"
//! assert_eq!(line.len(), "saved at ".len() + "2026-12-05T15:10:42Z".len());
//! let (year, month, day) = now.date(); // (2026, 12, 5): this month's file
//! let file = text!("/volume/tmp/", year, "-", subako_tiny::text::zero_padded(month.into(), 2), ".jsonl");
//! assert!(year >= 2025 && (1..=12).contains(&month) && (1..=31).contains(&day) && file.len() == 25);
//! # Ok::<(), subako_tiny::ToolError>(())
//! ```

use alloc::vec::Vec;

use crate::ToolError;
use crate::text::{Piece, zero_padded};

/// A moment as Unix time: nanoseconds since 1970-01-01T00:00:00Z, leap
/// seconds not counted. As a [`Piece`] (in [`text!`](crate::text!),
/// [`ObjectWriter::text`](crate::json::ObjectWriter::text)) it is its UTC
/// date and time to the second, RFC 3339's `2026-12-05T15:10:42Z`, which
/// sorts as the moments do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(u64);

/// The time now, from the platform's realtime clock.
///
/// # Errors
/// When the platform's clock does not answer (its errno in the message).
///
/// ```
/// let a = subako_tiny::clock::now().unwrap();
/// let b = subako_tiny::clock::now().unwrap();
/// assert!(a <= b && a.unix_seconds() > 1_700_000_000);
/// ```
pub fn now() -> Result<Timestamp, ToolError> {
    crate::sys::realtime_nanos().map(Timestamp).map_err(|errno| {
        ToolError::new(crate::text!("the platform's clock did not answer (clock_time_get: errno ", errno, ")"))
    })
}

/// Waits `duration` before going on: to honour an API's `Retry-After`, or
/// to space requests. The wait is the call's time: the platform counts it
/// as execution time (and bills it), and a call still waiting at its time
/// limit ends out of time, as a busy one does (`subako-tiny call`'s limit
/// is `--time-limit-ms`). No fuel is spent waiting, but each wait, however
/// short, takes the host about a millisecond: wait once, not in a loop.
///
/// # Errors
/// When the platform cannot wait (its errno in the message).
///
/// ```
/// use subako_tiny::clock;
///
/// let before = clock::now()?;
/// clock::sleep(core::time::Duration::from_millis(20))?;
/// assert!(clock::now()?.unix_nanos() - before.unix_nanos() >= 20_000_000);
/// # Ok::<(), subako_tiny::ToolError>(())
/// ```
pub fn sleep(duration: core::time::Duration) -> Result<(), ToolError> {
    let nanos = u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX);
    crate::sys::sleep_nanos(nanos)
        .map_err(|errno| ToolError::new(crate::text!("the platform could not wait (poll_oneoff: errno ", errno, ")")))
}

impl Timestamp {
    /// The moment `nanos` nanoseconds after 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// use subako_tiny::{clock::Timestamp, text};
    ///
    /// let t = Timestamp::from_unix_nanos(1_764_947_442_999_999_999);
    /// assert_eq!(text!(t).as_str(), "2025-12-05T15:10:42Z");
    /// ```
    #[must_use]
    pub const fn from_unix_nanos(nanos: u64) -> Timestamp {
        Timestamp(nanos)
    }

    /// The moment `seconds` seconds after 1970-01-01T00:00:00Z (at most
    /// `u64::MAX` nanoseconds, in the year 2554).
    ///
    /// ```
    /// use subako_tiny::{clock::Timestamp, text};
    ///
    /// assert_eq!(text!(Timestamp::from_unix_seconds(951_782_400)).as_str(), "2000-02-29T00:00:00Z");
    /// ```
    #[must_use]
    pub const fn from_unix_seconds(seconds: u64) -> Timestamp {
        Timestamp(seconds.saturating_mul(1_000_000_000))
    }

    /// Nanoseconds since 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// assert_eq!(subako_tiny::clock::Timestamp::from_unix_seconds(2).unix_nanos(), 2_000_000_000);
    /// ```
    #[must_use]
    pub const fn unix_nanos(self) -> u64 {
        self.0
    }

    /// Whole milliseconds since 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// assert_eq!(subako_tiny::clock::Timestamp::from_unix_nanos(1_999_999).unix_millis(), 1);
    /// ```
    #[must_use]
    pub const fn unix_millis(self) -> u64 {
        self.0 / 1_000_000
    }

    /// Whole seconds since 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// assert_eq!(subako_tiny::clock::Timestamp::from_unix_nanos(1_999_999_999).unix_seconds(), 1);
    /// ```
    #[must_use]
    pub const fn unix_seconds(self) -> u64 {
        self.0 / 1_000_000_000
    }

    /// The UTC date: year, month (1–12) and day (1–31).
    ///
    /// ```
    /// use subako_tiny::clock::Timestamp;
    ///
    /// assert_eq!(Timestamp::from_unix_seconds(0).date(), (1970, 1, 1));
    /// assert_eq!(Timestamp::from_unix_seconds(4_107_542_400).date(), (2100, 3, 1));
    /// ```
    #[must_use]
    pub const fn date(self) -> (u32, u32, u32) {
        civil(self.unix_seconds() / 86_400)
    }
}

/// The proleptic Gregorian date `days` days after 1970-01-01 (Howard
/// Hinnant's `civil_from_days`, for days from 1970 on): counted from
/// 0000-03-01, so that a leap day ends its year, in eras of 400 years.
const fn civil(days: u64) -> (u32, u32, u32) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    // Months from March: 153 days a five months.
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = era * 400 + year_of_era + (month <= 2) as u64;
    (year as u32, month as u32, day as u32)
}

impl crate::text::sealed::Sealed for Timestamp {}

impl Piece for Timestamp {
    fn write_to(&self, out: &mut Vec<u8>) {
        let (year, month, day) = self.date();
        let seconds = (self.unix_seconds() % 86_400) as i64;
        let two = |n| zero_padded(n, 2);
        let time = (two(seconds / 3600), ':', two(seconds / 60 % 60), ':', two(seconds % 60), 'Z');
        (zero_padded(year.into(), 4), '-', two(month.into()), '-', two(day.into()), 'T', time).write_to(out);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::{Timestamp, civil};

    /// Every day from 1970 to the last `u64` nanoseconds reach, against a
    /// count of the calendar's days one by one.
    #[test]
    fn every_date_is_the_calendar_s() {
        let (mut year, mut month, mut day) = (1970u32, 1u32, 1u32);
        let leap = |y: u32| y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400));
        let last = u64::MAX / 1_000_000_000 / 86_400;
        for days in 0..=last {
            assert_eq!(civil(days), (year, month, day), "day {days}");
            let length = match month {
                2 if leap(year) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            day += 1;
            if day > length {
                day = 1;
                month += 1;
                if month > 12 {
                    month = 1;
                    year += 1;
                }
            }
        }
        assert_eq!(year, 2554);
    }

    #[test]
    fn the_text_is_rfc_3339_utc_to_the_second() {
        let text = |nanos| crate::text!(Timestamp::from_unix_nanos(nanos)).into_string();
        assert_eq!(text(0), "1970-01-01T00:00:00Z");
        assert_eq!(text(86_399_999_999_999), "1970-01-01T23:59:59Z");
        assert_eq!(text(1_709_164_800_000_000_000), "2024-02-29T00:00:00Z");
        assert_eq!(text(u64::MAX), "2554-07-21T23:34:33Z");
    }

    #[test]
    fn now_is_the_system_s() {
        let system = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
        let now = super::now().unwrap().unix_seconds();
        assert!(now.abs_diff(system) <= 5, "{now} against {system}");
    }
}
