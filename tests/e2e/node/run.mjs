// Runs one Subako function module (a WASI preview 1 command) in Node's
// built-in WASI (V8), once, the way the platform runs it: argv as given, no
// environment variables, only the preopens asked for, and `subako_http` as
// the platform's local stub (every `request` returns -1, every
// `read_response` -2: there is no network here).
//
//   node tests/e2e/node/run.mjs [--stdin FILE] [--dir GUEST=HOST]... MODULE.wasm [ARG...]
//
// ARGs are the module's argv (the platform passes `[package name]`; without
// any, argv is the module file's stem). `--stdin FILE` feeds FILE to the
// module's fd 0; without it the module reads this process's stdin. Each
// `--dir` preopens HOST at GUEST, in the order given. The module writes
// straight to this process's stdout (fd 1) and stderr (fd 2).
//
// Not the worker's sandbox: Node's WASI has no read-only preopens (a module
// can create files under a `/package` given here, where wasmtime's runner
// answers EPERM), and this script sets no memory cap, time limit or file
// write budget (EDQUOT). It is a second engine for comparing answers, not a
// stand-in for `subako-tiny call`.
//
// Exits with the module's exit code (`_start` returning is 0, `proc_exit(n)`
// is n); 134 when the module traps, 64 for a bad command line, 70 when the
// module cannot be loaded or linked. Node 20+ (WASI `version: 'preview1'`).
// Node 20 prints an ExperimentalWarning for WASI; that one warning is
// dropped so that stderr is the module's own, every other warning is kept.

import { closeSync, openSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

const printWarning = process.listeners('warning');
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /\bWASI\b/.test(warning.message)) return;
  for (const listener of printWarning) listener(warning);
});
// Imported only now: Node 20 warns as the module loads.
const { WASI } = await import('node:wasi');

const USAGE = 'usage: node run.mjs [--stdin FILE] [--dir GUEST=HOST]... MODULE.wasm [ARG...]';

function fail(code, message) {
  process.stderr.write(`run.mjs: ${message}\n`);
  process.exit(code);
}

let stdinPath = null;
const preopens = {};
const rest = process.argv.slice(2);
while (rest.length > 0 && rest[0].startsWith('--')) {
  const flag = rest.shift();
  if (flag === '--') break;
  const value = rest.shift();
  if (value === undefined) fail(64, `${flag} needs a value\n${USAGE}`);
  if (flag === '--stdin') {
    stdinPath = value;
  } else if (flag === '--dir') {
    const at = value.indexOf('=');
    if (at <= 0 || at === value.length - 1) fail(64, `--dir wants GUEST=HOST, not ${value}\n${USAGE}`);
    preopens[value.slice(0, at)] = value.slice(at + 1);
  } else {
    fail(64, `unknown option ${flag}\n${USAGE}`);
  }
}
const modulePath = rest.shift();
if (modulePath === undefined) fail(64, USAGE);
const args = rest.length > 0 ? rest : [basename(modulePath).replace(/\.wasm$/, '')];

// The platform's local stub for the HTTP imports (../shared PROTOCOL.md,
// the templates' tests/subako_http_stub.wat): no request is ever performed
// or held.
const subakoHttp = {
  request: (_ptr, _len) => -1,
  read_response: (_ptr, _len) => -2,
};

let module;
try {
  module = await WebAssembly.compile(readFileSync(modulePath));
} catch (e) {
  fail(70, `cannot load ${modulePath}: ${e.message}`);
}
const stdin = stdinPath === null ? 0 : openSync(stdinPath, 'r');
const wasi = new WASI({ version: 'preview1', args, env: {}, preopens, returnOnExit: true, stdin, stdout: 1, stderr: 2 });
let instance;
try {
  instance = await WebAssembly.instantiate(module, {
    wasi_snapshot_preview1: wasi.wasiImport,
    subako_http: subakoHttp,
  });
} catch (e) {
  fail(70, `cannot link ${modulePath}: ${e.message}`);
}

let code;
try {
  code = wasi.start(instance);
} catch (e) {
  if (e instanceof WebAssembly.RuntimeError) fail(134, `the module trapped: ${e.message}`);
  fail(70, `cannot run ${modulePath}: ${e.message}`);
}
if (stdin !== 0) closeSync(stdin);
process.exitCode = code;
