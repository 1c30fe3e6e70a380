//! Running one module instance the way the worker does: a fresh store per run,
//! WASI preview 1 with only the preopens asked for, `subako_http` (real or the
//! platform stub), a memory cap, a wall-clock limit and a per-call file write budget.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use wasmtime::{Caller, Config, Engine, Func, InstancePre, Linker, Store, UpdateDeadline};
use wasmtime_wasi::p1::wasi_snapshot_preview1::{self as p1, WasiSnapshotPreview1};
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::runtime::in_tokio;
use wasmtime_wasi::{FsPerms, I32Exit, WasiCtxBuilder};

use crate::Error;
use crate::error::read;
use crate::host::{HttpConfig, HttpHost, Limiter, State, Watch};

const COMPONENT: &str = "this is a WebAssembly component; Subako runs core modules (WASI preview 1 commands)";

/// How often the epoch advances: the granularity of the time limit and of the
/// "exit within 1 s of stdin closing" rule.
const TICK: Duration = Duration::from_millis(5);
const STDOUT_CAP: usize = 64 << 20;
const STDERR_CAP: usize = 16 << 20;
/// WASI preview 1 `errno::dquot`.
pub(crate) const ERRNO_DQUOT: i32 = 19;

/// One engine for the whole process (plus, for `bench`'s fuel figures, a
/// fuel-counting one), so a single ticker thread per engine can drive the
/// epoch; each store checks its own deadline in the epoch callback, so runs on
/// other threads never cut each other short.
pub(crate) struct Host {
    pub engine: Engine,
    pub linker: Linker<State>,
    /// Only the WASI preview 1 functions, as wasmtime-wasi defines them: what
    /// the budgeted `fd_write`/`fd_pwrite`/`fd_filestat_set_size` delegate to, and what `check` compares
    /// import signatures against.
    pub wasi: Arc<Linker<State>>,
}

pub(crate) fn host() -> &'static Host {
    static HOST: OnceLock<Host> = OnceLock::new();
    HOST.get_or_init(|| new_host(false))
}

/// A second host whose engine also counts fuel (wasm operators run), for
/// `bench`'s deterministic figures. Its own engine: fuel metering changes the
/// generated code, so modules compiled for it never run in timed figures.
pub(crate) fn fuel_host() -> &'static Host {
    static HOST: OnceLock<Host> = OnceLock::new();
    HOST.get_or_init(|| new_host(true))
}

/// The engine configuration every host uses (`fuel`: also `consume_fuel`).
pub(crate) fn engine_config(fuel: bool) -> Config {
    let mut config = Config::new();
    config.epoch_interruption(true);
    config.consume_fuel(fuel);
    config
}

fn new_host(fuel: bool) -> Host {
    let engine = Engine::new(&engine_config(fuel)).expect("wasmtime engine");
    let ticker = engine.clone();
    std::thread::Builder::new()
        .name("subako-epoch".into())
        .spawn(move || {
            loop {
                std::thread::sleep(TICK);
                ticker.increment_epoch();
            }
        })
        .expect("epoch thread");
    let mut wasi = Linker::new(&engine);
    wasmtime_wasi::p1::add_to_linker_sync(&mut wasi, |s: &mut State| &mut s.wasi).expect("link WASI preview 1");
    let wasi = Arc::new(wasi);
    let mut linker = (*wasi).clone();
    linker.allow_shadowing(true);
    linker
        .func_wrap(
            "wasi_snapshot_preview1",
            "fd_write",
            |mut c: Caller<'_, State>, fd: i32, iovs: i32, n: i32, out: i32| budgeted(&mut c, fd, iovs, n, out, None),
        )
        .expect("fd_write");
    linker
        .func_wrap(
            "wasi_snapshot_preview1",
            "fd_pwrite",
            |mut c: Caller<'_, State>, fd: i32, iovs: i32, n: i32, off: i64, out: i32| {
                budgeted(&mut c, fd, iovs, n, out, Some(off))
            },
        )
        .expect("fd_pwrite");
    linker
        .func_wrap("wasi_snapshot_preview1", "fd_filestat_set_size", |mut c: Caller<'_, State>, fd: i32, size: i64| {
            budgeted_size(&mut c, fd, size)
        })
        .expect("fd_filestat_set_size");
    linker
        .func_wrap(
            "wasi_snapshot_preview1",
            "poll_oneoff",
            |mut c: Caller<'_, State>, subscriptions: i32, events: i32, n: i32, count: i32| {
                capped_poll(&mut c, subscriptions, events, n, count)
            },
        )
        .expect("poll_oneoff");
    crate::http::add_to_linker(&mut linker).expect("subako_http");
    Host { engine, linker, wasi }
}

