#!/usr/bin/env bash
# Build-time cost per tool: CPU seconds (user + sys, cargo and the rustc it
# waits for, from /usr/bin/time) of `cargo check` on a generated package of
# N hello-like tools, written with subako-tiny and with the official SDK
# (subako-function-sdk 0.2.10), and per tool:
#     (cpu(N) - cpu(1)) / (N - 1)
# so the fixed cost of a package (cargo's start-up, the crate's own items,
# main) cancels out. A benchmark, not a test.
#
#   benches/check_per_tool.sh            # N = 1, 100, 400; 3 timed checks each
#   KINDS="ours official" benches/check_per_tool.sh  # some of the packages below
#   NS="1 100 1000" REPS=5 benches/check_per_tool.sh
#   CMD=build benches/check_per_tool.sh  # `cargo build --release` instead of check
#   TARGET=host benches/check_per_tool.sh  # check for the host, not wasm32-wasip1
#
# The packages (under $WORK, default /tmp/subako-check-per-tool) are:
#   ours:            subako-tiny as a vendored path dependency (vendor/subako-tiny,
#                    excluded from the package's workspace), the copy that
#                    `subako-tiny new` writes (the CLI, $RUNNER, default the
#                    `subako-tiny` on the PATH, else target/runner/subako-tiny,
#                    embeds the crate it was built beside), so edits to src/
#                    while this runs change nothing;
#                    this checkout's Cargo.lock, as tests/compile_fail.rs
#                    `a_thousand_tools_build` does. N tools, each its own run fn
#                    (hello's greet body) and its own input and output schema
#                    text, which Package::new checks at compile time.
#   ours-shared:     the same, but every tool names the same two schema consts
#                    (INPUT, OUTPUT) instead of literals of its own.
#   official:        subako-function-sdk =0.2.10 with official/Cargo.lock; N
#                    `#[function]`s, each with its own input and output structs
#                    (derive Deserialize/Serialize + JsonSchema), as the SDK's
#                    documented hello is written.
#   official-shared: the same, but all N functions share one input and one
#                    output struct (the SDK's cheapest way to write N tools).
# Each package is checked once to warm its scratch target directory (every
# dependency built), then `touch src/main.rs` + check REPS times, with
# CARGO_INCREMENTAL=0 so the package's crate is checked whole each time: the
# median counts. Runs offline: the crates must already be in cargo's cache (they are
# once ./size-report --vs-official has built official/).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WORK:-/tmp/subako-check-per-tool}
NS=${NS:-"1 100 400"}
REPS=${REPS:-3}
CMD=${CMD:-check}
TARGET=${TARGET:-wasm32-wasip1}
KINDS=${KINDS:-"ours ours-shared official official-shared"}
RUNNER=${RUNNER:-$(command -v subako-tiny || echo "$ROOT/target/runner/subako-tiny")}

case "$CMD" in
check) cargo_args=(check) ;;
build) cargo_args=(build --release) ;;
*) echo "CMD must be check or build" >&2; exit 2 ;;
esac
[[ "$TARGET" == host ]] || cargo_args+=(--target "$TARGET")
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
read -r -a ns <<<"$NS"
[[ "${ns[0]}" == 1 ]] || { echo "NS must start with 1 (the per-tool baseline)" >&2; exit 2; }
mkdir -p "$WORK"

# The vendored crate, frozen for the whole run.
if [[ " $KINDS " == *" ours"* ]]; then
    if [[ ! -x "$RUNNER" ]]; then
        echo "no subako-tiny: install it (cargo install --locked --path runner --profile runner) or set RUNNER" >&2
        exit 2
    fi
    rm -rf "$WORK/vendored"
    "$RUNNER" new "$WORK/vendored" --name vendored >/dev/null
fi
VENDORED=$WORK/vendored/vendor/subako-tiny

