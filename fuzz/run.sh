#!/usr/bin/env bash
# Runs every fuzz target for a bounded time; fails on the first finding.
#
#   fuzz/run.sh [SECONDS_PER_TARGET]   (default 60)
#
# Works on the pinned stable toolchain: cargo-fuzz needs nightly-only flags
# (-Zsanitizer, sancov passes), which RUSTC_BOOTSTRAP=1 allows on stable.
# AddressSanitizer is used when the toolchain ships its runtime (stable does
# on x86_64 Linux), no sanitizer otherwise. Seeds in fuzz/corpus/<target>
# are read, never written: what the fuzzer finds goes to target/fuzz/corpus.
set -euo pipefail

seconds="${1:-60}"
fuzz_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$fuzz_dir")"
target_dir="$root/target/fuzz"
cd "$fuzz_dir"

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --version 0.13.2 --locked
fi

export RUSTC_BOOTSTRAP=1
host="$(rustc -vV | sed -n 's/^host: //p')"
sanitizer=none
if ls "$(rustc --print sysroot)/lib/rustlib/$host/lib/"librustc-*_rt.asan.a >/dev/null 2>&1; then
    sanitizer=address
fi
echo "fuzz: $seconds s per target, sanitizer $sanitizer, $(rustc --version)"

cargo fuzz build --sanitizer "$sanitizer" --target-dir "$target_dir"

status=0
for target in $(cargo fuzz list); do
    mkdir -p "$target_dir/corpus/$target"
    echo "== $target"
    # -max_len: requests of a few KiB reach every limit the targets set;
    # -timeout: one input taking 10 s is a hang, a finding like a crash.
    if ! cargo fuzz run --sanitizer "$sanitizer" --target-dir "$target_dir" "$target" \
        "$target_dir/corpus/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 2>"$target_dir/$target.log"; then
        # The panic's own words first: the stack trace after them fills the tail.
        grep -m1 -A8 "panicked at" "$target_dir/$target.log" || true
        tail -n 40 "$target_dir/$target.log"
        echo "fuzz: $target FAILED; the input is in fuzz/artifacts/$target/" >&2
        status=1
        continue
    fi
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$target_dir/$target.log" || true
done
exit "$status"