/// `poll_oneoff` with each relative clock wait cut to what is left of the
/// call's time (and a tick), so that a tool still waiting at its time limit
/// ends out of time then, as a busy one does: the epoch's check cannot cut
/// into a blocking host call (review 65: a 5 s wait under a 1 s limit ended
/// after 5 s, `Duration::MAX` never). Then wasmtime-wasi's own.
fn capped_poll(
    c: &mut Caller<'_, State>,
    subscriptions: i32,
    events: i32,
    n: i32,
    count: i32,
) -> wasmtime::Result<i32> {
    let mem = memory(c)?;
    let left = c.data().deadline.saturating_duration_since(Instant::now()) + TICK;
    let cap = u64::try_from(left.as_nanos()).unwrap_or(u64::MAX);
    // A subscription: userdata u64, tag u8 (0: clock) at 8; for a clock, its
    // id u32 at 16, timeout u64 at 24, precision u64 at 32, flags u16 at 40
    // (bit 0: absolute), 48 bytes in all. Out of range: WASI reports it below.
    let data = mem.data_mut(&mut *c);
    for k in 0..n.max(0) as usize {
        let at = subscriptions as u32 as usize + k * 48;
        let Some(sub) = data.get_mut(at..at + 48) else { break };
        let relative = sub[40] & 1 == 0;
        let timeout = u64::from_le_bytes(sub[24..32].try_into().unwrap());
        if sub[8] == 0 && relative && timeout > cap {
            sub[24..32].copy_from_slice(&cap.to_le_bytes());
        }
    }
    preview1(c, mem, |wasi, gm| in_tokio(p1::poll_oneoff(wasi, gm, subscriptions, events, n, count)))
}

/// The module's exported memory, which the preview 1 functions read and write.
fn memory(c: &mut Caller<'_, State>) -> wasmtime::Result<wasmtime::Memory> {
    c.get_export("memory")
        .and_then(|e| e.into_memory())
        .ok_or_else(|| wasmtime::Error::msg("missing required memory export"))
}

