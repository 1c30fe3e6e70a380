//! The command line: one module per command, each turning its arguments into
//! a call of the library and printing the report it returns (its `to_text`
//! or `to_json`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde_json::Value;
use subako_tiny_runner::{CallOptions, Error, HttpConfig, Module};

mod bench;
mod bundle;
mod call;
mod check;
mod compile_time;
mod manifest;
mod new;
mod serve;
mod size;

/// Where the method of every measurement is written down.
pub const METHOD: &str = "The method of each measurement: runner/METHOD.md in the subako-tiny repository.";

/// subako-tiny: run Subako function modules the way the Subako worker does.
#[derive(Parser)]
#[command(name = "subako-tiny", version = crate::scaffold::VENDORED_FROM, after_help = METHOD)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    #[command(after_help = METHOD)]
    New(new::New),
    #[command(after_help = METHOD)]
    Check(check::Check),
    #[command(after_help = METHOD)]
    Call(call::Call),
    #[command(after_help = METHOD)]
    Serve(serve::Serve),
    #[command(after_help = METHOD)]
    Bundle(bundle::Bundle),
    #[command(after_help = METHOD)]
    Bench(bench::Bench),
    #[command(after_help = METHOD)]
    CompileTime(compile_time::CompileTime),
    #[command(after_help = METHOD)]
    Size(size::Size),
    #[command(after_help = METHOD)]
    Manifest(manifest::ManifestCmd),
}

impl Command {
    pub fn run(self) -> Result<ExitCode, Error> {
        match self {
            Command::New(c) => c.run(),
            Command::Check(c) => c.run(),
            Command::Call(c) => c.run(),
            Command::Serve(c) => c.run(),
            Command::Bundle(c) => c.run(),
            Command::Bench(c) => c.run(),
            Command::CompileTime(c) => c.run(),
            Command::Size(c) => c.run(),
            Command::Manifest(c) => c.run(),
        }
    }
}

/// The exit status for a runner error: 2 for bad input (an option, a file
/// that is not a module), 1 when a run or a program the runner ran failed.
pub fn exit_code(e: &Error) -> ExitCode {
    match e {
        Error::Input(_) | Error::NotAModule(_) | Error::File { .. } => ExitCode::from(2),
        _ => ExitCode::FAILURE,
    }
}

/// A count of runs: at least one, as a median of none is nothing.
pub(crate) fn at_least_one(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("give at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("{e}: give a whole number, at least 1")),
    }
}

/// An `--allow-host` entry as the worker's allowlist takes it: a host
/// name, `*.` and a domain, or an IP address (IPv6 in brackets), with an
/// optional `:port`; never a URL.
fn host_entry(s: &str) -> Result<String, String> {
    let shape = "an entry is a host (api.example.com, *.example.com, 127.0.0.1, [::1]) with an optional :port";
    if let Some((_, rest)) = s.split_once("://") {
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        return Err(format!("a URL: give the host alone, --allow-host {host} ({shape})"));
    }
    let port_ok = |p: &str| matches!(p.parse::<u16>(), Ok(1..));
    let bad_port = |p: &str| format!("the port {p:?} is not 1 to 65535 ({shape})");
    // An IPv6 address: bare, or in brackets with an optional port.
    if let Some(rest) = s.strip_prefix('[') {
        let (inside, after) = rest.split_once(']').unwrap_or((rest, "?"));
        if inside.parse::<std::net::Ipv6Addr>().is_err() {
            return Err(format!("{s:?} names no IPv6 address ({shape})"));
        }
        return match after.strip_prefix(':') {
            None if after.is_empty() => Ok(s.to_string()),
            Some(p) if port_ok(p) => Ok(s.to_string()),
            Some(p) => Err(bad_port(p)),
            None => Err(format!("{s:?}: only a :port may follow the brackets ({shape})")),
        };
    }
    if s.parse::<std::net::Ipv6Addr>().is_ok() {
        return Ok(s.to_string());
    }
    let (host, port) = match s.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (s, None),
    };
    if let Some(p) = port
        && !port_ok(p)
    {
        return Err(bad_port(p));
    }
    if !host.is_ascii() {
        return Err(format!("{s:?}: give a name with letters beyond ASCII in its punycode form (xn--…) ({shape})"));
    }
    // `*.` and a domain; a trailing dot is the same name, fully qualified.
    let name = host.strip_prefix("*.").unwrap_or(host);
    let name = name.strip_suffix('.').unwrap_or(name);
    let label_ok = |l: &str| {
        l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && l.chars().any(|c| c.is_ascii_alphanumeric())
    };
    if !name.is_empty() && name.split('.').all(label_ok) {
        Ok(s.to_string())
    } else {
        Err(format!("{s:?} names no host ({shape})"))
    }
}

