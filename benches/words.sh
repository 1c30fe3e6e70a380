#!/usr/bin/env bash
# What `chars::words` (and so `chars::is_alphanumeric`) costs beside std's
# `split(|c: char| !c.is_alphanumeric())`, in wasmtime fuel (wasm
# operators run: the same on every run): the idiom probes `words_crate`
# and `words_std` (benches/idioms: hello answering with the name's last
# word) called with a page (10,000 chars) of text of several scripts, and
# with single words. Beyond ASCII the crate reads a compressed table for a
# char the first time it meets it, unless it stands in the run of chars
# the last read ended in (`src/chars/mod.rs`), std a larger one by halves:
# the single words show that price, the pages what is left
# once chars recur.
#
#   benches/words.sh                       # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/words.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}/idioms/lean
(cd "$ROOT/benches/idioms" && cargo build --quiet --release --target wasm32-wasip1 --bin words_crate --bin words_std \
    --bin hello --target-dir "$TARGET" --no-default-features --features lean 2>/dev/null)
ARGS=$(mktemp)
trap 'rm -f "$ARGS"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/fuel.sh"
fuel() { call_fuel "$1" --tool greet --args-file "$ARGS"; }

printf '%-26s %7s %12s %12s %12s %9s\n' text bytes "hello" "crate (+)" "std (+)" crate/std
for text in "Hello, world: a page of tea. " "Élodie, déjà vu à Montréal ! " "Καλημέρα, κόσμε. Ψάχνω λέξεις! " \
    "Привет, мир! Добрый день. " "東京、大阪。日本語のテキスト！ " "नमस्ते दुनिया, हिंदी पाठ। " "مرحبا بالعالم، نص عربي. " \
    "Καλημέρα" "テキスト" "नमस्ते"; do
    python3 - "$text" "$ARGS" <<'PY'
import json, sys
text, path = sys.argv[1], sys.argv[2]
# A page (10,000 chars) of a text ending in a space; a single word as it is.
name = (text * 10000)[:10000] if text.endswith(" ") else text
json.dump({"name": name}, open(path, "w"), ensure_ascii=False)
PY
    label=$(python3 -c 'import sys; t=sys.argv[1]; print(t.strip()[:14] + (" (page)" if t.endswith(" ") else " (word)"))' "$text")
    bytes=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["name"].encode()))' "$ARGS")
    base=$(fuel "$TARGET/wasm32-wasip1/release/hello.wasm")
    ours=$(($(fuel "$TARGET/wasm32-wasip1/release/words_crate.wasm") - base))
    std=$(($(fuel "$TARGET/wasm32-wasip1/release/words_std.wasm") - base))
    printf '%-26s %7s %12s %12s %12s %9.2f\n' "$label" "$bytes" "$base" "$ours" "$std" "$(python3 -c "print($ours/$std)")"
done
