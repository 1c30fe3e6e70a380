#!/usr/bin/env bash
# What `case::to_lowercase` costs beside std's `str::to_lowercase`, in
# wasmtime fuel (wasm operators run: the same on every run): the idiom
# probes `lower_crate` and `lower_std` (benches/idioms: hello with the
# name lowercased) called with texts of several scripts, a page of each
# and a single word. The crate reads a compressed table for a letter
# beyond Latin-1 the first time it meets it (`src/case/mod.rs`): the
# single words show that price, the pages what is left once letters recur.
# The last column is the mapping's own work: each probe's fuel less that of
# the probe `owned` (the name copied, not mapped) with the same text.
# A second table counts "ÖD" in pages of several scripts, ignoring case:
# the probes `count_ignore_case_crate` and `count_ignore_case_std`.
#
#   benches/case.sh                       # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/case.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}/idioms/lean
(cd "$ROOT/benches/idioms" && cargo build --quiet --release --target wasm32-wasip1 --bin lower_crate --bin lower_std --bin owned \
    --bin count_ignore_case_crate --bin count_ignore_case_std \
    --target-dir "$TARGET" --no-default-features --features lean 2>/dev/null)
ARGS=$(mktemp)
trap 'rm -f "$ARGS"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/fuel.sh"
fuel() { call_fuel "$1" --tool greet --args-file "$ARGS"; }

printf '%-34s %7s %14s %14s %8s %9s\n' text bytes "crate (fuel)" "std (fuel)" crate/std "mapping"
for text in "Hello World " "THE QUICK BROWN FOX " "Élodie déjà vu à Montréal " "Łódź Čeština Ağaç " \
    "ΑΘΗΝΑ Καλημέρα κόσμε " "ΟΔΥΣΣΕΥΣ ΑΘΗΝΑ ΛΟΓΟΣ " "ΣΑΣ ΛΕΣ " "ΟΔΥΣ。ΛΟΓΟΣ、東京 " $'Σ\u0301\u0301\u0301\u0301 ' \
    "Привет мир Добрый день " "Բարեւ Աշխարհ " "日本語のテキスト " \
    "Καλημέρα" "Добрый" "Łódź"; do
    python3 - "$text" "$ARGS" <<'PY'
import json, sys
text, path = sys.argv[1], sys.argv[2]
# A page (10,000 chars) of a text ending in a space; a single word as it is.
name = (text * 10000)[:10000] if text.endswith(" ") else text
json.dump({"name": name}, open(path, "w"), ensure_ascii=False)
PY
    label=$(python3 -c 'import sys; t=sys.argv[1]; print((t.strip()[:14] + (" (page)" if t.endswith(" ") else " (word)")))' "$text")
    bytes=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["name"].encode()))' "$ARGS")
    ours=$(fuel "$TARGET/wasm32-wasip1/release/lower_crate.wasm")
    std=$(fuel "$TARGET/wasm32-wasip1/release/lower_std.wasm")
    copied=$(fuel "$TARGET/wasm32-wasip1/release/owned.wasm")
    printf '%-34s %7s %14s %14s %8.2f %9.2f\n' "$label" "$bytes" "$ours" "$std" "$(python3 -c "print($ours/$std)")" \
        "$(python3 -c "print(($ours - $copied) / max($std - $copied, 1))")"
done

echo
printf '%-34s %7s %14s %14s %8s\n' "\"ÖD\" counted in" bytes "crate (fuel)" "std (fuel)" crate/std
for text in "Hello World " "Élodie déjà vu à Montréal, öde Ödnis " "Привет мир Добрый день " "日本語のテキスト " \
    "ΑΘΗΝΑ Καλημέρα κόσμε "; do
    python3 - "$text" "$ARGS" <<'PY'
import json, sys
text, path = sys.argv[1], sys.argv[2]
json.dump({"name": (text * 10000)[:10000]}, open(path, "w"), ensure_ascii=False)
PY
    bytes=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["name"].encode()))' "$ARGS")
    ours=$(fuel "$TARGET/wasm32-wasip1/release/count_ignore_case_crate.wasm")
    std=$(fuel "$TARGET/wasm32-wasip1/release/count_ignore_case_std.wasm")
    printf '%-34s %7s %14s %14s %8.2f\n' "$(python3 -c 'import sys; print(sys.argv[1].strip()[:14] + " (page)")' "$text")" \
        "$bytes" "$ours" "$std" "$(python3 -c "print($ours/$std)")"
done