/// Runs `call`, one of wasmtime-wasi's own preview 1 functions, on the
/// module's memory `mem`, with the host-call copy allowance from the store
/// as wiggle's own glue gives it: what the wrappers above add their rule to.
fn preview1<T>(
    c: &mut Caller<'_, State>,
    mem: wasmtime::Memory,
    call: impl FnOnce(&mut wasmtime_wasi::p1::WasiP1Ctx, &mut wiggle::GuestMemory<'_>) -> T,
) -> T {
    let fuel = wasmtime::AsContextMut::as_context_mut(&mut *c).hostcall_fuel();
    let (data, state) = mem.data_and_store_mut(&mut *c);
    state.wasi.set_hostcall_fuel(fuel);
    call(&mut state.wasi, &mut wiggle::GuestMemory::Unshared(data))
}

/// `fd_write`/`fd_pwrite` with the per-call write budget: writes to files (any
/// fd past stdio; sockets are never given) that would go past it return EDQUOT
/// and write nothing. Otherwise wasmtime-wasi's own preview 1 function runs.
fn budgeted(
    c: &mut Caller<'_, State>,
    fd: i32,
    iovs: i32,
    iovs_len: i32,
    nwritten: i32,
    offset: Option<i64>,
) -> wasmtime::Result<i32> {
    let mem = memory(c)?;
    let counted = fd >= 3 && c.data().write_budget.is_some();
    let mut gap = 0;
    if counted {
        let data = mem.data(&*c);
        let mut total: u64 = 0;
        for i in 0..iovs_len.max(0) as u64 {
            let at = (iovs as u32 as u64 + i * 8 + 4) as usize;
            // Out of range: let WASI report the fault below.
            if let Some(b) = data.get(at..at + 4) {
                total += u32::from_le_bytes(b.try_into().unwrap()) as u64;
            }
        }
        // A write that begins past the file's end grows it by the gap
        // too, as `fd_filestat_set_size` does (review 94: one byte at an
        // offset of 10^12 made a 1 TB file under a 1,000-byte budget).
        if total > 0 {
            gap = match (offset, file_size_and_position(c, mem, fd)) {
                (Some(at), Some((size, _))) => (at as u64).saturating_sub(size),
                (None, Some((size, at))) => at.saturating_sub(size),
                (_, None) => 0,
            };
        }
        if total.saturating_add(gap) > c.data().budget_left() {
            return Ok(ERRNO_DQUOT);
        }
    }
    let rc = preview1(c, mem, |wasi, gm| match offset {
        None => in_tokio(p1::fd_write(wasi, gm, fd, iovs, iovs_len, nwritten)),
        Some(off) => in_tokio(p1::fd_pwrite(wasi, gm, fd, iovs, iovs_len, off, nwritten)),
    })?;
    if counted && rc == 0 {
        let at = nwritten as u32 as usize;
        if let Some(b) = mem.data(&*c).get(at..at + 4) {
            let n = u32::from_le_bytes(b.try_into().unwrap()) as u64;
            c.data_mut().written += n + if n > 0 { gap } else { 0 };
        }
    }
    Ok(rc)
}

/// The size of the file open as `fd` and the position in it, through
/// `fd_filestat_get` and `fd_tell` into the first 72 bytes of the
/// module's memory, given back as they were; `None` where either fails
/// (not a file) or the memory is smaller.
fn file_size_and_position(c: &mut Caller<'_, State>, mem: wasmtime::Memory, fd: i32) -> Option<(u64, u64)> {
    let kept = mem.data(&*c).get(..72)?.to_vec();
    let stat = preview1(c, mem, |wasi, gm| in_tokio(p1::fd_filestat_get(wasi, gm, fd, 0)));
    let tell = preview1(c, mem, |wasi, gm| p1::fd_tell(wasi, gm, fd, 64));
    let data = mem.data_mut(&mut *c);
    let got =
        (u64::from_le_bytes(data[32..40].try_into().unwrap()), u64::from_le_bytes(data[64..72].try_into().unwrap()));
    data[..72].copy_from_slice(&kept);
    matches!((stat, tell), (Ok(0), Ok(0))).then_some(got)
}

/// `fd_filestat_set_size` with the write budget: a file grown past what is
/// left of it returns EDQUOT and stays as it was (review 90: a module grew
/// a file to 3 GiB under a budget of 1,000 bytes, as the platform's quota
/// would not let it). The growth is the new size past the file's size now
/// ([`file_size_and_position`]).
fn budgeted_size(c: &mut Caller<'_, State>, fd: i32, size: i64) -> wasmtime::Result<i32> {
    let mem = memory(c)?;
    let mut growth = 0;
    if fd >= 3
        && c.data().write_budget.is_some()
        && let Some((now, _)) = file_size_and_position(c, mem, fd)
    {
        growth = (size as u64).saturating_sub(now);
        if growth > c.data().budget_left() {
            return Ok(ERRNO_DQUOT);
        }
    }
    let rc = preview1(c, mem, |wasi, gm| in_tokio(p1::fd_filestat_set_size(wasi, gm, fd, size)))?;
    if rc == 0 {
        c.data_mut().written += growth;
    }
    Ok(rc)
}

/// A compiled module, ready to instantiate many times (each run is a fresh instance).
#[derive(Clone)]
pub struct Module {
    pub engine: Engine,
    pub module: wasmtime::Module,
    /// Linked once; `Err` holds why linking failed (e.g. an import nobody provides).
    pre: Result<InstancePre<State>, String>,
    /// Compiled for the fuel-counting engine: each run reports the fuel it used.
    fuel: bool,
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Module")
            .field("name", &self.module.name())
            .field("linked", &self.pre.is_ok())
            .field("fuel", &self.fuel)
            .finish()
    }
}

