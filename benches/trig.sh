#!/usr/bin/env bash
# What a great-circle distance (haversine: sin, cos, asin, sqrt) costs, in
# wasmtime fuel (wasm operators run: the same on every run), through the
# `libm` crate and through the crate's `float` (wasi-libc's routines,
# std's own): the idiom probes `haversine_libm` and `haversine_crate`
# compute one distance for each byte of a 20,000-byte name, less the
# probe `float_base` with the same name.
#
#   benches/trig.sh                       # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/trig.sh
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$HERE/../target}/idioms/dlmalloc
(cd "$HERE/idioms" && cargo build --quiet --release --target wasm32-wasip1 --target-dir "$TARGET" \
    --bin haversine_libm --bin haversine_crate --bin float_base 2>/dev/null)
source "$HERE/fuel.sh"
D=$TARGET/wasm32-wasip1/release
args=$(python3 -c 'import json; print(json.dumps({"name": "abcdefghijklmnopqrstuvwxyz" * 769 + "abcdef"}))')
base=$(call_fuel "$D/float_base.wasm" --tool greet --args "$args")
printf '%-16s %14s %14s\n' through "fuel" "a distance"
for side in libm crate; do
    fuel=$(call_fuel "$D/haversine_$side.wasm" --tool greet --args "$args")
    python3 -c "print('%-16s %14d %14.0f' % ('$side', $fuel - $base, ($fuel - $base) / 20000))"
done
