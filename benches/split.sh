#!/usr/bin/env bash
# Reading tab-separated text, in wasmtime fuel (wasm operators run: the
# same on every run): 20,000 lines of five fields (a city, a country, a
# population, a latitude, a longitude; names in several scripts), split
# with std's `lines()` and `split('\t')` and with the crate's
# `chars::lines` and `chars::split`: the idiom probes `tsv_std` and
# `tsv_crate`, less the probe `float_base` with the same argument.
#
#   benches/split.sh                       # subako-tiny on the PATH
#   SUBAKO_TINY=target/runner/subako-tiny benches/split.sh
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNNER=${SUBAKO_TINY:-subako-tiny}
TARGET=${CARGO_TARGET_DIR:-$HERE/../target}/idioms/dlmalloc
(cd "$HERE/idioms" && cargo build --quiet --release --target wasm32-wasip1 --target-dir "$TARGET" \
    --bin tsv_std --bin tsv_crate --bin float_base 2>/dev/null)
source "$HERE/fuel.sh"
D=$TARGET/wasm32-wasip1/release
ARGS=$(mktemp)
trap 'rm -f "$ARGS"' EXIT
python3 - "$ARGS" <<'PY'
import json, random, sys
random.seed(38)
names = ["Zürich", "São Paulo", "Łódź", "İzmir", "Αθήνα", "Москва", "東京", "大阪", "القاهرة", "दिल्ली", "Springfield"]
rows = ["name\tcountry\tpopulation\tlat\tlon"]
for i in range(20000):
    rows.append("%s %d\t%s\t%d\t%.5f\t%.5f" % (random.choice(names), i, random.choice(["CH", "BR", "JP", "RU", "US"]),
                random.randint(100, 9000000), random.uniform(-90, 90), random.uniform(-180, 180)))
json.dump({"name": "\n".join(rows) + "\n"}, open(sys.argv[1], "w"), ensure_ascii=False)
PY
bytes=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["name"].encode()))' "$ARGS")
base=$(call_fuel "$D/float_base.wasm" --tool greet --args-file "$ARGS")
printf '%-32s %14s %10s\n' "20,000 lines, $bytes bytes" fuel "a byte"
for side in std crate; do
    fuel=$(call_fuel "$D/tsv_$side.wasm" --tool greet --args-file "$ARGS")
    python3 -c "print('%-32s %14d %10.1f' % ('$side', $fuel - $base, ($fuel - $base) / $bytes))"
done