/// Refuses what is no core module before the compiler does: a component,
/// or no `\0asm` header at all (a text file, a `.wat`), which wasmtime
/// answers with a page of its parser's expectations (review 71).
fn not_a_module(bytes: &[u8]) -> Result<(), Error> {
    if wasmparser::Parser::is_component(bytes) {
        return Err(Error::NotAModule(COMPONENT.into()));
    }
    if !bytes.starts_with(b"\0asm") {
        return Err(Error::NotAModule(
            "not a WebAssembly binary (no \\0asm header): build the package for wasm32-wasip1 and give its .wasm"
                .into(),
        ));
    }
    Ok(())
}

impl Module {
    pub fn from_file(path: impl AsRef<Path>) -> Result<Module, Error> {
        let path = path.as_ref();
        let bytes = read(path)?;
        Module::from_bytes(&bytes).map_err(|e| match e {
            Error::NotAModule(why) => Error::NotAModule(format!("{}: {why}", path.display())),
            e => e,
        })
    }

    /// Compiles a binary module. Components are refused: Subako runs core modules.
    pub fn from_bytes(bytes: &[u8]) -> Result<Module, Error> {
        not_a_module(bytes)?;
        let engine = host().engine.clone();
        let module =
            wasmtime::Module::new(&engine, bytes).map_err(|e| Error::NotAModule(format!("invalid module: {e:#}")))?;
        Ok(Module::from_compiled(module))
    }

    /// Like [`Module::from_bytes`], compiled for an engine that counts fuel
    /// (`Config::consume_fuel`): every run starts with `u64::MAX / 2` fuel and
    /// reports what it used in [`RunOutput::fuel`]. Fuel counts the wasm
    /// operators run, so it is the same from run to run; the metering makes
    /// the code slower, so such a module is not for timing.
    pub fn from_bytes_with_fuel(bytes: &[u8]) -> Result<Module, Error> {
        not_a_module(bytes)?;
        let h = fuel_host();
        let module =
            wasmtime::Module::new(&h.engine, bytes).map_err(|e| Error::NotAModule(format!("invalid module: {e:#}")))?;
        let pre = h.linker.instantiate_pre(&module).map_err(|e| format!("{e:#}"));
        Ok(Module { engine: h.engine.clone(), module, pre, fuel: true })
    }

    pub(crate) fn from_compiled(module: wasmtime::Module) -> Module {
        let pre = host().linker.instantiate_pre(&module).map_err(|e| format!("{e:#}"));
        Module { engine: module.engine().clone(), module, pre, fuel: false }
    }
}

/// How to run one instance. `Default` matches the worker's limits.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The worker passes `[package name]`.
    pub argv: Vec<String>,
    pub stdin: Vec<u8>,
    /// `(guest path, host dir, read_only)`, in the order the guest sees them.
    pub preopens: Vec<(String, PathBuf, bool)>,
    pub time_limit: Duration,
    pub memory_limit_bytes: usize,
    /// `None`: the platform's stub, which fails every request.
    pub http: Option<HttpConfig>,
    /// Bytes the run may write to files; `None` = unlimited.
    pub write_budget: Option<u64>,
    /// With `Some(g)`: once stdout holds an answer to every request in `stdin`,
    /// the module must exit within `g` or the run ends as [`Exit::Lingered`].
    pub exit_grace: Option<Duration>,
    /// The realtime clock's reading when the run starts (time since the Unix
    /// epoch), from which it runs on; `None`: the host's clock.
    pub clock: Option<Duration>,
}