/// The options a call runs with, as the worker sets them up.
#[derive(Args, Clone, Debug, Default)]
pub struct CallArgs {
    /// argv[0] (default: the manifest's name)
    #[arg(long, value_name = "NAME")]
    pub package: Option<String>,
    /// Host directory behind /volume/tmp (default: a fresh temporary one; bench and size run on a fresh copy of DIR)
    #[arg(long, value_name = "DIR")]
    pub tmp: Option<PathBuf>,
    /// Host directory behind /volume/data (call and serve write into it; bench and size run each sequence on a fresh
    /// copy, so DIR is left as it was)
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Mounted read-only at /package
    #[arg(long, value_name = "DIR")]
    pub assets: Option<PathBuf>,
    /// Let subako_http reach HOST (repeatable; *.example.com, host:port); without any, every request fails
    #[arg(long = "allow-host", value_name = "HOST", value_parser = host_entry)]
    pub allow_host: Vec<String>,
    /// Allow loopback addresses, and plain http:// to them, for hosts --allow-host lets in (127.0.0.1:8080)
    #[arg(long = "allow-loopback")]
    pub allow_loopback: bool,
    /// The call's time limit (default 10000; serve: none)
    #[arg(long = "time-limit-ms", value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub time_limit_ms: Option<u64>,
    /// The memory cap, 1 to 4096 (wasm32's 4 GiB) (default 256)
    #[arg(long = "memory-limit-mb", value_name = "N", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub memory_limit_mb: Option<u64>,
    /// Bytes a call may write to files (default 1 GiB)
    #[arg(long = "write-budget", value_name = "N")]
    pub write_budget: Option<u64>,
    /// Start the realtime clock at TIME, in UTC (2026-12-31T23:59:59Z, with fractions of a second if you like, or
    /// Unix seconds), from which it runs on: to try a tool at a day's or a year's end (default: the host's clock)
    #[arg(long, value_name = "TIME", value_parser = clock_start)]
    pub clock: Option<Duration>,
}

