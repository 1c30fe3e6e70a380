#!/usr/bin/env bash
# This project's growth targets: fuel per request-line byte of our hello
# against the official SDK's hello at every kind of line (ASCII, \u00e9
# escapes, raw French, Japanese and emoji text; read by the tool and not),
# and, when JSONL_EXAMPLE names an example with an official twin, fuel per
# file byte of a JSON Lines workload on that pair; each target met or NOT
# MET. The figures are `subako-tiny bench --growth`'s (runner/METHOD.md);
# the targets are runner/benches/growth/targets.rs. Then (not with --json)
# benches/validated.sh: the typed tool behind `validated!` against its twin.
#
#   benches/growth.sh                          # the tables and the targets
#   benches/growth.sh --json
#   benches/growth.sh --kinds ascii,japanese,japanese-unused
#   JSONL_EXAMPLE=NAME JSONL_TOOL=TOOL JSONL_ARGS='{…}' JSONL_RECORD='{"id":0,…}' \
#       JSONL_PATH=records.jsonl benches/growth.sh   # the file is /volume/data/$JSONL_PATH
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# The builds size-report and the e2e tests make, in the same directories.
ours() {
    cargo build --quiet --release --target wasm32-wasip1 -p subako-tiny --example "$1" --target-dir target/e2e/default
    echo "$ROOT/target/e2e/default/wasm32-wasip1/release/examples/$1.wasm"
}
official() {
    (cd official && CARGO_TARGET_DIR="$ROOT/target/official/default" \
        cargo build --quiet --ignore-rust-version --release --target wasm32-wasip1 -p "$1")
    echo "$ROOT/target/official/default/wasm32-wasip1/release/$1.wasm"
}

args=("$(ours hello)" "$(official hello)" "$@")
if [[ -n "${JSONL_EXAMPLE:-}" ]]; then
    args+=(--jsonl "$(ours "$JSONL_EXAMPLE")" "$(official "$JSONL_EXAMPLE")" "${JSONL_TOOL:?}" "${JSONL_ARGS:?}" \
        "${JSONL_RECORD:?}" "${JSONL_PATH:-records.jsonl}")
fi
status=0
cargo bench --quiet --profile runner -p subako-tiny-runner --bench growth -- "${args[@]}" || status=$?
# Issue 27's last target, a typed tool behind `validated!` on the official
# SDK's twin, has a script of its own; its line closes the tables.
if [[ " $* " != *" --json "* ]]; then
    cargo build --quiet --profile runner -p subako-tiny-runner
    echo
    SUBAKO_TINY=${SUBAKO_TINY:-${CARGO_TARGET_DIR:-$ROOT/target}/runner/subako-tiny} benches/validated.sh || status=$?
fi
exit $status
