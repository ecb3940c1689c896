#!/usr/bin/env bash
# Where the page's wasm weight is: the page's module (from `make dist`) beside the simulation
# alone (scripts/weight: a session opened and stepped, nothing drawn), both built the same way
# (opt-level "z", LTO, wasm-bindgen, wasm-opt -Oz), gzipped as the first-load budget counts
# them (and with brotli, which some hosts serve), and each one's largest groups of functions from a build with names. Figures only.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/weight
mkdir -p "$out"
features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals)

CARGO_TARGET_DIR="$PWD/$out/cargo" cargo build --quiet --release --target wasm32-unknown-unknown \
  --manifest-path scripts/weight/Cargo.toml
wasm-bindgen --target web --out-dir "$out/simulation" "$out/cargo/wasm32-unknown-unknown/release/simulation_weight.wasm"
wasm-opt -Oz "${features[@]}" "$out/simulation/simulation_weight_bg.wasm" -o "$out/simulation.wasm"
wasm-opt -Oz -g "${features[@]}" "$out/simulation/simulation_weight_bg.wasm" -o "$out/simulation-names.wasm"
wasm-opt -Oz -g "${features[@]}" target/wasm-bindgen/release/informer-playground_bg.wasm -o "$out/page-names.wasm"

brotli() { node -e 'const z = require("zlib"); process.stdout.write(String(z.brotliCompressSync(require("fs").readFileSync(process.argv[1]), { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11 } }).length))' "$1"; }
size() { printf '%-66s %9d bytes  %8d gzipped  %8d brotli\n' "$1" "$(wc -c <"$2")" "$(gzip -9 -c "$2" | wc -c)" "$(brotli "$2")"; }
size "the page's wasm (dist)" dist/*.wasm
size "the simulation alone: a session opened and stepped, nothing drawn" "$out/simulation.wasm"
echo "the page's wasm by group (yew::html holds the page's views, compiled into yew's lifecycle):"
node scripts/wasm-parts.mjs "$out/page-names.wasm" 15
echo "the simulation alone by group:"
node scripts/wasm-parts.mjs "$out/simulation-names.wasm" 15