/// `--clock`'s TIME: RFC 3339 in UTC (`2026-12-31T23:59:59Z`, `…59.5Z`)
/// or Unix seconds, as time since the Unix epoch.
pub fn clock_start(s: &str) -> Result<Duration, String> {
    let shape = "give a UTC time as 2026-12-31T23:59:59Z (seconds may have a fraction) or Unix seconds";
    // WASI's clock counts nanoseconds in 64 bits.
    let last = Duration::from_nanos(u64::MAX);
    let too_late = || {
        format!("{s:?}: past 2554-07-21T23:34:33Z, the last time WASI's clock (64 bits of nanoseconds) tells ({shape})")
    };
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return match s.parse::<u64>().map(Duration::from_secs) {
            Ok(start) if start <= last => Ok(start),
            _ => Err(too_late()),
        };
    }
    let b = s.as_bytes();
    let number = |from: usize, len: usize| -> Option<u64> {
        let digits = s.get(from..from + len)?;
        digits.bytes().all(|d| d.is_ascii_digit()).then(|| digits.parse().ok())?
    };
    let fields = (|| {
        if b.len() < 20
            || b[4] != b'-'
            || b[7] != b'-'
            || !matches!(b[10], b'T' | b't')
            || b[13] != b':'
            || b[16] != b':'
        {
            return None;
        }
        let (year, month, day) = (number(0, 4)?, number(5, 2)?, number(8, 2)?);
        let (hour, minute, second) = (number(11, 2)?, number(14, 2)?, number(17, 2)?);
        // UTC: `Z`, or the offset `+00:00`.
        let rest = &s[19..];
        let rest = rest.strip_suffix(['Z', 'z']).or_else(|| rest.strip_suffix("+00:00"))?;
        let nanos = match rest.strip_prefix('.') {
            Some(digits) => {
                if digits.is_empty() || !digits.bytes().all(|d| d.is_ascii_digit()) {
                    return None;
                }
                if digits.len() > 9 {
                    return Some(Err("at most nine digits of a second (nanoseconds)"));
                }
                digits.parse::<u64>().ok()? * 10u64.pow(9 - digits.len() as u32)
            }
            None if rest.is_empty() => 0,
            None => return None,
        };
        Some(Ok((year, month, day, hour, minute, second, nanos)))
    })();
    let (year, month, day, hour, minute, second, nanos) = match fields {
        Some(Ok(fields)) => fields,
        Some(Err(why)) => return Err(format!("{s:?}: {why} ({shape})")),
        None => return Err(format!("{s:?}: not a time in UTC ({shape})")),
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if year < 1970 || !(1..=12).contains(&month) || day == 0 || day > days_in_month[month as usize - 1] {
        return Err(format!("{s:?}: no such date from 1970 on ({shape})"));
    }
    if second == 60 && hour == 23 && minute == 59 {
        return Err(format!(
            "{s:?}: a leap second, which Unix time and WASI's clock do not count: give 23:59:59 ({shape})"
        ));
    }
    if hour > 23 || minute > 59 || second > 59 {
        return Err(format!("{s:?}: no such time of day ({shape})"));
    }
    // Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y / 400;
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second;
    let start = Duration::from_secs(seconds) + Duration::from_nanos(nanos);
    if start > last {
        return Err(too_late());
    }
    Ok(start)
}

impl CallArgs {
    /// Refuses a volume or asset directory that does not exist, rather
    /// than make one: a mistyped path would take the data written to it.
    pub fn check_dirs(&self) -> Result<(), Error> {
        for (flag, dir) in [("--tmp", &self.tmp), ("--data", &self.data), ("--assets", &self.assets)] {
            if let Some(d) = dir
                && !d.is_dir()
            {
                return Err(Error::Input(if d.exists() {
                    format!("{flag} {}: not a directory (a volume is mounted from a directory)", d.display())
                } else {
                    format!(
                        "{flag} {}: no such directory (create it first, e.g. mkdir -p {})",
                        d.display(),
                        d.display()
                    )
                }));
            }
        }
        Ok(())
    }

    pub fn options(&self) -> CallOptions {
        let mut o = CallOptions {
            package: self.package.clone(),
            tmp_dir: self.tmp.clone(),
            data_dir: self.data.clone(),
            assets_dir: self.assets.clone(),
            ..CallOptions::default()
        };
        // Always a host: with nothing allowed it answers every request with an
        // error naming --allow-host (the platform's stub would answer -1).
        o.http = Some(HttpConfig { allow_hosts: self.allow_host.clone(), allow_loopback: self.allow_loopback });
        if let Some(ms) = self.time_limit_ms {
            o.time_limit = Duration::from_millis(ms);
        }
        if let Some(mb) = self.memory_limit_mb {
            o.memory_limit_bytes = (mb as usize) << 20;
        }
        if let Some(b) = self.write_budget {
            o.write_budget = Some(b);
        }
        o.clock = self.clock;
        o
    }

