//! The time now, from the platform's realtime clock (WASI's
//! `clock_time_get`; `SystemTime::now()` on the host), and its UTC date and
//! time as RFC 3339 text: std's `SystemTime` is not in a `no_std` module,
//! and the `wasi` crate's call is `unsafe`; RFC 3339 text read back
//! ([`Timestamp::parse_rfc3339`], with its offset for the local date); and
//! [`sleep`], a wait. A module that never asks the time carries none of
//! this.
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

impl Timestamp {
    /// The moment RFC 3339 text names, such as an argument `from` or a
    /// log's `ts`: `2026-12-07T08:15:02Z`, with a fraction of a second
    /// (`.123`, nanoseconds kept, digits past them dropped) and an offset
    /// (`Z`, `+09:00`, `-05:30`) as RFC 3339 allows; `t`, `z` and a space
    /// for the `T` too. `None` for anything else: no offset, a date that is
    /// not in the calendar (`2026-02-29`, month 13, hour 24), or a moment
    /// before 1970 or past 2554, which a `Timestamp` cannot hold. A leap
    /// second (`:60`) is the second after `:59`, as Unix time counts it; in
    /// any minute, as an offset puts UTC's `23:59:60` in other local
    /// minutes (`15:59:60-08:00`).
    ///
    /// ```
    /// use subako_tiny::{clock::Timestamp, text, ToolError};
    ///
    /// let t = Timestamp::parse_rfc3339("2026-12-07T17:15:02.5+09:00").unwrap();
    /// assert_eq!(text!(t).as_str(), "2026-12-07T08:15:02Z");
    /// assert_eq!(t.unix_millis() % 1000, 500);
    /// assert_eq!(Timestamp::parse_rfc3339("2026-02-29T00:00:00Z"), None);
    /// assert_eq!(Timestamp::parse_rfc3339("2026-12-07"), None);
    ///
    /// // As a tool reads an argument:
    /// let from = "2026-12-07 08:00:00z";
    /// let from = Timestamp::parse_rfc3339(from).ok_or_else(|| {
    ///     ToolError::invalid_input("`from` must be an RFC 3339 time, such as 2026-12-07T08:15:02Z")
    /// })?;
    /// assert!(from < t);
    /// # Ok::<(), ToolError>(())
    /// ```
    #[must_use]
    pub fn parse_rfc3339(text: &str) -> Option<Timestamp> {
        Timestamp::parse_rfc3339_with_offset(text).map(|(moment, _)| moment)
    }

