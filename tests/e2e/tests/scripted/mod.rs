//! A WASI preview 1 host whose answers a test scripts: wasmtime and
//! wasmtime-wasi as the runner uses them (a fresh store per run, real
//! preopened directories, stdio in memory), with some functions wrapped to
//! answer as a broken or hostile platform would (EINTR on every read or
//! write, an errno from `path_open`, a `subako_http` that answers whatever
//! the test says) and every `fd_readdir` counted. Test code only: the
//! runner's own host stays the worker's.
//!
//! Each test file that runs modules here says `mod scripted;`.
#![allow(dead_code)] // each test file uses its own part

use std::path::Path;
use std::sync::OnceLock;

use wasmtime::{Caller, Config, Engine, Extern, Linker, Module, Store};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p1::wasi_snapshot_preview1::{self as p1, WasiSnapshotPreview1};
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{FsPerms, I32Exit, WasiCtxBuilder};

const P1: &str = "wasi_snapshot_preview1";
/// WASI's `errno::intr`.
pub const EINTR: i32 = 27;
/// Calls answered EINTR after which a run is judged to spin: it traps.
pub const SPIN: u64 = 100_000;
/// Fuel (wasm operators) a run may use before it traps.
const FUEL: u64 = 20_000_000_000;

/// What the subako_http `request` import answers, from the request JSON.
pub type HttpAnswer = Box<dyn FnMut(&[u8]) -> Vec<u8> + Send>;

/// How the host misbehaves; the `Default` is wasmtime-wasi unchanged.
#[derive(Default)]
pub struct Script {
    /// `fd_write` to these descriptors answers EINTR and writes nothing.
    pub interrupt_writes: Vec<i32>,
    /// `fd_read` from these descriptors answers EINTR and reads nothing.
    pub interrupt_reads: Vec<i32>,
    /// `path_open` answers this errno and opens nothing.
    pub path_open_errno: Option<i32>,
    /// `Some`: the module imports `subako_http`, answered by this.
    pub http: Option<HttpAnswer>,
}

/// What the module asked of the host.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Every `fd_write` call, answered or interrupted.
    pub fd_write: u64,
    /// Every `fd_read` call, answered or interrupted.
    pub fd_read: u64,
    /// Every `fd_readdir` call: its cookie and buffer length.
    pub fd_readdir: Vec<(u64, u32)>,
    /// Every `subako_http.request`, its request JSON.
    pub http_requests: Vec<Vec<u8>>,
}

/// How a run ended and what it wrote.
#[derive(Debug)]
pub struct Ran {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// The exit code (`_start` returning is 0), or the trap's message.
    pub exit: Result<i32, String>,
    pub counts: Counts,
    /// Wasm operators the run executed (instantiation and `_start`).
    pub fuel: u64,
}

impl Ran {
    pub fn stdout_text(&self) -> &str {
        std::str::from_utf8(&self.stdout).expect("stdout is UTF-8")
    }

    /// The one answer on stdout, parsed.
    pub fn answer(&self) -> serde_json::Value {
        let text = self.stdout_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "one answer expected; stdout: {text}\nstderr: {}", self.stderr_text());
        serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("not JSON ({e}): {}", lines[0]))
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

pub struct State {
    wasi: WasiP1Ctx,
    script: Script,
    counts: Counts,
    interrupted: u64,
    held: Option<Vec<u8>>,
}

struct Host {
    engine: Engine,
    /// WASI preview 1 as wasmtime-wasi defines it, with the scripted
    /// wrappers and `subako_http`.
    linker: Linker<State>,
}

/// wasmtime-wasi's own preview 1 function `$f`, called as wiggle's glue
/// calls it (the runner's budgeted `fd_write` does the same).
macro_rules! original {
    ($c:expr, $f:ident($($arg:expr),*)) => {{
        let c: &mut Caller<'_, State> = $c;
        let Some(mem) = c.get_export("memory").and_then(Extern::into_memory) else {
            return Err(wasmtime::Error::msg("missing required memory export"));
        };
        let fuel = wasmtime::AsContextMut::as_context_mut(&mut *c).hostcall_fuel();
        let (data, state) = mem.data_and_store_mut(&mut *c);
        state.wasi.set_hostcall_fuel(fuel);
        let mut memory = wiggle::GuestMemory::Unshared(data);
        wasmtime_wasi::runtime::in_tokio(p1::$f(&mut state.wasi, &mut memory, $($arg),*))
    }};
}