    /// The options of a measured call: as [`CallArgs::options`], but with
    /// no grant at all the platform's own stub answers `subako_http` (as
    /// the worker's does for a function without network), not the runner's
    /// host that explains the flags.
    pub fn measure_options(&self) -> CallOptions {
        let mut o = self.options();
        if self.allow_host.is_empty() && !self.allow_loopback {
            o.http = None;
        }
        o
    }
}

/// The calls `bench` and `size` measure: a tool, its arguments, the calls
/// after it, and the volumes, grant and limits they run with.
#[derive(Args, Clone, Debug, Default)]
pub struct CallSpec {
    /// The tool to call (default: the first one tools/list names)
    #[arg(long, value_name = "T")]
    pub tool: Option<String>,
    /// Its arguments as JSON, - to read them from stdin, or @FILE to read them from FILE (default: made from the tool's input schema, its required members each within its bounds, enum, const or pattern; {} when it has none)
    #[arg(long, value_name = "JSON|-|@FILE")]
    pub args: Option<String>,
    /// Read its arguments from FILE (for arguments longer than a command line holds)
    #[arg(long = "args-file", value_name = "FILE")]
    pub args_file: Option<PathBuf>,
    #[command(flatten)]
    pub then: Then,
    #[command(flatten)]
    pub call: CallArgs,
}

impl CallSpec {
    /// The first call's arguments, when given.
    pub fn args(&self) -> Result<Option<Value>, Error> {
        if self.args.is_none() && self.args_file.is_none() {
            return Ok(None);
        }
        read_args(self.args.as_deref(), self.args_file.as_deref()).map(Some)
    }
}

/// More calls after the first, in sequence.
#[derive(Args, Clone, Debug, Default)]
pub struct Then {
    /// Another call after it, in a fresh instance on the same volumes (repeatable): TOOL and its arguments (JSON,
    /// - for stdin, @FILE for a file)
    #[arg(long, value_names = ["TOOL", "ARGS"], num_args = 2)]
    pub then: Vec<String>,
}

impl Then {
    pub fn calls(&self) -> Result<Vec<(String, Value)>, Error> {
        self.each(read_args)
    }

    /// The calls with their arguments' text as given (checked to be JSON,
    /// numbers beyond f64 included), for `call`, which sends every call's
    /// arguments as they are written.
    pub fn texts(&self) -> Result<Vec<(String, String)>, Error> {
        self.each(read_args_text)
    }

    /// Each call's tool, and its arguments (JSON, `-`, or `@FILE`) as `read` reads them.
    fn each<T>(
        &self,
        read: impl Fn(Option<&str>, Option<&Path>) -> Result<T, Error>,
    ) -> Result<Vec<(String, T)>, Error> {
        let tools: Vec<&str> = self.then.iter().step_by(2).map(String::as_str).collect();
        self.then
            .chunks(2)
            .enumerate()
            .map(|(i, c)| {
                // `@FILE` read as every command reads it (`args_text`).
                let args = read(Some(&c[1]), None);
                // Name the call the arguments were given for, and which of
                // them when the tool is called more than once.
                let args = args.map_err(|e| match e {
                    Error::Input(m) => Error::Input(format!("{}: {m}", then_name(&tools, i))),
                    e => e,
                })?;
                Ok((c[0].clone(), args))
            })
            .collect()
    }
}

/// How an error names the `i`th `--then` call: by its tool, and by its
/// place among the `--then`s when another calls the same tool.
pub fn then_name(tools: &[&str], i: usize) -> String {
    let tool = tools[i];
    if tools.iter().filter(|&&t| t == tool).count() < 2 {
        return format!("--then {tool}");
    }
    let place = match i + 1 {
        n if (11..=13).contains(&(n % 100)) => format!("{n}th"),
        n if n % 10 == 1 => format!("{n}st"),
        n if n % 10 == 2 => format!("{n}nd"),
        n if n % 10 == 3 => format!("{n}rd"),
        n => format!("{n}th"),
    };
    format!("--then {tool} (the {place} --then)")
}

