# Sourced by the benches: `call_fuel MODULE [CALL OPTIONS…]` prints the
# wasmtime fuel of one call (`$RUNNER bench … --json`), and stops the
# script, naming the module, when the call crashed or answered isError.
call_fuel() {
    local module=$1
    shift
    "$RUNNER" bench "$module" --calls 1 --compiles 1 "$@" --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
if r["call_crash"] or r["call_error"]:
    sys.exit(r["module"] + ": " + str(r["call_crash"] or r["call_error"]))
print(r["call_fuel"])'
}
