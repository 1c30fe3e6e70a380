#!/usr/bin/env bash
# Regenerates the golden transcript of the official SDK's hello:
#   official/hello/responses.jsonl   every request of requests.jsonl written on one stdin
#   tests/golden/hello.transcript    each request run on its own, then multi.jsonl in one run
# Usage (from anywhere): bash official/golden.sh
# Needs only cargo and bash: the official hello built for the host runs the same
# serve loop as its wasm build.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/official}"
requests="$here/hello/requests.jsonl"
multi="$here/hello/multi.jsonl"
responses="$here/hello/responses.jsonl"
transcript="$root/tests/golden/hello.transcript"

(cd "$here" && cargo build --quiet --ignore-rust-version -p hello)
bin="$CARGO_TARGET_DIR/debug/hello"
sdk=$(cd "$here" && cargo tree -p hello --depth 1 -e normal --prefix none \
    | grep '^subako-function-sdk ' | cut -d' ' -f1-2)

# Comments put before the block of the one request containing PATTERN (a fixed
# string that must match exactly one line of requests.jsonl).
# "official-deviation" marks where the official SDK is not what subako-tiny
# does on purpose; subako-tiny's golden test skips those blocks.
declare -a note_pat=() note_text=()
note() { note_pat+=("$1"); note_text+=("$2"); }
printf -v d124 '%*s' 124 ''; d124=${d124// /[}
printf -v d125 '%*s' 125 ''; d125=${d125// /[}

dev='official-deviation:'
cannot_echo='the SDK reads ids as i64 or string only, so it cannot echo this number: the whole line is refused as -32600 with id null'
note '"id":18446744073709551615,' "$dev $cannot_echo (above i64::MAX)"
note '"id":9223372036854775808,' "$dev $cannot_echo (i64::MAX + 1)"
note '"id":-9223372036854775809,' "$dev $cannot_echo (i64::MIN - 1)"
note '"id":1.5,' "$dev $cannot_echo (a fraction)"
note '"id":1.0,' "$dev $cannot_echo (an integer written with a fraction)"
note '"id":1e2,' "$dev $cannot_echo (an integer written with an exponent)"
note '"id":-0,' "$dev $cannot_echo (serde_json reads -0 as the float -0.0)"
note '"id":null,"method":"tools/list"' "$dev a request with id null is taken for a notification (Option<RequestId> reads null as absent) and gets no answer at all"
note '{"jsonrpc":"2.0","id":3,"result":null}' "$dev a response whose result is null (valid JSON-RPC) is refused with -32600, because Option<Value> reads null as absent"
note '"id":4,"method":5,' "$dev the id 4 was readable, but a method that is no string fails the whole message, so the -32600 answers id null"
note '{"jsonrpc":2.0,"id":4,' "$dev the id 4 was readable, but a jsonrpc that is no string fails the whole message, so the -32600 answers id null"
note '"arguments":["Ada"]' "$dev serde's derived Deserialize takes a struct from an array by position, so [\"Ada\"] is accepted as {\"name\":\"Ada\"}"
note '"n":1e400}' "$dev serde_json refuses a number out of f64's range anywhere on the line (-32700), even in an argument the tool never reads"
note "\"deep\":${d124}]" "$dev serde_json's depth limit: 124 arrays in arguments (127 nested values in all) is the deepest it parses; our limit may differ"
note "\"deep\":${d125}]" "$dev serde_json's depth limit: 125 arrays in arguments (128 nested values in all) is already a -32700; our limit may differ"
note '"arguments":{"name":"\ud800"}' "$dev a lone surrogate escape fails serde_json's parse (-32700) rather than reaching the tool"
note 'a\"b\\c\n\u00e9\/' "note: the string id is echoed re-encoded (\\u00e9 as raw UTF-8, \\/ as /): equal as JSON, not byte for byte"
note '"arguments":null' "note: arguments null is not read as absent: the tool gets null and reports invalid input"
note '{"jsonrpc":"2.0","id":3,"error":null}' "note: error null is no response either: -32600"
note '{"jsonrpc":"2.0","result":{}}' "note: a result without an id is neither a request, a notification nor a response: -32600 with id null"
note '"id":"x","result":{},"error"' "note: a message with both result and error is read past as a response"
note '"id":3,"result":{},"method"' "note: a message with both method and result is served as a request"
note '"id":1,"id":2,' "note: duplicate keys: serde_json keeps the last"
note '"method":"tools/call","method":"tools/list"' "note: duplicate keys: serde_json keeps the last"
note '"_meta":{}}}' "note: duplicate keys: the second, empty _meta wins"
note '"name":"A","name":"B"' "note: duplicate keys: serde_json keeps the last"

# One run of the module: stdin from the file $1, stdout to $2. Exit 0 and
# silence on stderr are part of what is golden.
run() {
    local err
    err=$(mktemp)
    if ! "$bin" <"$1" >"$2" 2>"$err"; then
        echo "golden.sh: the module exited nonzero on $1" >&2; exit 1
    fi
    if [ -s "$err" ]; then
        echo "golden.sh: the module wrote to stderr:" >&2; cat "$err" >&2; exit 1
    fi
    rm -f "$err"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run "$requests" "$responses"

declare -a used=()
for i in "${!note_pat[@]}"; do used[i]=0; done
out="$tmp/transcript"
{
    echo "# Golden transcript: the official Subako SDK's hello (official/hello, package hello 0.1.0)"
    echo "# answering each request of official/hello/requests.jsonl."
    echo "# Generated by \`bash official/golden.sh\` with $sdk (crates.io) and $(rustc --version | cut -d' ' -f1-2),"
    echo "# the module built for the host with \`cargo build --ignore-rust-version -p hello\` in official/"
    echo "# (CARGO_TARGET_DIR=target/official) and run once per request as"
    echo "#   printf '%s\\n' \"\$request\" | target/official/debug/hello"
    echo "# Every run exited 0 and wrote nothing to stderr."
    echo "#"
    echo "# Format: blocks separated by one empty line; each block is one run of the module."
    echo "#   '# ' lines: comments on the block that follows."
    echo "#   '> ' + a line written to stdin, verbatim (then a LF; a CR at its end is kept)."
    echo "#   '< ' + a line the module wrote to stdout, in order; none for a notification."
    echo "# The last block wrote all its requests on one stdin, then the answers follow in order."
    echo "# '# official-deviation: <why>' marks a block where the official SDK does what"
    echo "# subako-tiny deliberately does not (its golden test skips those); '# note:' only explains."
    echo "# Compare answers as JSON: the SDK writes object members sorted by key, and error"
    echo "# messages quote serde_json."
    n=0
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        echo
        for i in "${!note_pat[@]}"; do
            if [[ "$line" == *"${note_pat[i]}"* ]]; then
                echo "# ${note_text[i]}"
                used[i]=$((used[i] + 1))
            fi
        done
        printf '%s\n' "$line" >"$tmp/in"
        run "$tmp/in" "$tmp/one"
        cat "$tmp/one" >>"$tmp/each"
        printf '> %s\n' "$line"
        sed 's/^/< /' "$tmp/one"
    done <"$requests"
    echo
    echo "# multi-request run: official/hello/multi.jsonl written on one stdin; answers in order."
    sed 's/^/> /' "$multi"
    run "$multi" "$tmp/multi"
    sed 's/^/< /' "$tmp/multi"
} >"$out"

for i in "${!note_pat[@]}"; do
    if [ "${used[i]}" != 1 ]; then
        echo "golden.sh: note pattern matched ${used[i]} requests, not 1: ${note_pat[i]}" >&2; exit 1
    fi
done
# The SDK is stateless: one run of every request writes what the runs one by one wrote.
if ! cmp -s "$tmp/each" "$responses"; then
    echo "golden.sh: one run of requests.jsonl differs from running each request alone" >&2; exit 1
fi
mkdir -p "$(dirname "$transcript")"
mv "$out" "$transcript"
echo "wrote $transcript ($n requests) and $responses"