fn host() -> &'static Host {
    static HOST: OnceLock<Host> = OnceLock::new();
    HOST.get_or_init(|| {
        let mut config = Config::new();
        config.consume_fuel(true);
        let engine = Engine::new(&config).unwrap();
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p1::add_to_linker_sync(&mut linker, |s: &mut State| &mut s.wasi).unwrap();
        linker.allow_shadowing(true);
        linker
            .func_wrap(P1, "fd_write", |mut c: Caller<'_, State>, fd: i32, iovs: i32, n: i32, out: i32| {
                c.data_mut().counts.fd_write += 1;
                if c.data().script.interrupt_writes.contains(&fd) {
                    return interrupted(&mut c);
                }
                original!(&mut c, fd_write(fd, iovs, n, out))
            })
            .unwrap();
        linker
            .func_wrap(P1, "fd_read", |mut c: Caller<'_, State>, fd: i32, iovs: i32, n: i32, out: i32| {
                c.data_mut().counts.fd_read += 1;
                if c.data().script.interrupt_reads.contains(&fd) {
                    return interrupted(&mut c);
                }
                original!(&mut c, fd_read(fd, iovs, n, out))
            })
            .unwrap();
        linker
            .func_wrap(
                P1,
                "fd_readdir",
                |mut c: Caller<'_, State>, fd: i32, buf: i32, len: i32, cookie: i64, out: i32| {
                    c.data_mut().counts.fd_readdir.push((cookie as u64, len as u32));
                    original!(&mut c, fd_readdir(fd, buf, len, cookie, out))
                },
            )
            .unwrap();
        linker
            .func_wrap(
                P1,
                "path_open",
                |mut c: Caller<'_, State>,
                 fd: i32,
                 dirflags: i32,
                 path: i32,
                 path_len: i32,
                 oflags: i32,
                 base: i64,
                 inheriting: i64,
                 fdflags: i32,
                 out: i32| {
                    if let Some(errno) = c.data().script.path_open_errno {
                        return Ok(errno);
                    }
                    original!(&mut c, path_open(fd, dirflags, path, path_len, oflags, base, inheriting, fdflags, out))
                },
            )
            .unwrap();
        linker
            .func_wrap("subako_http", "request", |mut c: Caller<'_, State>, ptr: i32, len: i32| -> i32 {
                let Some(request) = memory(&mut c, ptr, len).map(|r| r.to_vec()) else { return -1 };
                let state = c.data_mut();
                state.counts.http_requests.push(request.clone());
                let Some(answer) = state.script.http.as_mut() else { return -1 };
                let answer = answer(&request);
                let n = answer.len() as i32;
                state.held = Some(answer);
                n
            })
            .unwrap();
        linker
            .func_wrap("subako_http", "read_response", |mut c: Caller<'_, State>, ptr: i32, len: i32| -> i32 {
                let Some(held) = c.data_mut().held.take() else { return -2 };
                if held.len() != len as u32 as usize {
                    return -3;
                }
                let Some(mem) = c.get_export("memory").and_then(Extern::into_memory) else { return -1 };
                match mem.write(&mut c, ptr as u32 as usize, &held) {
                    Ok(()) => 0,
                    Err(_) => -1,
                }
            })
            .unwrap();
        Host { engine, linker }
    })
}

/// One more interrupted call; a trap once there have been [`SPIN`].
fn interrupted(c: &mut Caller<'_, State>) -> wasmtime::Result<i32> {
    let state = c.data_mut();
    state.interrupted += 1;
    if state.interrupted >= SPIN {
        return Err(wasmtime::Error::msg(format!("spinning: {SPIN} calls answered EINTR, and still retrying")));
    }
    Ok(EINTR)
}

fn memory<'c>(c: &'c mut Caller<'_, State>, ptr: i32, len: i32) -> Option<&'c [u8]> {
    let mem = c.get_export("memory")?.into_memory()?;
    let start = ptr as u32 as usize;
    mem.data(&*c).get(start..start.checked_add(len as u32 as usize)?)
}

/// Compiles `wasm` for this host (once per call: tests compile what they run).
pub fn compile(wasm: &Path) -> Module {
    Module::from_file(&host().engine, wasm).unwrap_or_else(|e| panic!("{}: {e:#}", wasm.display()))
}

/// Runs `_start` of `module` once in a fresh instance with `argv`, `stdin`
/// and read-write `preopens` (guest path, host directory).
pub fn run(module: &Module, argv: &[&str], stdin: &[u8], preopens: &[(&str, &Path)], script: Script) -> Ran {
    let h = host();
    let stdout = MemoryOutputPipe::new(64 << 20);
    let stderr = MemoryOutputPipe::new(16 << 20);
    let mut b = WasiCtxBuilder::new();
    b.args(argv).stdin(MemoryInputPipe::new(stdin.to_vec())).stdout(stdout.clone()).stderr(stderr.clone());
    for (guest, dir) in preopens {
        b.preopened_dir(dir, guest, FsPerms::ReadWrite).unwrap();
    }
    let state = State { wasi: b.build_p1(), script, counts: Counts::default(), interrupted: 0, held: None };
    let mut store = Store::new(&h.engine, state);
    store.set_fuel(FUEL).unwrap();
    let result = h.linker.instantiate(&mut store, module).and_then(|instance| {
        let start = instance.get_typed_func::<(), ()>(&mut store, "_start")?;
        start.call(&mut store, ())
    });
    let exit = match result {
        Ok(()) => Ok(0),
        Err(e) => match e.downcast_ref::<I32Exit>() {
            Some(code) => Ok(code.0),
            None => Err(format!("{e:#}")),
        },
    };
    let fuel = FUEL - store.get_fuel().unwrap();
    Ran {
        stdout: stdout.contents().to_vec(),
        stderr: stderr.contents().to_vec(),
        exit,
        counts: std::mem::take(&mut store.data_mut().counts),
        fuel,
    }
}

/// A `tools/call` request line for `tool` with `arguments`, as the worker
/// writes it.
pub fn call_line(tool: &str, arguments: serde_json::Value) -> Vec<u8> {
    subako_tiny_e2e::request(
        serde_json::json!("call-1"),
        "tools/call",
        serde_json::json!({"name": tool, "arguments": arguments}),
    )
    .into_bytes()
}

/// [`call_line`] with `arguments` as JSON text, put in as it is: for
/// arguments serde_json's `Value` cannot hold (a member named twice).
pub fn call_line_raw(tool: &str, arguments: &str) -> Vec<u8> {
    let line = String::from_utf8(call_line(tool, serde_json::json!("ARGUMENTS"))).unwrap();
    line.replacen(r#""arguments":"ARGUMENTS""#, &format!(r#""arguments":{arguments}"#), 1).into_bytes()
}