/// A realtime clock that reads `start` when the run begins and runs on
/// from there at the host's pace.
struct StartedClock {
    start: Duration,
    since: Instant,
}

impl wasmtime_wasi::HostWallClock for StartedClock {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(1)
    }

    fn now(&self) -> Duration {
        // Past u64 nanoseconds WASI's clock answers EOVERFLOW; a Duration
        // beyond u64 seconds would not be made.
        self.start.saturating_add(self.since.elapsed())
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            argv: vec!["module".into()],
            stdin: Vec::new(),
            preopens: Vec::new(),
            time_limit: Duration::from_secs(10),
            memory_limit_bytes: 256 << 20,
            http: None,
            write_budget: Some(1 << 30),
            exit_grace: None,
            clock: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `_start` returned (0) or the module called `proc_exit(n)`.
    Code(i32),
    Trap(String),
    Timeout,
    OutOfMemory,
    /// Still running `exit_grace` after answering everything (stdin was closed).
    Lingered,
}

/// How it ended, in words: `ended with …`.
impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(n) => write!(f, "exit code {n}"),
            Exit::Trap(m) => write!(f, "a trap: {m}"),
            Exit::Timeout => f.write_str("its time limit reached"),
            Exit::OutOfMemory => f.write_str("its memory limit reached"),
            Exit::Lingered => f.write_str("it still running after answering everything"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct RunOutput {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub exit: Exit,
    /// Linear memory pages right after instantiation and when `_start` ended.
    pub pages_at_start: u64,
    pub pages_at_exit: u64,
    /// Instantiate + `_start` wall time (what a call costs beyond compilation).
    pub elapsed: Duration,
    /// Fuel used by instantiation + `_start`, for a module made by
    /// [`Module::from_bytes_with_fuel`]; `None` otherwise.
    pub fuel: Option<u64>,
    /// For [`serve`]: the lines that went through; `None` for [`run`].
    pub served: Option<Served>,
}

/// What went through [`serve`]: the input lines that ask for an answer and
/// the answers, so a module that ends with input left (a panic, running out
/// of memory) can be told apart from one that answered everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Served {
    /// Input lines that ask for an answer (see `asks`): every line but
    /// notifications, requests with id null and responses.
    pub asked: usize,
    /// Stdout lines that are JSON-RPC responses.
    pub answered: usize,
    /// Whether stdin reached its end (all its lines are counted in `asked`);
    /// `false` when it was still open shortly after the module ended.
    pub input_ended: bool,
}

impl Served {
    /// The stderr notice for a module that ended with input it did not
    /// answer (`exit`: how it ended); `None` when it answered every line
    /// and read its input to the end.
    pub fn notice(&self, exit: &Exit) -> Option<String> {
        let missed = self.asked.saturating_sub(self.answered);
        if missed == 0 && self.input_ended {
            return None;
        }
        let ended = match exit {
            Exit::Code(n) => format!("exited (code {n})"),
            Exit::Trap(_) => "trapped".into(),
            Exit::Timeout => "ran out of time".into(),
            Exit::OutOfMemory => "ran out of memory".into(),
            Exit::Lingered => "was stopped".into(),
        };
        let left = match (missed, self.input_ended) {
            (0, _) => "input after that was not read".to_string(),
            (m, true) => format!("{m} more line(s) of input were not answered"),
            (m, false) => format!("{m} more line(s) of input were not answered, nor any input after them"),
        };
        Some(format!(
            "the module {ended} after answering {} request(s); {left}: a panic or running out of memory ends the \
             process, as on the platform, where each call is a fresh instance (start serve again to go on, or use \
             `subako-tiny call`, one instance per call)",
            self.answered
        ))
    }
}

