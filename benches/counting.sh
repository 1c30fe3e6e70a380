#!/usr/bin/env bash
# Counting by key, in wasmtime fuel (wasm operators run: the same on every
# run): the idiom probes of benches/idioms (hello with one statement) given
# 20,000 comma-separated words, 1,919 of them distinct (ASCII, accented and
# Japanese), made the same on every run. Each probe makes a String of every
# word; `vec_strings` only collects them, the baseline of the others.
#
#   benches/counting.sh                    # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/counting.sh
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$HERE/../target}/idioms/dlmalloc
(cd "$HERE/idioms" && cargo build --quiet --release --target wasm32-wasip1 --target-dir "$TARGET" \
    --bin vec_strings --bin count_map_std --bin tally_crate --bin sort_crate 2>/dev/null)
WORDS=$(mktemp)
trap 'rm -f "$WORDS"' EXIT
python3 - "$WORDS" <<'PY'
import json, random, sys
r = random.Random(1)
vocab = ["".join(r.choice("abcdefghijklmnopqrstuvwxyzéö") for _ in range(r.randint(2, 9))) for _ in range(2000)]
vocab += ["お茶", "京都", "時間", "桜", "電車"]
words = [r.choice(vocab[:r.choice([50, 500, 2000])]) for _ in range(20000)]
json.dump({"name": ",".join(words)}, open(sys.argv[1], "w"), ensure_ascii=False)
PY
source "$HERE/fuel.sh"
fuel() { call_fuel "$TARGET/wasm32-wasip1/release/$1.wasm" --tool greet --args-file "$WORDS"; }
base=$(fuel vec_strings)
printf '%-52s %14s %14s\n' "20,000 words, 1,919 distinct" "call fuel" "over baseline"
for row in "collect the words (the baseline);vec_strings" "BTreeMap<String, u64>: entry(..).or_insert(0) += 1;count_map_std" \
    "tally::Tally: add, then sorted;tally_crate" "sort::sort every word (counting runs needs it first);sort_crate"; do
    IFS=';' read -r name probe <<<"$row"
    f=$(fuel "$probe")
    printf '%-52s %14s %14s\n' "$name" "$f" "$((f - base))"
done
