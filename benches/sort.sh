#!/usr/bin/env bash
# Sorting in wasmtime fuel (wasm operators run: the same on every run):
# 1,000 to 50,000 pseudo-random u64s sorted with std's `sort` (driftsort)
# and with the crate's `sort::sort` (a merge sort of indices): the idiom
# probes `sort_fuel_std` and `sort_fuel_crate`, less `sort_fuel_none`,
# which makes the same numbers and sorts nothing.
#
#   benches/sort.sh                       # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/sort.sh
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$HERE/../target}/idioms/dlmalloc
(cd "$HERE/idioms" && cargo build --quiet --release --target wasm32-wasip1 --target-dir "$TARGET" \
    --bin sort_fuel_std --bin sort_fuel_crate --bin sort_fuel_none 2>/dev/null)
source "$HERE/fuel.sh"
D=$TARGET/wasm32-wasip1/release
printf '%8s %14s %14s %8s %12s\n' numbers std crate ratio "crate/n·log n"
for thousands in 1 5 20 50; do
    # The probes sort the name's length in thousands.
    args="{\"name\": \"$(printf '%*s' "$thousands" '' | tr ' ' x)\"}"
    base=$(call_fuel "$D/sort_fuel_none.wasm" --tool greet --args "$args")
    std=$(( $(call_fuel "$D/sort_fuel_std.wasm" --tool greet --args "$args") - base ))
    crate=$(( $(call_fuel "$D/sort_fuel_crate.wasm" --tool greet --args "$args") - base ))
    python3 -c "import math; n = $thousands * 1000; print('%8d %14d %14d %8.2f %12.1f' % (n, $std, $crate, $crate / $std, $crate / (n * math.log2(n))))"
done
