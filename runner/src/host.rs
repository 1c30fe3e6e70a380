//! The state one run's host functions share: WASI's context, the memory cap,
//! the clock, the write budget, the `subako_http` grant and the preopens
//! (with the guest-to-host path mapping WASI and `subako_http` both use).
//! `exec` builds it; `http` and the budgeted writes read it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use wasmtime::ResourceLimiter;
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;

/// What the invocation's grant allows. An empty grant (the `Default`) is
/// a real host that refuses every request with kind `host_not_allowed` and
/// a message naming `--allow-host`, where `None` in [`crate::RunOptions`]
/// is the platform's stub (`request` → -1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpConfig {
    /// Hosts the module may reach: `api.example.com`, `*.example.com` (any
    /// subdomain), or `host:port` to pin a port.
    pub allow_hosts: Vec<String>,
    /// Local testing: allow loopback addresses, and plain `http://` to them.
    /// Other private addresses stay forbidden.
    pub allow_loopback: bool,
}

/// Per-run HTTP state: the grant, and the answer waiting for `read_response`.
pub(crate) struct HttpHost {
    pub config: HttpConfig,
    pub held: Option<Vec<u8>>,
}

impl HttpHost {
    pub fn new(config: HttpConfig) -> Self {
        HttpHost { config, held: None }
    }
}

/// Store data for one run.
pub(crate) struct State {
    pub wasi: WasiP1Ctx,
    pub limiter: Limiter,
    /// `None`: the platform stub (`request` → -1, `read_response` → -2).
    pub http: Option<HttpHost>,
    pub preopens: Vec<(String, PathBuf, bool)>,
    pub write_budget: Option<u64>,
    pub written: u64,
    pub deadline: Instant,
    pub timed_out: bool,
    pub watch: Option<Watch>,
}

impl State {
    /// Bytes the call may still write to files (`u64::MAX` without a budget).
    pub fn budget_left(&self) -> u64 {
        self.write_budget.map_or(u64::MAX, |b| b.saturating_sub(self.written))
    }
    /// Wall-clock time left before the time limit.
    pub fn time_left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// Watches stdout so that "not exiting within 1 s of stdin closing" can be told
/// apart from running out of time: stdin here is a fixed buffer, so the module
/// has seen EOF by the time it has answered every request.
pub(crate) struct Watch {
    pub stdout: MemoryOutputPipe,
    pub scanned: usize,
    pub responses: usize,
    pub want: usize,
    pub grace: Duration,
    pub answered_at: Option<Instant>,
    pub lingered: bool,
}

impl Watch {
    pub fn poll(&mut self) -> bool {
        if self.answered_at.is_none() {
            let out = self.stdout.contents();
            if out.len() > self.scanned {
                let new = &out[self.scanned..];
                if let Some(last_nl) = new.iter().rposition(|&b| b == b'\n') {
                    for line in new[..last_nl].split(|&b| b == b'\n') {
                        if crate::rpc::is_response_line(line) {
                            self.responses += 1;
                        }
                    }
                    self.scanned += last_nl + 1;
                }
                if self.responses >= self.want {
                    self.answered_at = Some(Instant::now());
                }
            }
        }
        if let Some(t) = self.answered_at
            && t.elapsed() > self.grace
        {
            self.lingered = true;
            return true;
        }
        false
    }
}

/// Caps linear memory. A refused grow makes `memory.grow` return -1 (the guest
/// may cope); if the run then fails, it is reported as out of memory.
pub(crate) struct Limiter {
    pub limit: usize,
    pub hit: bool,
}

impl ResourceLimiter for Limiter {
    fn memory_growing(&mut self, _current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        if maximum.is_some_and(|m| desired > m) {
            return Ok(false);
        }
        if desired > self.limit {
            self.hit = true;
            return Ok(false);
        }
        Ok(true)
    }
    fn table_growing(&mut self, _current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(maximum.is_none_or(|m| desired <= m) && desired <= 1 << 20)
    }
}

/// Maps an absolute guest path through the longest matching preopen, as WASI
/// resolves it; `None` for relative paths, `..`, or paths outside every preopen.
/// Returns the host path and whether that preopen is read-only.
pub(crate) fn map_guest_path(preopens: &[(String, PathBuf, bool)], guest: &str) -> Option<(PathBuf, bool)> {
    if !guest.starts_with('/') {
        return None;
    }
    let segs: Vec<&str> = guest.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
    if segs.contains(&"..") {
        return None;
    }
    let mut best: Option<(usize, &PathBuf, bool)> = None;
    for (g, host, ro) in preopens {
        let gsegs: Vec<&str> = g.split('/').filter(|s| !s.is_empty()).collect();
        if segs.len() >= gsegs.len() && segs[..gsegs.len()] == gsegs[..] && best.is_none_or(|(n, _, _)| gsegs.len() > n)
        {
            best = Some((gsegs.len(), host, *ro));
        }
    }
    let (n, host, ro) = best?;
    let mut p = host.clone();
    for s in &segs[n..] {
        p.push(s);
    }
    Some((p, ro))
}
