#!/usr/bin/env bash
# Issue 27's `validated!` target: a typed tool behind `validated!` (object
# keywords and string bounds) counting the characters of a 128 KB, mostly
# Japanese argument, beside the same tool on the official SDK, in wasmtime
# fuel (wasm operators run: the same on every run). The tools are
# benches/validated/ours and benches/validated/official; the target is
# ours <= 0.5 x the official's.
#
#   benches/validated.sh                       # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/validated.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}/validated
for side in ours official; do
    (cd "$ROOT/benches/validated/$side" && cargo build --quiet --ignore-rust-version --release \
        --target wasm32-wasip1 --target-dir "$TARGET/$side")
done
ARGS=$(mktemp)
trap 'rm -f "$ARGS"' EXIT
python3 - "$ARGS" <<'PY'
import json, sys
# Mostly Japanese, some ASCII and punctuation: 128 KiB of UTF-8.
piece = "日本語のテキスト、これは試験です。Subako の関数 "
text = ""
while len((text + piece).encode()) <= 128 * 1024:
    text += piece
json.dump({"text": text}, open(sys.argv[1], "w"), ensure_ascii=False)
PY

source "$(dirname "${BASH_SOURCE[0]}")/fuel.sh"
fuel() { call_fuel "$1" --tool count --args-file "$ARGS"; }
ours=$(fuel "$TARGET/ours/wasm32-wasip1/release/validated-count.wasm")
official=$(fuel "$TARGET/official/wasm32-wasip1/release/validated-count.wasm")
python3 - "$ours" "$official" "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["text"].encode()))' "$ARGS")" <<'PY'
import sys
ours, official, size = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
ratio = ours / official
print(f"count over {size} bytes of mostly Japanese text, behind validated!")
print(f"  ours      {ours:>12,} fuel ({ours / size:.1f} per byte)")
print(f"  official  {official:>12,} fuel ({official / size:.1f} per byte)")
print(f"  ours / official {ratio:.2f}: target <= 0.50 " + ("met" if ratio <= 0.5 else "NOT MET"))
PY
