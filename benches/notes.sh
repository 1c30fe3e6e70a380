#!/usr/bin/env bash
# The notes example against its official twin (official/notes) on the
# calls of issue 27, in wasmtime fuel (wasm operators run: the same on
# every run): `get` the last of 426 notes in a 1.9 MB file, `add` a note
# to that file, `search` it for a word it does not hold and for one it
# does (Japanese), `add` a note whose body is 20,000 `é` to an empty store,
# and `stats` over 26 notes (one of them that body) and over the 426. The
# files are made here, the same on every run (mixed English, French and
# Japanese).
#
#   benches/notes.sh                       # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/notes.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
RUNNER=${SUBAKO_TINY:-subako-tiny}

# The builds size-report and the e2e tests make, in the same directories.
LEAN_DIR=target/e2e/nodefault+lean-alloc+panic-handler
cargo build --quiet --release --target wasm32-wasip1 -p subako-tiny --example notes --target-dir target/e2e/default
cargo build --quiet --release --target wasm32-wasip1 -p subako-tiny --example notes --target-dir "$LEAN_DIR" \
    --no-default-features --features lean-alloc,panic-handler
(cd official && CARGO_TARGET_DIR="$ROOT/target/official" \
    cargo build --quiet --ignore-rust-version --release --target wasm32-wasip1 -p notes)
DLMALLOC=target/e2e/default/wasm32-wasip1/release/examples/notes.wasm
LEAN=$LEAN_DIR/wasm32-wasip1/release/examples/notes.wasm
TWIN=target/official/wasm32-wasip1/release/notes.wasm

DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT
python3 - "$DATA" <<'PY'
import json, os, random, sys
data = sys.argv[1]
r = random.Random(27)
EN = "tea garden river morning letter station market green the and of a mountain walk bread window".split()
FR = "thé été marché fenêtre château forêt Élodie déjà où garçon le ÇA pain rivière matin".split()
JA = ["お茶", "京都", "時間", "桜", "電車", "手紙", "市場", "朝ご飯", "山", "川"]
PUNCTUATION = [" ", " ", ", ", ". ", "、", "。"]
TAGS = ["voyage", "Voyage", "travail", "日本", "famille", "idées"]
def word():
    k = r.randrange(3)
    return r.choice(EN if k == 0 else FR if k == 1 else JA)
def note(i, body_bytes):
    title = " ".join(word() for _ in range(2 + r.randrange(4)))
    body = ""
    while len(body.encode()) < body_bytes:
        body += word() + r.choice(PUNCTUATION)
        if r.randrange(200) == 0:
            body += "\"quoted\"\n"
    tags = [r.choice(TAGS) for _ in range(r.randrange(4))]
    return {"id": i, "title": title, "body": body, "tags": tags, "created": "2026-11-%02d" % (1 + i % 30)}
def store(name, notes):
    os.makedirs(os.path.join(data, name, "notes"))
    with open(os.path.join(data, name, "notes", "notes.jsonl"), "w") as f:
        for n in notes:
            f.write(json.dumps(n, ensure_ascii=False, separators=(",", ":")) + "\n")
store("big", [note(i, 4400) for i in range(1, 427)])
small = [note(i, 300) for i in range(1, 26)]
small.append({"id": 26, "title": "é", "body": "é" * 20000, "tags": [], "created": "2026-12-02"})
store("small", small)
os.makedirs(os.path.join(data, "empty"))
with open(os.path.join(data, "add-e.json"), "w") as f:
    json.dump({"title": "é", "body": "é" * 20000}, f, ensure_ascii=False)
PY

ADD='{"title":"Thé au Mont-Blanc","body":"Une note ajoutée au bout du fichier, 山の上で。","tags":["voyage"]}'
# The call's fuel; a call that crashed or answered isError stops the script.
source benches/fuel.sh
fuel() { call_fuel "$@" --assets examples/assets/notes; }
row() { # name, then the call's options
    local name=$1 ours lean twin
    shift
    ours=$(fuel "$DLMALLOC" "$@")
    lean=$(fuel "$LEAN" "$@")
    twin=$(fuel "$TWIN" "$@")
    printf '%-9s %15s %15s %15s %8s\n' "$name" "$ours" "$lean" "$twin" "$(python3 -c "print(f'{$ours / $twin:.2f}')")"
}
printf '%-9s %15s %15s %15s %8s\n' call "ours (dlmalloc)" "ours (lean)" official ours/off
row get --tool get --args '{"id":426}' --data "$DATA/big"
row add --tool add --args "$ADD" --data "$DATA/big"
row search --tool search --args '{"query":"mont-blanc"}' --data "$DATA/big"
row search-ja --tool search --args '{"query":"お茶"}' --data "$DATA/big"
row add-é --tool add --args-file "$DATA/add-e.json" --data "$DATA/empty"
row stats --tool stats --args '{}' --data "$DATA/small"
row stats-big --tool stats --args '{}' --data "$DATA/big"