/// Runs `_start` once in a fresh instance with captured stdio.
pub fn run(module: &Module, opts: &RunOptions) -> Result<RunOutput, Error> {
    run_inner(module, opts, false)
}

/// Like [`run`], but the module reads this process's stdin and writes its
/// stdout/stderr, line by line as it goes (`RunOutput` stdio stays empty).
/// Stdin and stdout pass through pipes, byte for byte, so that
/// [`RunOutput::served`] can count the lines asked and answered.
pub fn serve(module: &Module, opts: &RunOptions) -> Result<RunOutput, Error> {
    run_inner(module, opts, true)
}

/// How long [`serve`] waits, after the module ended, for the rest of stdin
/// (to count its lines): a pipe that is closed is read at once; a terminal
/// left open is not waited for.
const INPUT_TAIL_WAIT: Duration = Duration::from_millis(300);

#[derive(Default)]
struct Counts {
    asked: usize,
    answered: usize,
    input_ended: bool,
}

/// Whether an input line asks for an answer: a request with a string or
/// number id, or a line that is no JSON-RPC message, a blank one included
/// (answered with an error, as serde_json reads it); not a notification, a
/// request with id null or a response, which the module answers with
/// nothing.
fn asks(line: &[u8]) -> bool {
    use crate::rpc::Line;
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    match crate::rpc::parse_line(line) {
        Line::Request { id, .. } => !id.is_null(),
        Line::Invalid(_) => true,
        Line::Notification | Line::Response { .. } => false,
    }
}

/// A pipe's end as a file, for wasmtime-wasi's `InputFile`/`OutputFile`.
#[cfg(unix)]
fn pipe_file(end: impl Into<std::os::fd::OwnedFd>) -> std::fs::File {
    std::fs::File::from(end.into())
}
#[cfg(windows)]
fn pipe_file(end: impl Into<std::os::windows::io::OwnedHandle>) -> std::fs::File {
    std::fs::File::from(end.into())
}

/// The threads that carry this process's stdin to the module and its
/// stdout back, counting lines.
struct Pumps {
    counts: Arc<std::sync::Mutex<Counts>>,
    input_done: std::sync::mpsc::Receiver<()>,
    output: std::thread::JoinHandle<()>,
}

impl Pumps {
    fn start(b: &mut WasiCtxBuilder) -> Result<Pumps, Error> {
        use std::io::{BufRead, Read, Write};
        let (in_r, mut in_w) = std::io::pipe()?;
        let (mut out_r, out_w) = std::io::pipe()?;
        b.stdin(wasmtime_wasi::cli::InputFile::new(pipe_file(in_r)));
        b.stdout(wasmtime_wasi::cli::OutputFile::new(pipe_file(out_w)));
        let counts = Arc::new(std::sync::Mutex::new(Counts::default()));
        let (done, input_done) = std::sync::mpsc::channel();
        let c = counts.clone();
        std::thread::Builder::new().name("subako-serve-stdin".into()).spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut line = Vec::new();
            let mut open = true;
            // After the module has gone (the pipe is broken) the rest is
            // still read, only to be counted.
            while matches!(stdin.read_until(b'\n', &mut line), Ok(n) if n > 0) {
                if asks(&line) {
                    c.lock().unwrap().asked += 1;
                }
                open = open && in_w.write_all(&line).is_ok();
                line.clear();
            }
            c.lock().unwrap().input_ended = true;
            drop(in_w);
            let _ = done.send(());
        })?;
        let c = counts.clone();
        let output = std::thread::Builder::new().name("subako-serve-stdout".into()).spawn(move || {
            let mut stdout = std::io::stdout();
            let mut buf = vec![0u8; 64 << 10];
            let mut line = Vec::new();
            let mut open = true;
            while let Ok(n) = out_r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                // As the module wrote it; a closed stdout is drained so the module never blocks.
                open = open && stdout.write_all(&buf[..n]).and_then(|()| stdout.flush()).is_ok();
                for part in buf[..n].split_inclusive(|&b| b == b'\n') {
                    line.extend_from_slice(part);
                    if line.ends_with(b"\n") {
                        if crate::rpc::is_response_line(&line[..line.len() - 1]) {
                            c.lock().unwrap().answered += 1;
                        }
                        line.clear();
                    }
                }
            }
            if !line.is_empty() && crate::rpc::is_response_line(&line) {
                c.lock().unwrap().answered += 1;
            }
        })?;
        Ok(Pumps { counts, input_done, output })
    }

    /// After the module's pipes are closed: every answer printed, and the
    /// rest of stdin counted when it ends soon.
    fn finish(self) -> Served {
        let _ = self.output.join();
        let _ = self.input_done.recv_timeout(INPUT_TAIL_WAIT);
        let c = self.counts.lock().unwrap();
        Served { asked: c.asked, answered: c.answered, input_ended: c.input_ended }
    }
}