    /// [`parse_rfc3339`](Timestamp::parse_rfc3339), and the offset from UTC
    /// the text gives, in minutes east (`Z` 0, `+09:00` 540, `-05:30`
    /// −330): for the date, day or weekday where the text was written
    /// ([`date_at`](Timestamp::date_at)), which a check-in at 06:30 in
    /// Tokyo has on a day UTC's [`date`](Timestamp::date) puts before it
    /// (author trial 78).
    ///
    /// ```
    /// use subako_tiny::clock::Timestamp;
    ///
    /// let (at, offset) = Timestamp::parse_rfc3339_with_offset("2026-12-07T06:30:00+09:00").unwrap();
    /// assert_eq!(offset, 540);
    /// assert_eq!(at.date(), (2026, 12, 6));
    /// assert_eq!(at.date_at(offset), (2026, 12, 7));
    /// assert_eq!(at.weekday_at(offset), 1); // a Monday
    /// ```
    #[must_use]
    pub fn parse_rfc3339_with_offset(text: &str) -> Option<(Timestamp, i32)> {
        let b = text.as_bytes();
        // The digits of b[at..at + n] as a number, or None.
        let number = |at: usize, n: usize| -> Option<u64> {
            let digits = b.get(at..at + n)?;
            digits.iter().try_fold(0u64, |v, &d| d.is_ascii_digit().then(|| v * 10 + u64::from(d - b'0')))
        };
        let sep = |at: usize, c: u8| b.get(at) == Some(&c);
        let t = matches!(b.get(10), Some(b'T' | b't' | b' '));
        if !(sep(4, b'-') && sep(7, b'-') && t && sep(13, b':') && sep(16, b':')) {
            return None;
        }
        let (year, month, day) = (number(0, 4)?, number(5, 2)?, number(8, 2)?);
        let (hour, minute, second) = (number(11, 2)?, number(14, 2)?, number(17, 2)?);
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let length = match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            1..=12 => 31,
            _ => return None,
        };
        if day == 0 || day > length || hour > 23 || minute > 59 || second > 60 {
            return None;
        }
        let mut at = 19;
        let mut nanos = 0;
        if sep(at, b'.') {
            at += 1;
            let start = at;
            while let Some(d) = b.get(at).filter(|d| d.is_ascii_digit()) {
                if at - start < 9 {
                    nanos = nanos * 10 + u64::from(d - b'0');
                }
                at += 1;
            }
            if at == start {
                return None;
            }
            for _ in at - start..9 {
                nanos *= 10;
            }
        }
        // The offset: what to take away to reach UTC.
        let offset: i64 = match b.get(at..)? {
            [b'Z' | b'z'] => 0,
            [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
                let (h, m) = (number(at + 1, 2)?, number(at + 4, 2)?);
                if h > 23 || m > 59 {
                    return None;
                }
                let minutes = (h * 60 + m) as i64;
                if *sign == b'+' { minutes * 60 } else { -minutes * 60 }
            }
            _ => return None,
        };
        // Signed: a local 1969-12-31 with an offset west of UTC can be 1970
        // (review 74).
        let days = days_from_civil(year as i64, month as i64, day as i64);
        let local = days * 86_400 + (hour * 3600 + minute * 60 + second) as i64;
        let seconds = u64::try_from(local - offset).ok()?;
        let moment = seconds.checked_mul(1_000_000_000)?.checked_add(nanos).map(Timestamp)?;
        Some((moment, (offset / 60) as i32))
    }

    /// The days from 1970-01-01 to the date at `offset` minutes east of UTC
    /// (−1 for a 1969-12-31 there): consecutive dates are consecutive
    /// numbers, for counting days between two moments, or a run of days,
    /// as the people who wrote them count them. An offset is RFC 3339's,
    /// within ±23:59 (±1,439 minutes): one past that is taken as ±1,439.
    /// A leap second's `23:59:60` is the next day's first second, as Unix
    /// time counts it.
    ///
    /// ```
    /// use subako_tiny::clock::Timestamp;
    ///
    /// let late = Timestamp::parse_rfc3339("2026-12-07T23:30:00+09:00").unwrap();
    /// let early = Timestamp::parse_rfc3339("2026-12-08T00:30:00+09:00").unwrap();
    /// assert_eq!(early.day_at(540) - late.day_at(540), 1);
    /// assert_eq!(early.day_at(0), late.day_at(0)); // the same day in UTC
    /// assert_eq!(Timestamp::from_unix_seconds(0).day_at(-60), -1);
    /// ```
    #[must_use]
    pub const fn day_at(self, offset_minutes: i32) -> i64 {
        (self.unix_seconds() as i64 + offset(offset_minutes) * 60).div_euclid(86_400)
    }

    /// The date (year, month, day) at `offset` minutes east of UTC:
    /// [`date`](Timestamp::date) where the moment was written.
    ///
    /// ```
    /// use subako_tiny::clock::Timestamp;
    ///
    /// let t = Timestamp::from_unix_seconds(0);
    /// assert_eq!(t.date_at(0), (1970, 1, 1));
    /// assert_eq!(t.date_at(-300), (1969, 12, 31));
    /// assert_eq!(t.date_at(840), (1970, 1, 1));
    /// assert_eq!(t.date_at(i32::MIN), t.date_at(-1439)); // within ±23:59
    /// ```
    #[must_use]
    pub const fn date_at(self, offset_minutes: i32) -> (u32, u32, u32) {
        // 400 years on (146,097 days), and back: 1969-12-31 too.
        let (year, month, day) = civil((self.day_at(offset_minutes) + 146_097) as u64);
        (year - 400, month, day)
    }

    /// The ISO weekday at `offset` minutes east of UTC: 1 for Monday to 7
    /// for Sunday.
    ///
    /// ```
    /// use subako_tiny::clock::Timestamp;
    ///
    /// assert_eq!(Timestamp::from_unix_seconds(0).weekday_at(0), 4); // 1970-01-01, a Thursday
    /// assert_eq!(Timestamp::from_unix_seconds(0).weekday_at(-60), 3);
    /// ```
    #[must_use]
    pub const fn weekday_at(self, offset_minutes: i32) -> u32 {
        (self.day_at(offset_minutes) + 3).rem_euclid(7) as u32 + 1
    }
}

