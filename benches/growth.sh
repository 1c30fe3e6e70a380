#!/usr/bin/env bash
# Fuel per request-line byte, our hello vs the official SDK's: builds both
# modules and the runner the way ./size-report does, then runs
#     subako-tiny bench --growth OURS --vs OFFICIAL [ARGS…]
# (see `subako-tiny --help`, "bench --growth": ASCII, \u00e9-escaped and
# unused-member lines of 1 KiB, 128 KiB, 1 MiB and 16 MiB; pass --json for JSON).
#
#   benches/growth.sh            # the table
#   benches/growth.sh --json
#   SKIP_BUILD=1 benches/growth.sh  # use the modules and runner already built
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNNER=$ROOT/target/runner/subako-tiny
OURS=$ROOT/target/wasm32-wasip1/release/examples/hello.wasm
OFFICIAL=$ROOT/target/official/wasm32-wasip1/release/hello.wasm

if [[ -z "${SKIP_BUILD:-}" ]]; then
    (cd "$ROOT" && cargo build --quiet --profile runner -p subako-tiny-runner)
    (cd "$ROOT" && cargo build --quiet --release --target wasm32-wasip1 --example hello)
    (cd "$ROOT/official" && CARGO_TARGET_DIR="$ROOT/target/official" \
        cargo build --quiet --ignore-rust-version --release --target wasm32-wasip1 -p hello)
fi
exec "$RUNNER" bench --growth "$OURS" --vs "$OFFICIAL" "$@"
