#!/usr/bin/env bash
# Walking an HTTP API's pages: a tool that reads 20 pages of 50 help-desk
# tickets (about 30 KB a page, Japanese and escapes in the text) from a
# server on 127.0.0.1, following each page's `next` URL, beside the same
# tool on the official SDK, in wasmtime fuel (wasm operators run: the same
# on every run). The tools are benches/pages/ours and benches/pages/official;
# the server is benches/pages/server.py. Three ways of writing the JSON:
# compact UTF-8, compact with \u escapes, indented. `ours` reads each
# page's two members with an `at` each, as authors first write it;
# `one walk` reads them with one `Object::fields`. The answers of all three
# are checked to be the same.
#
#   benches/pages.sh                       # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/pages.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}/pages
for side in ours official; do
    (cd "$ROOT/benches/pages/$side" && cargo build --quiet --ignore-rust-version --release \
        --target wasm32-wasip1 --target-dir "$TARGET/$side")
done
PORT_FILE=$(mktemp)
python3 "$ROOT/benches/pages/server.py" > "$PORT_FILE" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -f "$PORT_FILE"' EXIT
for _ in $(seq 50); do [ -s "$PORT_FILE" ] && break; sleep 0.1; done
PORT=$(cat "$PORT_FILE")

source "$ROOT/benches/fuel.sh"
# `fuel SIDE TOOL KIND`: one call's fuel; `answer SIDE TOOL KIND`: its structuredContent.
module() { echo "$TARGET/$1/wasm32-wasip1/release/pages.wasm"; }
url() { echo "{\"url\":\"http://127.0.0.1:$PORT/$1/tickets?page=1\"}"; }
fuel() {
    call_fuel "$(module "$1")" --tool "$2" --args "$(url "$3")" --allow-host "127.0.0.1:$PORT" --allow-loopback
}
answer() {
    "$RUNNER" call "$(module "$1")" "$2" "$(url "$3")" --allow-host "127.0.0.1:$PORT" --allow-loopback |
        python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["structuredContent"], sort_keys=True))'
}
printf '%-8s %14s %14s %14s %7s %7s\n' json ours "one walk" official ratio "one walk"
for kind in utf8 ascii pretty; do
    a=$(answer ours summary "$kind")
    if [ "$a" != "$(answer ours summary_fields "$kind")" ] || [ "$a" != "$(answer official summary "$kind")" ]; then
        echo "the answers differ on $kind: $a" >&2
        exit 1
    fi
    ours=$(fuel ours summary "$kind")
    fields=$(fuel ours summary_fields "$kind")
    official=$(fuel official summary "$kind")
    python3 -c 'import sys; k, o, f, s = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]); print("%-8s %14s %14s %14s %7.2f %7.2f" % (k, f"{o:,}", f"{f:,}", f"{s:,}", o / s, f / s))' \
        "$kind" "$ours" "$fields" "$official"
done
