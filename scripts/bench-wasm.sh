#!/usr/bin/env bash
# The client side of a 50,000-Pod LIST natively and compiled to wasm in headless Chromium
# (both built as the release profile builds the page: opt-level "z", LTO); prints both and
# wasm's time as a multiple of native's. Each side does the work six times on fresh structures:
# the medians of the last five are compared, the first runs (cold; in the browser the wasm's
# first compile tiers) printed beside them. Figures, not a check.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
native=$(cargo bench --bench list_50k 2>/dev/null | grep '^{"bench":"client-side"' | tail -1)
wasm=$(cargo test -p informer-web --release --target wasm32-unknown-unknown --test web_bench -- --nocapture 2>/dev/null \
  | grep '^{"bench":"client-side"' | tail -1)
node -e '
const [n, w] = process.argv.slice(1).map((l) => JSON.parse(l));
const f = (x) => x.toFixed(1).padStart(8);
console.log(`client side of a ${n.pods}-Pod LIST      native      wasm   wasm/native`);
for (const [name, key] of [["DeltaFIFO.Replace", "replace_ms"], ["Pop → indexer", "pop_ms"]]) {
  console.log(`  ${name.padEnd(28)} ${f(n[key])} ms ${f(w[key])} ms   ${(w[key] / n[key]).toFixed(2)}×  (median of ${w.runs - 1} after a first run)`);
  const first = "first_" + key;
  console.log(`  ${"  its first run".padEnd(28)} ${f(n[first])} ms ${f(w[first])} ms   ${(w[first] / n[first]).toFixed(2)}×`);
}
' "$native" "$wasm"