# Ours: the API of the vendored crate. `Tool::new(…).output_schema(…)`, or the
# struct literal of releases before it.
# ours_tool I SHARED: tool I's entry; SHARED=1: its schemas are the consts
# INPUT and OUTPUT rather than literals of its own.
IN_LIT='r#"{"properties": {"name": {"description": "Who to greet.", "type": "string"}}, "required": ["name"], "type": "object"}"#'
OUT_LIT='r#"{"properties": {"message": {"type": "string"}}, "required": ["message"], "type": "object"}"#'
if [[ ! -d "$VENDORED" ]] || grep -q 'pub const fn new(name: &.static str, description' "$VENDORED/src/package.rs"; then
    ours_tool() {
        local in=$IN_LIT out=$OUT_LIT
        if (($2)); then in=INPUT out=OUTPUT; fi
        printf '    Tool::new("tool_%d", "Greet someone by name.",\n        %s,\n        tool_%d)\n' "$1" "$in" "$1"
        printf '    .output_schema(%s),\n' "$out"
    }
else
    ours_tool() {
        local in=$IN_LIT out=$OUT_LIT
        if (($2)); then in=INPUT out=OUTPUT; fi
        printf '    Tool { name: "tool_%d", description: "Greet someone by name.",\n' "$1"
        printf '        input_schema: %s,\n        output_schema: Some(%s),\n' "$in" "$out"
        printf '        run: tool_%d },\n' "$1"
    }
fi

gen_ours() { # dir n shared(0|1)
    local dir=$1 n=$2 shared=$3 i
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "many-ours"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
subako-tiny = { path = "vendor/subako-tiny" }

[profile.release]
opt-level = "z"
lto = true
codegen-units = 1
panic = "abort"
strip = true

# As subako-tiny new writes it: the vendored crate a dependency, not a member.
[workspace]
exclude = ["vendor"]
EOF
    mkdir -p "$dir/vendor"
    cp -r "$VENDORED" "$dir/vendor/"
    cp "$ROOT/Cargo.lock" "$dir/Cargo.lock"
    {
        echo '#![cfg_attr(target_arch = "wasm32", no_std, no_main)]'
        echo 'use subako_tiny::{Args, JsonWriter, Package, Reply, Tool, ToolError};'
        if ((shared)); then
            echo "const INPUT: &str = $IN_LIT;"
            echo "const OUTPUT: &str = $OUT_LIT;"
        fi
        for ((i = 0; i < n; i++)); do
            cat <<EOF
fn tool_$i(args: &Args<'_>) -> Result<Reply, ToolError> {
    let name = args.str("name")?;
    let mut out = JsonWriter::new();
    out.begin_object().key("message").string_parts(&["Hello, ", &name, "!"]).end_object();
    Ok(Reply::json(out))
}
EOF
        done
        echo 'pub const PACKAGE: Package = Package::new("many", "0.1.0", "Many tools.", &['
        for ((i = 0; i < n; i++)); do ours_tool "$i" "$shared"; done
        echo ']);'
        echo 'subako_tiny::main!(PACKAGE);'
    } >"$dir/src/main.rs"
}

gen_official() { # dir n shared(0|1)
    local dir=$1 n=$2 shared=$3 i t
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "many-official"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
subako-function-sdk = "=0.2.10"
schemars = "1.2"
serde = { version = "1", features = ["derive"] }

[profile.release]
opt-level = "z"
lto = true
codegen-units = 1
panic = "abort"
strip = true

[workspace]
EOF
    cp "$ROOT/official/Cargo.lock" "$dir/Cargo.lock"
    {
        echo 'use schemars::JsonSchema;'
        echo 'use serde::{Deserialize, Serialize};'
        echo 'use subako_function_sdk::{ToolError, function, package};'
        for ((i = 0; i < n; i++)); do
            if ((shared)); then t=""; else t=$i; fi
            if ((!shared || i == 0)); then
                cat <<EOF
#[derive(Deserialize, JsonSchema)]
struct GreetInput$t {
    /// Who to greet.
    name: String,
}
#[derive(Serialize, JsonSchema)]
struct Greeting$t {
    message: String,
}
EOF
            fi
            cat <<EOF
/// Greet someone by name.
#[function]
fn tool_$i(input: GreetInput$t) -> Result<Greeting$t, ToolError> {
    Ok(Greeting$t { message: format!("Hello, {}!", input.name) })
}
EOF
        done
        echo 'package! {'
        echo '    name: "many",'
        echo '    description: "Many tools.",'
        printf '    functions: ['
        for ((i = 0; i < n; i++)); do printf 'tool_%d, ' "$i"; done
        echo '],'
        echo '}'
    } >"$dir/src/main.rs"
}