/// A module file, compiled.
pub fn module(path: &Path) -> Result<Module, Error> {
    Module::from_file(path)
}

/// Tool arguments from JSON text, `-` (stdin) or a file; `{}` when none is given.
pub fn read_args(text: Option<&str>, file: Option<&Path>) -> Result<Value, Error> {
    let (text, from) = args_text(text, file)?;
    // A lone surrogate escape is valid JSON text that no tool reads: named
    // as `call` names it (review 72: "not JSON" here).
    if serde_json::from_str::<Box<serde_json::value::RawValue>>(&text).is_ok() {
        subako_tiny_runner::IntoArgs::into_args(text.as_str())?;
    }
    serde_json::from_str(&text).map_err(|e| not_json(&from, &e))
}

/// The arguments' text as given (checked to be JSON, numbers beyond f64
/// included), for `call`, which sends them as they are written; where it
/// came from.
pub fn read_args_text(text: Option<&str>, file: Option<&Path>) -> Result<String, Error> {
    let (text, from) = args_text(text, file)?;
    serde_json::from_str::<Box<serde_json::value::RawValue>>(&text).map_err(|e| not_json(&from, &e))?;
    Ok(text)
}

/// The arguments' text and where it came from; `{}` when none is given.
fn args_text(text: Option<&str>, file: Option<&Path>) -> Result<(String, String), Error> {
    let (text, from) = match (text, file) {
        (Some(_), Some(_)) => {
            return Err(Error::Input(
                "give the arguments once: as JSON, as - (stdin), as @FILE or with --args-file".into(),
            ));
        }
        (_, Some(f)) => match std::fs::read_to_string(f) {
            Ok(text) => (text, f.display().to_string()),
            Err(e) => return Err(Error::Input(format!("the arguments file {}: {e}", f.display()))),
        },
        (Some("-"), None) => {
            // A second `-` would read an emptied stdin and call it not JSON.
            static READ: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
            if READ.swap(true, std::sync::atomic::Ordering::Relaxed) {
                return Err(Error::Input(
                    "stdin gives one call its arguments (the first `-`): give the others as JSON or @FILE".into(),
                ));
            }
            let mut s = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)?;
            (s, "stdin".to_string())
        }
        // `@FILE` wherever arguments are taken, as `--then` and `bench`
        // take it (author trial 86: `call MODULE TOOL @FILE` said "not
        // JSON"); no JSON text starts with `@`.
        (Some("@"), None) => {
            return Err(Error::Input("`@` names no file: give @FILE, the file's path after it".into()));
        }
        (Some(t), None) if t.starts_with('@') => return args_text(None, Some(Path::new(&t[1..]))),
        (Some(t), None) => (t.to_string(), "the command line".to_string()),
        (None, None) => ("{}".to_string(), "nowhere".to_string()),
    };
    // A byte order mark (an editor's) is no part of the JSON: passed over,
    // from a file or stdin (reviews 87, 88: "expected value at line 1
    // column 1"). Nothing, or white space alone, is said to be nothing.
    let text = text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text);
    if text.trim().is_empty() {
        return Err(Error::Input(format!("the arguments from {from} are empty: give a JSON object, such as {{}}")));
    }
    Ok((text, from))
}

/// The error for arguments that are not JSON, and where to send such a line.
fn not_json(from: &str, e: &serde_json::Error) -> Error {
    // serde_json refuses what the crate reads (numbers beyond f64): say
    // where such arguments can be sent from.
    let hint = if e.to_string().starts_with("number out of range") {
        "; this command reads arguments with serde_json, which refuses numbers beyond f64 (a module reads \
         `1e400` and refuses it where it wants a float): `subako-tiny call` sends them as written, or pipe the \
         JSON-RPC line to `subako-tiny serve MODULE`"
    } else {
        "; to see how the module answers a line that is not JSON, pipe one to `subako-tiny serve MODULE`"
    };
    Error::Input(format!("the arguments from {from} are not JSON: {e}{hint}"))
}