/// An offset in minutes, in seconds' units of 60, held within RFC 3339's
/// ±23:59 (review 79: far outside it, the date wrapped or overflowed).
const fn offset(minutes: i32) -> i64 {
    let minutes = if minutes < -1439 {
        -1439
    } else if minutes > 1439 {
        1439
    } else {
        minutes
    };
    minutes as i64
}

/// Days from 1970-01-01 to the proleptic Gregorian date of a year from 0
/// to 9999 (negative before 1970): [`civil`]'s inverse.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    // Counted from 0000-03-01, in eras of 400 years, as `civil` counts:
    // from 0001-03-01 on, so that the year before stays positive.
    let year = if month <= 2 { year - 1 } else { year } + 400;
    let era = year / 400;
    let year_of_era = year % 400;
    let month_from_march = if month > 2 { month - 3 } else { month + 9 };
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468 - 146_097
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

    /// The day after a date, counted by the calendar's rules one by one:
    /// the tests' reference.
    fn next_day(year: u32, month: u32, day: u32) -> (u32, u32, u32) {
        let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
        let length = match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        match (day < length, month < 12) {
            (true, _) => (year, month, day + 1),
            (false, true) => (year, month + 1, 1),
            (false, false) => (year + 1, 1, 1),
        }
    }

    /// Every day from 1970 to the last `u64` nanoseconds reach, against a
    /// count of the calendar's days one by one.
    #[test]
    fn every_date_is_the_calendar_s() {
        let (mut year, mut month, mut day) = (1970u32, 1u32, 1u32);
        let last = u64::MAX / 1_000_000_000 / 86_400;
        for days in 0..=last {
            assert_eq!(civil(days), (year, month, day), "day {days}");
            (year, month, day) = next_day(year, month, day);
        }
        assert_eq!(year, 2554);
    }

    /// The local date, day number and weekday of every day from 1969-12-31
    /// to 2554, written at offsets from −23:59 to +23:59 and read back
    /// with its offset, against a count of the days one by one (weekdays
    /// from 1969-12-31, a Wednesday).
    #[test]
    fn a_moment_s_local_date_day_and_weekday_are_the_calendar_s() {
        let (mut year, mut month, mut day, mut weekday) = (1969u32, 12u32, 31u32, 3u32);
        let offsets: [i32; 10] = [-1439, -720, -330, -1, 0, 1, 345, 540, 840, 1439];
        for number in -1i64.. {
            for (i, &offset) in offsets.iter().enumerate() {
                let sign = if offset < 0 { '-' } else { '+' };
                let (h, m) = (offset.unsigned_abs() / 60, offset.unsigned_abs() % 60);
                // A different time of day for each offset, the day's ends included.
                let clock =
                    ["00:00:00", "23:59:59", "12:00:00", "06:30:15"][(i as i64 + number).rem_euclid(4) as usize];
                let text = std::format!("{year:04}-{month:02}-{day:02}T{clock}{sign}{h:02}:{m:02}");
                let Some((t, read)) = Timestamp::parse_rfc3339_with_offset(&text) else {
                    // Before 1970 or past 2554 in UTC: only at the ends.
                    assert!(number < 1 || year == 2554, "{text}");
                    continue;
                };
                assert_eq!(read, offset, "{text}");
                assert_eq!(t.date_at(offset), (year, month, day), "{text}");
                assert_eq!(t.day_at(offset), number, "{text}");
                assert_eq!(t.weekday_at(offset), weekday, "{text}");
                // Past ±23:59, as at it (review 79: a wrapped date).
                let edge = if offset < 0 { -1439 } else { 1439 };
                for far in [edge * 2, if offset < 0 { i32::MIN } else { i32::MAX }] {
                    assert_eq!(t.date_at(far), t.date_at(edge), "{text}");
                }
            }
            (year, month, day) = next_day(year, month, day);
            weekday = weekday % 7 + 1;
            if (year, month, day) == (2554, 7, 23) {
                break;
            }
        }
    }

    /// `parse_rfc3339` reads back every day's text, with every offset
    /// form, a fraction and the separators RFC 3339 allows, and refuses
    /// what is not a moment (author trial 73 wrote this by hand).
    #[test]
    fn rfc_3339_text_reads_back_as_the_moment() {
        use std::format;
        let parse = Timestamp::parse_rfc3339;
        let last = u64::MAX / 1_000_000_000 / 86_400;
        for days in 0..last {
            let (y, m, d) = civil(days);
            assert_eq!(super::days_from_civil(y.into(), m.into(), d.into()), days as i64);
            // A time of day that walks through the hours and minutes.
            let seconds = days * 86_400 + (days * 7919) % 86_400;
            let text = crate::text!(Timestamp::from_unix_seconds(seconds)).into_string();
            assert_eq!(parse(&text), Some(Timestamp::from_unix_seconds(seconds)), "{text}");
        }
        let at = |s: &str| parse(s).map(Timestamp::unix_nanos);
        let t = 1_765_095_302; // 2025-12-07T08:15:02Z
        assert_eq!(at("2025-12-07T08:15:02Z"), Some(t * 1_000_000_000));
        assert_eq!(at("2025-12-07t08:15:02z"), Some(t * 1_000_000_000));
        assert_eq!(at("2025-12-07 08:15:02Z"), Some(t * 1_000_000_000));
        assert_eq!(at("2025-12-07T17:15:02+09:00"), Some(t * 1_000_000_000));
        assert_eq!(at("2025-12-07T02:45:02-05:30"), Some(t * 1_000_000_000));
        assert_eq!(at("2025-12-07T08:15:02.1Z"), Some(t * 1_000_000_000 + 100_000_000));
        assert_eq!(at("2025-12-07T08:15:02.123456789123Z"), Some(t * 1_000_000_000 + 123_456_789));
        assert_eq!(at("2025-12-07T08:15:02.000000001+00:00"), Some(t * 1_000_000_000 + 1));
        assert_eq!(at("2016-12-31T23:59:60Z"), at("2017-01-01T00:00:00Z"));
        assert_eq!(at("2000-02-29T00:00:00Z"), Some(951_782_400 * 1_000_000_000));
        assert_eq!(at("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(at("1970-01-01T09:00:00+09:00"), Some(0));
        // A local date before 1970 that names a moment from 1970 on (review
        // 74: refused); and the days before 1970 counted back.
        assert_eq!(at("1969-12-31T19:00:00-05:00"), Some(0));
        assert_eq!(at("1969-12-31T00:01:25-23:59"), Some(25_000_000_000));
        assert_eq!(at("1969-12-31T23:59:60Z"), Some(0));
        assert_eq!(super::days_from_civil(1969, 12, 31), -1);
        assert_eq!(super::days_from_civil(1968, 2, 29), -672);
        assert_eq!(super::days_from_civil(0, 1, 1), -719_528);
        assert_eq!(at("0000-01-01T00:00:00Z"), None);
        assert_eq!(at("2554-07-21T23:34:33Z"), Some(u64::MAX / 1_000_000_000 * 1_000_000_000));
        for bad in [
            "",
            "2025-12-07",
            "2025-12-07T08:15:02",
            "2025-12-07T08:15Z",
            "2025-12-07T08:15:02.Z",
            "2025-12-07T08:15:02ZZ",
            "2025-12-07T08:15:02+0900",
            "2025-12-07T08:15:02+24:00",
            "2025-12-07T08:15:02+09:60",
            "2025-13-07T08:15:02Z",
            "2025-00-07T08:15:02Z",
            "2025-12-00T08:15:02Z",
            "2025-11-31T08:15:02Z",
            "2026-02-29T00:00:00Z",
            "2100-02-29T00:00:00Z",
            "2025-12-07T24:00:00Z",
            "2025-12-07T08:60:02Z",
            "2025-12-07T08:15:61Z",
            "2025-12-07X08:15:02Z",
            "2025/12/07T08:15:02Z",
            "+025-12-07T08:15:02Z",
            "２０２５-12-07T08:15:02Z",
            "1969-12-31T23:59:59Z",
            "1970-01-01T08:59:59+09:00",
            "2554-07-21T23:34:34Z",
            "9999-12-31T23:59:59Z",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        // Every offset: the same moment.
        for minutes in (-(23 * 60 + 59)..=(23 * 60 + 59)).step_by(7) {
            let sign = if minutes < 0 { '-' } else { '+' };
            let local = (t as i64 + minutes * 60) as u64;
            let text = crate::text!(Timestamp::from_unix_seconds(local)).into_string();
            let text = format!("{}{sign}{:02}:{:02}", &text[..19], minutes.abs() / 60, minutes.abs() % 60);
            assert_eq!(at(&text), Some(t * 1_000_000_000), "{text}");
        }
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