# CPU seconds (user + sys) of one cargo run in $1, target dir $2.
cpu_of() {
    local dir=$1 target=$2 out
    out=$(cd "$dir" && CARGO_TARGET_DIR="$target" RUSTFLAGS= CARGO_INCREMENTAL=0 \
        /usr/bin/time -f 'CPU %U %S' cargo "${cargo_args[@]}" --quiet --offline --ignore-rust-version 2>&1 >/dev/null) || {
        echo "cargo ${cargo_args[*]} failed in $dir:" >&2
        echo "$out" | tail -30 >&2
        return 1
    }
    echo "$out" | awk '/^CPU /{printf "%.2f\n", $2 + $3}'
}

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

declare -A CPU
for kind in $KINDS; do
    target="$WORK/target-$kind"
    for n in "${ns[@]}"; do
        dir="$WORK/$kind-$n"
        rm -rf "$dir"
        case "$kind" in
        ours) gen_ours "$dir" "$n" 0 ;;
        ours-shared) gen_ours "$dir" "$n" 1 ;;
        official) gen_official "$dir" "$n" 0 ;;
        official-shared) gen_official "$dir" "$n" 1 ;;
        *) echo "unknown kind $kind" >&2; exit 2 ;;
        esac
        cp "$ROOT/rust-toolchain.toml" "$dir/"
        echo "$kind, $n tools: warm-up…" >&2
        cpu_of "$dir" "$target" >/dev/null
        times=()
        for ((r = 0; r < REPS; r++)); do
            touch "$dir/src/main.rs"
            times+=("$(cpu_of "$dir" "$target")")
        done
        CPU[$kind,$n]=$(printf '%s\n' "${times[@]}" | median)
        echo "$kind, $n tools: cpu ${times[*]} s (median ${CPU[$kind,$n]})" >&2
    done
done

echo
echo "cargo ${cargo_args[*]} (touch src/main.rs, median of $REPS), CPU s = user + sys:"
printf '%-16s %6s %10s %16s\n' package tools "cpu s" "per tool ms"
for kind in $KINDS; do
    for n in "${ns[@]}"; do
        per="-"
        if ((n > 1)); then
            per=$(awk -v a="${CPU[$kind,$n]}" -v b="${CPU[$kind,1]}" -v n="$n" 'BEGIN {printf "%.2f", (a - b) / (n - 1) * 1000}')
        fi
        printf '%-16s %6s %10s %16s\n' "$kind" "$n" "${CPU[$kind,$n]}" "$per"
    done
done
others=$(for k in $KINDS; do [[ "$k" == ours* ]] || echo "$k"; done)
if [[ " $KINDS " == *" ours "* && -n "$others" ]]; then
    echo
    echo "per tool, official / ours:"
    for kind in $others; do
        for n in "${ns[@]}"; do
            ((n > 1)) || continue
            awk -v k="$kind" -v n="$n" -v o="${CPU[ours,$n]}" -v o1="${CPU[ours,1]}" \
                -v t="${CPU[$kind,$n]}" -v t1="${CPU[$kind,1]}" 'BEGIN {
                    po = (o - o1) / (n - 1); pt = (t - t1) / (n - 1)
                    printf "%-16s %4d tools: %.2f ms vs %.2f ms: %s\n", k, n, pt * 1000, po * 1000,
                        (po > 0 ? sprintf("%.2fx", pt / po) : "-")
                }'
        done
    done
fi