fn run_inner(module: &Module, opts: &RunOptions, inherit: bool) -> Result<RunOutput, Error> {
    let pre = module.pre.as_ref().map_err(|e| Error::NotAModule(format!("cannot link module: {e}")))?;
    if module.module.get_export("_start").and_then(|e| e.func().cloned()).is_none() {
        return Err(Error::NotAModule("module does not export `_start`: not a WASI command".into()));
    }
    let mut b = WasiCtxBuilder::new();
    b.args(&opts.argv);
    if let Some(start) = opts.clock {
        b.wall_clock(StartedClock { start, since: Instant::now() });
    }
    let stdout = MemoryOutputPipe::new(STDOUT_CAP);
    let stderr = MemoryOutputPipe::new(STDERR_CAP);
    if inherit {
        b.inherit_stderr();
    } else {
        b.stdin(MemoryInputPipe::new(opts.stdin.clone()));
        b.stdout(stdout.clone());
        b.stderr(stderr.clone());
    }
    for (guest, hostdir, ro) in &opts.preopens {
        let perms = if *ro { FsPerms::ReadOnly } else { FsPerms::ReadWrite };
        b.preopened_dir(hostdir, guest, perms)
            .map_err(|e| Error::Input(format!("cannot preopen {} at {guest}: {e:#}", hostdir.display())))?;
    }
    // Last, so nothing fails after the pumps take this process's stdin.
    let pumps = if inherit { Some(Pumps::start(&mut b)?) } else { None };
    let watch = match opts.exit_grace {
        Some(grace) if !inherit => Some(Watch {
            stdout: stdout.clone(),
            scanned: 0,
            responses: 0,
            want: crate::rpc::count_requests(&opts.stdin),
            grace,
            answered_at: None,
            lingered: false,
        }),
        _ => None,
    };
    let state = State {
        wasi: b.build_p1(),
        limiter: Limiter { limit: opts.memory_limit_bytes, hit: false },
        http: opts.http.clone().map(HttpHost::new),
        preopens: opts.preopens.clone(),
        write_budget: opts.write_budget,
        written: 0,
        deadline: Instant::now() + opts.time_limit,
        timed_out: false,
        watch,
    };
    let mut store = Store::new(&module.engine, state);
    store.limiter(|s| &mut s.limiter);
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(|mut ctx| {
        let s = ctx.data_mut();
        if Instant::now() >= s.deadline {
            s.timed_out = true;
            return Err(wasmtime::Error::msg("time limit reached"));
        }
        if let Some(w) = &mut s.watch
            && w.poll()
        {
            return Err(wasmtime::Error::msg("did not exit within the grace period after stdin closed"));
        }
        Ok(UpdateDeadline::Continue(1))
    });
    // Set outside the timed span; counted only for a fuel-counting module.
    const FUEL: u64 = u64::MAX / 2;
    if module.fuel {
        store.set_fuel(FUEL)?;
    }
    let started = Instant::now();
    store.data_mut().deadline = started + opts.time_limit;
    let mut pages_at_start = 0;
    let result = pre.instantiate(&mut store).and_then(|inst| {
        let mem = inst.get_memory(&mut store, "memory");
        if let Some(m) = mem {
            pages_at_start = m.size(&store);
        }
        let start = inst.get_typed_func::<(), ()>(&mut store, "_start")?;
        let r = start.call(&mut store, ());
        Ok((r, mem))
    });
    let elapsed = started.elapsed();
    let (exit, pages_at_exit) = match result {
        Ok((r, mem)) => {
            let pages = mem.map_or(0, |m| m.size(&store));
            (classify(&store, r.err()), pages)
        }
        Err(e) => (classify(&store, Some(e)), pages_at_start),
    };
    let fuel = if module.fuel { Some(FUEL - store.get_fuel()?) } else { None };
    // Closes the module's ends of the pipes.
    drop(store);
    let served = pumps.map(Pumps::finish);
    // A module that answered and then trapped on the deadline callback because of
    // the watch is `Lingered`, whatever the trap says.
    Ok(RunOutput {
        stdout: stdout.contents().to_vec(),
        stderr: stderr.contents().to_vec(),
        exit,
        pages_at_start,
        pages_at_exit,
        elapsed,
        fuel,
        served,
    })
}

