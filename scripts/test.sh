#!/usr/bin/env bash
# Runs every test layer and sums their counts:
#   1. native `cargo test` (unit, integration, the etcd differential test)
#   2. wasm-bindgen-test in headless Chromium
#   3. end-to-end tests: Playwright (playwright-core) driving /usr/bin/chromium against the
#      release build served on loopback
#   4. real clients against serve-api: kubectl (golden transcripts), the Python client, and
#      client-go informers of each era's release judged against the simulator on every lesson
# Each layer prints its own counts; the last line is `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
# The current etcd the store is compared with (built by scripts/setup.sh test).
export ETCD_CURRENT_BIN=${ETCD_CURRENT_BIN:-$PWD/target/realclients/etcd}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
passed=0
failed=0

# Sums the `test result:` lines of cargo's output (native and wasm-bindgen-test alike).
count_cargo() {
  local p f
  p=$(grep -Eo '^test result: [a-zA-Z]+\. [0-9]+ passed' "$1" | awk '{s += $4} END {print s + 0}')
  f=$(grep -Eo '[0-9]+ failed' "$1" | awk '{s += $1} END {print s + 0}')
  echo "$p $f"
}

layer() {
  local name=$1 status=$2 p=$3 f=$4
  # A layer that failed before reporting any test still counts as a failure.
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
  printf '\n== %s: %d passed, %d failed\n\n' "$name" "$p" "$f"
}

echo "== layer 1: native cargo test"
cargo test --lib --bins --tests 2>&1 | tee "$log/native"
status=${PIPESTATUS[0]}
read -r p f < <(count_cargo "$log/native")
layer "native" "$status" "$p" "$f"

echo "== layer 2: wasm-bindgen-test in headless Chromium"
cargo test --target wasm32-unknown-unknown --test web 2>&1 | tee "$log/wasm"
status=${PIPESTATUS[0]}
# The crash panel, with a test-only button that panics (feature crash-button).
cargo test --target wasm32-unknown-unknown --test web_crash --features crash-button 2>&1 | tee -a "$log/wasm"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
read -r p f < <(count_cargo "$log/wasm")
layer "browser (wasm-bindgen-test)" "$status" "$p" "$f"

echo "== layer 3: end-to-end (release build, Playwright, Chromium)"
status=0
trunk build --release >"$log/trunk" 2>&1 || { cat "$log/trunk"; status=1; }
# The same bundle for a sub-path, as `make dist PUBLIC_URL=/playground/` builds it.
trunk build --release --public-url /playground/ --dist target/dist-subpath >>"$log/trunk" 2>&1 || { cat "$log/trunk"; status=1; }
# The first load's size against its budget (a ratchet, scripts/size-budget): one check more.
over_budget=0
[ "$status" -eq 0 ] && { bash scripts/sizes.sh dist || over_budget=1; }
if [ "$status" -eq 0 ]; then
  node --test --test-reporter=spec e2e/ 2>&1 | tee "$log/e2e"
  status=${PIPESTATUS[0]}
fi
p=$(grep -Eo '^ℹ pass [0-9]+' "$log/e2e" 2>/dev/null | awk '{print $3}')
f=$(grep -Eo '^ℹ fail [0-9]+' "$log/e2e" 2>/dev/null | awk '{print $3}')
f=$((${f:-0} + over_budget))
[ "$over_budget" -eq 0 ] || status=1
layer "end-to-end and size budget" "$status" "${p:-0}" "$f"

echo "== layer 4: real clients (kubectl, the Python client, client-go of each era)"
started=$SECONDS
cargo test --features real-clients --test real_clients -- --nocapture 2>&1 | tee "$log/real"
status=${PIPESTATUS[0]}
read -r p f < <(count_cargo "$log/real")
echo "(layer 4 took $((SECONDS - started)) s)"
layer "real clients" "$status" "$p" "$f"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
