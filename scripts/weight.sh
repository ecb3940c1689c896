#!/usr/bin/env bash
# Where the page's wasm weight is: the page's module (from `make dist`) beside what lies beneath
# the page (scripts/weight: a session opened and stepped, and the world alone; nothing drawn),
# all built the same way (opt-level "z", LTO, wasm-bindgen, wasm-opt -Oz), gzipped as the
# first-load budget counts them (and with brotli, which some hosts serve), and each one's
# largest groups of functions from a build with names. Figures only.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/weight
mkdir -p "$out"
features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals)

# layer NAME [cargo flags]: builds the weight crate with those features into $out/NAME.wasm and a
# copy with names.
layer() {
  local name=$1
  shift
  CARGO_TARGET_DIR="$PWD/$out/cargo" cargo build --quiet --release --target wasm32-unknown-unknown \
    --manifest-path scripts/weight/Cargo.toml "$@"
  # (No wasm-bindgen step: the layers beneath the page import nothing from JavaScript.)
  local built="$out/cargo/wasm32-unknown-unknown/release/simulation_weight.wasm"
  wasm-opt -Oz "${features[@]}" "$built" -o "$out/$name.wasm"
  wasm-opt -Oz -g "${features[@]}" "$built" -o "$out/$name-names.wasm"
}
layer world
layer session --features session
wasm-opt -Oz -g "${features[@]}" target/wasm-bindgen/release/informer-web_bg.wasm -o "$out/page-names.wasm"

brotli() { node -e 'const z = require("zlib"); process.stdout.write(String(z.brotliCompressSync(require("fs").readFileSync(process.argv[1]), { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11 } }).length))' "$1"; }
size() { printf '%-66s %9d bytes  %8d gzipped  %8d brotli\n' "$1" "$(wc -c <"$2")" "$(gzip -9 -c "$2" | wc -c)" "$(brotli "$2")"; }
size "the page's wasm (dist)" dist/*.wasm
size "beneath it, a session opened from a link and stepped, nothing drawn" "$out/session.wasm"
size "beneath that, the world alone: the default cluster built and stepped" "$out/world.wasm"
echo "the page's wasm by group (yew::html holds the page's views, compiled into yew's lifecycle):"
node scripts/wasm-parts.mjs "$out/page-names.wasm" 15
echo "the session by group:"
node scripts/wasm-parts.mjs "$out/session-names.wasm" 10
echo "the world by group:"
node scripts/wasm-parts.mjs "$out/world-names.wasm" 10