fn classify(store: &Store<State>, e: Option<wasmtime::Error>) -> Exit {
    let s = store.data();
    let Some(e) = e else { return Exit::Code(0) };
    if let Some(code) = e.downcast_ref::<I32Exit>() {
        return Exit::Code(code.0);
    }
    if s.watch.as_ref().is_some_and(|w| w.lingered) {
        return Exit::Lingered;
    }
    if s.timed_out {
        return Exit::Timeout;
    }
    if s.limiter.hit {
        return Exit::OutOfMemory;
    }
    Exit::Trap(format!("{e:#}"))
}

/// A function signature as text (`(i32, i32) -> i32`), for comparing and reporting.
pub(crate) fn sig(ty: &wasmtime::FuncType) -> String {
    let p: Vec<String> = ty.params().map(|t| format!("{t}")).collect();
    let r: Vec<String> = ty.results().map(|t| format!("{t}")).collect();
    format!("({}) -> ({})", p.join(", "), r.join(", "))
}

/// Every WASI preview 1 function wasmtime-wasi provides, with its signature:
/// the reference `check` compares a module's imports against.
pub(crate) fn wasi_signatures() -> &'static std::collections::HashMap<String, String> {
    static SIGS: OnceLock<std::collections::HashMap<String, String>> = OnceLock::new();
    SIGS.get_or_init(|| {
        let h = host();
        let state = State {
            wasi: WasiCtxBuilder::new().build_p1(),
            limiter: Limiter { limit: 0, hit: false },
            http: None,
            preopens: Vec::new(),
            write_budget: None,
            written: 0,
            deadline: Instant::now(),
            timed_out: false,
            watch: None,
        };
        let mut store = Store::new(&h.engine, state);
        let funcs: Vec<(String, Func)> = h
            .wasi
            .iter(&mut store)
            .filter(|(m, _, _)| *m == "wasi_snapshot_preview1")
            .filter_map(|(_, name, ext)| Some((name.to_string(), ext.into_func()?)))
            .collect();
        funcs.into_iter().map(|(k, f)| (k, sig(&f.ty(&store)))).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::asks;

    /// The lines `serve` expects an answer to are those the module answers:
    /// requests with a string or number id, and lines that are no message.
    #[test]
    fn the_lines_that_ask_for_an_answer() {
        let asking = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"x"}"#,
            "not json",
            r#"{"jsonrpc":"1.0","id":1,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            "",
            "  \r",
        ];
        let silent = [
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ];
        for line in asking {
            assert!(asks(format!("{line}\n").as_bytes()), "{line}");
        }
        for line in silent {
            assert!(!asks(format!("{line}\n").as_bytes()), "{line:?}");
        }
    }
}
