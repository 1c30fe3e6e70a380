#!/usr/bin/env bash
# Writing and reading floats, in wasmtime fuel (wasm operators run: the same on every
# run): 1,000 numbers of each kind a tool writes, with the crate's writer
# (`text!`, the JSON writer) and with core's (`write!(s, "{x}")`), each a
# probe of benches/idioms (hello with one statement), less the same probe
# writing none. Prices (two decimals) and whole numbers take the writer's
# short path; computed values (17 digits) the 128-bit product. Then the
# same to two decimals, with `text::fixed` and with `{:.2}`. Then
# reading: 1,000 of each spelling in the table below with `num::parse_f64`
# and with `str::parse::<f64>`, less a probe that splits the same text and
# reads none (a number's fuel).
#
#   benches/floats.sh                    # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/floats.sh
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$HERE/../target}/idioms/dlmalloc
(cd "$HERE/idioms" && cargo build --quiet --release --target wasm32-wasip1 --target-dir "$TARGET" \
    --bin write_floats_std --bin write_floats_crate --bin write_fixed_std --bin write_fixed_crate \
    --bin read_floats_crate --bin read_floats_std --bin read_floats_none 2>/dev/null)
source "$HERE/fuel.sh"
fuel() { # probe name
    call_fuel "$TARGET/wasm32-wasip1/release/$1.wasm" --tool greet --args "{\"name\":\"$2\"}"
}
thousand() { # the kind's letter, 1,000 times
    printf "%1000s" "" | tr ' ' "$1"
}
written() { # heading, the crate's column and probe, core's column and probe: 1,000 of each kind
    printf '%-36s %12s %12s %8s\n' "$1" "$2" "$4" "ratio"
    for row in "prices (19.99, 0.37);p" "whole numbers (3.0, 42.0);w" "computed values (0.15714285714285714);c"; do
        IFS=';' read -r name kind <<<"$row"
        ours=$(($(fuel "$3" "$(thousand "$kind")") - $(fuel "$3" "")))
        core=$(($(fuel "$5" "$(thousand "$kind")") - $(fuel "$5" "")))
        printf '%-36s %12s %12s %8s\n' "$name" "$ours" "$core" "$(python3 -c "print(f'{$ours / $core:.2f}')")"
    done
}
written "1,000 floats written" subako-tiny write_floats_crate core write_floats_std
echo
written "1,000 floats to two decimals" text::fixed write_fixed_crate "{:.2}" write_fixed_std

echo
printf '%-36s %12s %12s %8s\n' "a number read (fuel, of 1,000)" "subako-tiny" "core" "ratio"
for number in 12.5 35.689487 3.14159265358979 12345678901234567 0.15714285714285714 1733412345.123456 \
    6.02214076e23 1e-7 -1.5E-7 1.2345678901234567e-200; do
    # The number 1,000 times, a space between.
    words=$(python3 -c "import sys; print(' '.join([sys.argv[1]] * 1000))" "$number")
    none=$(fuel read_floats_none "$words")
    ours=$((($(fuel read_floats_crate "$words") - none) / 1000))
    core=$((($(fuel read_floats_std "$words") - none) / 1000))
    printf '%-36s %12s %12s %8s\n' "$number" "$ours" "$core" "$(python3 -c "print(f'{$ours / $core:.2f}')")"
done
