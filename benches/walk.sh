#!/usr/bin/env bash
# Reading JSON text, in wasmtime fuel (wasm operators run: the same on every
# run), a byte: `json::parse` (which validates the whole text) and one
# `Value::at` of its last member (which skips every member before it), on
# four kinds of document of 8–16 KB: a weather forecast's arrays of numbers
# and times, an API's list of records, one long text, deeply nested arrays.
# Each a probe of benches/idioms (hello with one statement): parsing less a
# probe that reads the same argument and parses nothing, then parsing and
# looking up less parsing alone. Then three members of every entry of a
# list of records, read two ways, a byte beyond parsing: each entry passed
# (`iter`), then its members walked (`Object::fields`); and each entry
# read once (`Array::fields`).
#
#   benches/walk.sh                    # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/walk.sh
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$HERE/../target}/idioms/dlmalloc
(cd "$HERE/idioms" && cargo build --quiet --release --target wasm32-wasip1 --target-dir "$TARGET" \
    --bin walk_json_base --bin walk_json_none --bin walk_json_crate \
    --bin entries_iter_crate --bin entries_fields_crate 2>/dev/null)
source "$HERE/fuel.sh"
D=$TARGET/wasm32-wasip1/release
printf '%-10s %8s %14s %14s\n' document bytes "parse a byte" "walk a byte"
for kind in forecast records text nested; do
    # The document, as the `name` argument of a tools/call.
    args=$(python3 - "$kind" <<'PY'
import json, random, sys
random.seed(1)
kind = sys.argv[1]
if kind == "forecast":
    doc = {"latitude": 35.7, "hourly": {
        "time": ["2026-12-%02dT%02d:00" % (1 + i // 24, i % 24) for i in range(240)],
        "temperature_2m": [round(random.uniform(-5, 30), 1) for _ in range(240)],
        "precipitation": [round(random.random() * 3, 2) for _ in range(240)]}}
elif kind == "records":
    doc = {"items": [{"id": i, "name": "item %d" % i, "ok": i % 2 == 0, "tags": ["a", "b"],
                      "price": round(random.random() * 100, 2)} for i in range(200)]}
elif kind == "text":
    doc = {"body": "".join(random.choice("abcdefghij klmnop 日本語テキスト") for _ in range(8000)), "title": "x"}
else:
    doc = {"a": [[[{"x": [1, 2, {"y": [3, 4]}]}] for _ in range(50)] for _ in range(10)]}
doc["last"] = 1
print(json.dumps({"name": json.dumps(doc, ensure_ascii=False)}, ensure_ascii=False))
PY
)
    bytes=$(python3 -c "import json, sys; print(len(json.loads(sys.argv[1])['name'].encode()))" "$args")
    base=$(call_fuel "$D/walk_json_base.wasm" --tool greet --args "$args")
    parsed=$(call_fuel "$D/walk_json_none.wasm" --tool greet --args "$args")
    walked=$(call_fuel "$D/walk_json_crate.wasm" --tool greet --args "$args")
    python3 -c "print('%-10s %8d %14.1f %14.1f' % ('$kind', $bytes, ($parsed - $base) / $bytes, ($walked - $parsed) / $bytes))"
done

printf '\n%-10s %8s %14s %14s\n' entries bytes "iter, fields" "Array::fields"
for kind in records departures; do
    args=$(python3 - "$kind" <<'PY'
import json, random, sys
random.seed(1)
if sys.argv[1] == "records":
    items = [{"id": i, "name": "item %d" % i, "ok": i % 2 == 0, "tags": ["a", "b"],
              "price": round(random.random() * 100, 2)} for i in range(200)]
else:
    # Small objects of short strings, as a transport API's departures.
    dests = ["Zürich Flughafen", "Genève-Aéroport", "東京", "Москва", "Bern"]
    items = [{"id": "S%d" % random.randint(1, 12), "name": random.choice(dests),
              "planned": "%02d:%02d" % (random.randint(0, 23), random.randint(0, 59)),
              "price": random.choice([None, 0, 2.5]), "platform": random.choice([None, "7A"])} for _ in range(300)]
print(json.dumps({"name": json.dumps({"items": items}, ensure_ascii=False)}, ensure_ascii=False))
PY
)
    bytes=$(python3 -c "import json, sys; print(len(json.loads(sys.argv[1])['name'].encode()))" "$args")
    parsed=$(call_fuel "$D/walk_json_none.wasm" --tool greet --args "$args")
    iterated=$(call_fuel "$D/entries_iter_crate.wasm" --tool greet --args "$args")
    fields=$(call_fuel "$D/entries_fields_crate.wasm" --tool greet --args "$args")
    python3 -c "print('%-10s %8d %14.1f %14.1f' % ('$kind', $bytes, ($iterated - $parsed) / $bytes, ($fields - $parsed) / $bytes))"
done
