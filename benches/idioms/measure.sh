#!/usr/bin/env bash
# What each std idiom and its subako-tiny equivalent add to a module: every
# probe in src/bin (examples/hello.rs with one statement added) built for
# wasm32-wasip1 with the size profile, with the lean allocator and with
# dlmalloc, and the bytes each adds over its baseline printed as a table.
# Also checks that each float operation is its wasm instruction.
#
#   benches/idioms/measure.sh              # build and print
#   SKIP_BUILD=1 benches/idioms/measure.sh # print what is built
#   benches/idioms/measure.sh --record     # and write every probe's bytes to
#                                          # docs/idioms.json, the record the
#                                          # README's and the guide's price
#                                          # tables are made from (then
#                                          # ./size-report --record)
#
# Needs the wasm32-wasip1 target; `wasm2wat` (wabt) for the instruction check.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}/idioms

build() { # allocator features...
    local label=$1
    shift
    (cd "$HERE" && cargo build --quiet --release --target wasm32-wasip1 --bins \
        --target-dir "$TARGET/$label" "$@")
}

if [[ -z "${SKIP_BUILD:-}" ]]; then
    build lean --no-default-features --features lean
    build dlmalloc
fi

size() { # label bin
    stat -c %s "$TARGET/$1/wasm32-wasip1/release/$2.wasm"
}

# idiom; std probe; crate probe; baseline probe
ROWS=(
    "s.to_lowercase();lower_std;lower_crate;hello"
    "s.to_uppercase();upper_std;upper_crate;hello"
    "to_lowercase + to_uppercase;case_std;case_crate;hello"
    "a.to_lowercase() == b.to_lowercase();eq_ignore_case_std;eq_ignore_case_crate;hello"
    "h.to_lowercase().contains(&n.to_lowercase());contains_ignore_case_std;contains_ignore_case_crate;hello"
    "h.to_lowercase().matches(&n.to_lowercase()).count();count_ignore_case_std;count_ignore_case_crate;hello"
    "s.parse::<f64>();parse_f64_std;parse_f64_crate;hello"
    "s.parse::<i64>();parse_i64_std;parse_i64_crate;hello"
    "s.parse::<u64>();parse_u64_std;parse_u64_crate;hello"
    "s.parse::<i32>();parse_i32_std;parse_i32_crate;hello"
    "v.sort() on a Vec<String>;sort_std;sort_crate;vec_strings"
    "v.sort_by_key(|s| s.len());sort_by_key_std;sort_by_key_crate;vec_strings"
    "sqrt(x);-;sqrt_crate;float_base"
    "floor(x);-;floor_crate;float_base"
    "ceil(x);-;ceil_crate;float_base"
    "trunc(x);-;trunc_crate;float_base"
    "round_ties_even(x);-;round_ties_even_crate;float_base"
    "round(x) (halves away from zero);-;round_crate;float_base"
    "abs(x);-;abs_crate;float_base"
    "copysign(x, y);-;copysign_crate;float_base"
    "format!(\"{x}\");display_std;display_crate;float_base"
    "format!(\"{x:.2}\");fixed_std;fixed_crate;float_base"
    "format!(\"{n:04}\") with an integer;zero_padded_std;zero_padded_crate;hello"
    "format!(\"{x:.2}\").parse::<f64>();round_to_std;round_to_crate;float_base"
    "min(x, y);min_std;min_crate;float_base"
    "max(x, y);-;max_crate;float_base"
    "f32 sqrt(x);-;sqrt_f32_crate;float_base"
    "libm sin, cos, asin, sqrt (a haversine);haversine_libm;haversine_crate;float_base"
    "s.trim();trim_std;trim_crate;hello"
    "s.chars().count();count_std;count_crate;hello"
    "s.find(\"ab\");find_std;find_crate;hello"
    "BTreeMap<String, u64> count, key order;count_map_std;tally_crate;vec_strings"
    "c.is_alphanumeric();alnum_std;alnum_crate;hello"
    "s.split(|c| !c.is_alphanumeric()) (words);words_std;words_crate;hello"
    "s.split('\\t');split_std;split_crate;hello"
    "s.lines();lines_std;lines_crate;hello"
    "quoted CSV fields (std has none);-;csv_crate;hello"
    "a random number (std has none);-;random_crate;hello"
    "a shuffle by a seed (std has none);-;shuffle_crate;hello"
)
# For reference: what the crate's and std's cheaper ways cost.
REFERENCE=(
    "args.opt_float(\"x\") (parse_f64 must cost no more);opt_float;hello"
    "s.to_ascii_lowercase();ascii_lower_std;hello"
    "v.sort_unstable() on a Vec<String>;sort_unstable_std;vec_strings"
    "a Vec<String> of runtime length (the sort rows' baseline);vec_strings;hello"
    "name.to_owned();owned;hello"
    "fs::read, an error by FsError::message() (as ? words it);fs_errors_crate;hello"
    "fs::read, an error by FsError::short_message();fs_short_errors_crate;hello"
)

delta() { # label bin base
    if [[ $2 == - ]]; then printf -- "-"; else printf "+%d" $(($(size "$1" "$2") - $(size "$1" "$3"))); fi
}

printf "%-50s %10s %10s %10s %10s\n" "idiom" "std lean" "crate lean" "std dl" "crate dl"
for row in "${ROWS[@]}"; do
    IFS=';' read -r name std crate base <<<"$row"
    printf "%-50s %10s %10s %10s %10s\n" "$name" "$(delta lean "$std" "$base")" "$(delta lean "$crate" "$base")" \
        "$(delta dlmalloc "$std" "$base")" "$(delta dlmalloc "$crate" "$base")"
done
echo
printf "%-58s %10s %10s\n" "for reference" "lean" "dl"
for row in "${REFERENCE[@]}"; do
    IFS=';' read -r name bin base <<<"$row"
    printf "%-58s %10s %10s\n" "$name" "$(delta lean "$bin" "$base")" "$(delta dlmalloc "$bin" "$base")"
done
echo
printf "lean hello: %d bytes, dlmalloc hello: %d bytes\n" "$(size lean hello)" "$(size dlmalloc hello)"

if [[ "${1:-}" == --record ]]; then
    python3 - "$TARGET" "$ROOT/docs/idioms.json" "$(rustc --version)" <<'PY'
import datetime, json, pathlib, sys
target, out, rustc = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
sizes = {label: {p.stem: p.stat().st_size for p in sorted((target / label / "wasm32-wasip1/release").glob("*.wasm"))}
         for label in ("lean", "dlmalloc")}
record = {"command": "benches/idioms/measure.sh --record", "date": datetime.date.today().isoformat(),
          "rustc": rustc.split()[1], "bytes": sizes}
out.write_text(json.dumps(record, indent=1) + "\n")
print(f"recorded {len(sizes['lean'])} probes' bytes in {out}: now ./size-report --record")
PY
fi

if command -v wasm2wat >/dev/null; then
    status=0
    for op in sqrt:f64.sqrt floor:f64.floor ceil:f64.ceil trunc:f64.trunc round_ties_even:f64.nearest \
        abs:f64.abs copysign:f64.copysign sqrt_f32:f32.sqrt; do
        bin=${op%%:*}_crate
        if ! wasm2wat "$TARGET/lean/wasm32-wasip1/release/$bin.wasm" | grep -c "${op#*:}" >/dev/null; then
            echo "$bin: no ${op#*:} instruction" >&2
            status=1
        fi
    done
    [[ $status == 0 ]] && echo "each float operation is its wasm instruction"
    exit $status
fi