#[cfg(test)]
mod tests {
    use super::{Then, clock_start};
    use std::time::Duration;

    /// A `--then` call's bad arguments are named by the tool, and by its
    /// place when another `--then` calls the same tool (review 74).
    #[test]
    fn a_then_call_is_named_by_its_place_when_its_tool_repeats() {
        let then = |calls: &[&str]| Then { then: calls.iter().map(|s| s.to_string()).collect() };
        let error = |calls: &[&str]| then(calls).calls().unwrap_err().to_string();
        assert!(
            error(&["get", "{}", "search", "[1"]).starts_with("--then search: "),
            "{}",
            error(&["get", "{}", "search", "[1"])
        );
        assert!(error(&["get", "{}", "get", "[1"]).starts_with("--then get (the 2nd --then): "));
        let mut calls: Vec<&str> = ["get", "{}"].repeat(12);
        calls.extend(["get", "{"]);
        assert!(error(&calls).starts_with("--then get (the 13th --then): "), "{}", error(&calls));
        calls.truncate(20);
        calls.extend(["get", "{", "x", "{}"]);
        assert!(error(&calls).starts_with("--then get (the 11th --then): "), "{}", error(&calls));
        calls.truncate(0);
        calls.extend(["get", "{}", "get", "{}", "get", "{\"a\":\"\\ud800\"}"]);
        assert!(error(&calls).starts_with("--then get (the 3rd --then): "), "{}", error(&calls));
    }

    #[test]
    fn clock_start_reads_utc_times_and_unix_seconds() {
        for (text, seconds, nanos) in [
            ("1970-01-01T00:00:00Z", 0, 0),
            ("2026-12-31T23:59:59Z", 1_798_761_599, 0),
            ("2026-12-31t23:59:59.25z", 1_798_761_599, 250_000_000),
            ("2024-02-29T12:00:00.000000001Z", 1_709_208_000, 1),
            ("2000-03-01T00:00:00Z", 951_868_800, 0),
            ("1798761599", 1_798_761_599, 0),
            ("2026-12-31T23:59:59+00:00", 1_798_761_599, 0),
            ("2554-07-21T23:34:33.709551615Z", 18_446_744_073, 709_551_615),
            ("18446744073", 18_446_744_073, 0),
        ] {
            assert_eq!(clock_start(text), Ok(Duration::new(seconds, nanos)), "{text}");
        }
        for (text, why) in [
            ("2025-02-29T00:00:00Z", "no such date"),
            ("1969-12-31T23:59:59Z", "no such date"),
            ("2026-13-01T00:00:00Z", "no such date"),
            ("2026-12-31T24:00:00Z", "no such time of day"),
            ("2016-12-31T23:59:60Z", "leap second"),
            ("2026-12-31T12:00:60Z", "no such time of day"),
            ("2026-12-31T23:59:59+09:00", "not a time in UTC"),
            ("2026-12-31 23:59:59Z", "not a time"),
            ("2026-12-31T23:59:59.Z", "not a time"),
            ("2026-12-31T23:59:59.1234567890Z", "nine digits"),
            ("", "not a time"),
            ("2554-07-21T23:34:33.709551616Z", "2554-07-21T23:34:33Z"),
            ("9999-12-31T23:59:59Z", "2554-07-21T23:34:33Z"),
            ("18446744074", "2554-07-21T23:34:33Z"),
            ("99999999999999999999", "2554-07-21T23:34:33Z"),
        ] {
            let error = clock_start(text).unwrap_err();
            assert!(error.contains(why) && error.contains("2026-12-31T23:59:59Z (seconds"), "{text}: {error}");
        }
    }
}
