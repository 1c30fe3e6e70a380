#!/usr/bin/env bash
# Issue 27's `validated!` target: a typed tool behind `validated!` (object
# keywords and string bounds) counting the characters of a 128 KB, mostly
# Japanese argument, beside the same tool on the official SDK, in wasmtime
# fuel (wasm operators run: the same on every run). The tools are
# benches/validated/ours and benches/validated/official; the target is
# ours <= 0.5 x the official's. Then `total`: an order of 1 and of 100
# lines, each an object, behind `validated!` with a described schema (the
# item schema is read once for all the lines), beside its serde twin,
# which checks the types but not the bounds.
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

ORDERS=$(mktemp -d)
trap 'rm -rf "$ARGS" "$ORDERS"' EXIT
for n in 1 100; do
    python3 -c '
import json, sys
n = int(sys.argv[1])
lines = [{"sku": "SKU-%d" % i, "qty": i % 7 + 1, "unit_price": 12.5 + i} for i in range(n)]
print(json.dumps({"items": lines, "currency": "EUR"}))' "$n" > "$ORDERS/$n.json"
    ours=$(call_fuel "$TARGET/ours/wasm32-wasip1/release/validated-count.wasm" --tool total --args-file "$ORDERS/$n.json")
    official=$(call_fuel "$TARGET/official/wasm32-wasip1/release/validated-count.wasm" --tool total --args-file "$ORDERS/$n.json")
    python3 -c '
import sys
n, ours, official = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
print("total of an order of %d line%s behind validated!" % (n, "s" if n > 1 else ""))
print(f"  ours      {ours:>12,} fuel")
print(f"  official  {official:>12,} fuel")
print(f"  ours / official {ours / official:.2f}")' "$n" "$ours" "$official"
done
