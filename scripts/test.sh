#!/usr/bin/env bash
# Runs the test layers named (all four when none is) and sums their counts:
#   native  `cargo test` of the native crates (unit, integration, the etcd differential test)
#   web     wasm-bindgen-test in headless Chromium (the page's crate)
#   e2e     the release build, its size budget, and Playwright (playwright-core) driving
#           /usr/bin/chromium against it served on loopback
#   real    real clients against serve-api: kubectl (golden transcripts), the Python client, and
#           client-go informers of each era's release judged against the simulator on every lesson
# Each layer prints its own counts, read from its runner's summary (cargo's `test result:`
# lines, node's `ℹ pass` / `ℹ fail`); the last line is `N passed, N failed`.
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

# Sums the `test result: ok. N passed; M failed; …` lines of cargo's output (native and
# wasm-bindgen-test alike).
count_cargo() {
  grep -E '^test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed' "$1" |
    awk '{p += $4; f += $6} END {print p + 0, f + 0}'
}

layer() {
  local name=$1 status=$2 p=$3 f=$4
  # A layer that failed before reporting any test still counts as a failure.
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
  printf '\n== %s: %d passed, %d failed\n\n' "$name" "$p" "$f"
}

native() {
  echo "== layer 1: native cargo test (informer-sim, informer-playground)"
  cargo test --no-fail-fast --lib --bins --tests 2>&1 | tee "$log/native"
  local status=${PIPESTATUS[0]}
  layer "native" "$status" $(count_cargo "$log/native")
}

web() {
  echo "== layer 2: wasm-bindgen-test in headless Chromium (informer-web)"
  cargo test -p informer-web --target wasm32-unknown-unknown --test web 2>&1 | tee "$log/wasm"
  local status=${PIPESTATUS[0]}
  # The crash panel, with a test-only button that panics (feature crash-button).
  cargo test -p informer-web --target wasm32-unknown-unknown --test web_crash --features crash-button 2>&1 | tee -a "$log/wasm"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  layer "browser (wasm-bindgen-test)" "$status" $(count_cargo "$log/wasm")
}

e2e() {
  echo "== layer 3: end-to-end (release build, Playwright, Chromium)"
  local status=0 over_budget=0 p f
  trunk build --release >"$log/trunk" 2>&1 || { cat "$log/trunk"; status=1; }
  # The same bundle for a sub-path, as `make dist PUBLIC_URL=/playground/` builds it.
  trunk build --release --public-url /playground/ --dist target/dist-subpath >>"$log/trunk" 2>&1 || { cat "$log/trunk"; status=1; }
  # The first load's size against its budget (a ratchet, scripts/size-budget): one check more.
  [ "$status" -eq 0 ] && { node scripts/sizes.mjs dist || over_budget=1; }
  # The room's server, which the room's tests start.
  cargo build -q --bin informer-playground >>"$log/trunk" 2>&1 || { cat "$log/trunk"; status=1; }
  if [ "$status" -eq 0 ]; then
    node --test --test-reporter=spec e2e/ 2>&1 | tee "$log/e2e"
    status=${PIPESTATUS[0]}
  fi
  p=$(grep -Eo '^ℹ pass [0-9]+$' "$log/e2e" 2>/dev/null | awk '{print $3}')
  f=$(grep -Eo '^ℹ fail [0-9]+$' "$log/e2e" 2>/dev/null | awk '{print $3}')
  f=$((${f:-0} + over_budget))
  [ "$over_budget" -eq 0 ] || status=1
  layer "end-to-end and size budget" "$status" "${p:-0}" "$f"
}

real() {
  echo "== layer 4: real clients (kubectl, the Python client, client-go of each era) and the server judge"
  local started=$SECONDS
  cargo test --no-fail-fast --features real-clients --test real_clients --test judge_server -- --nocapture 2>&1 | tee "$log/real"
  local status=${PIPESTATUS[0]}
  echo "(layer 4 took $((SECONDS - started)) s)"
  layer "real clients and server judge" "$status" $(count_cargo "$log/real")
}

# The server judge alone: serve-api beside the real kube-apiserver of each release in
# JUDGE_RELEASES (all three unless told).
judge() {
  echo "== the server judge (kube-apiserver ${JUDGE_RELEASES:-1.30,1.33,1.37} against serve-api)"
  local started=$SECONDS
  cargo test --features real-clients --test judge_server -- --nocapture 2>&1 | tee "$log/judge"
  local status=${PIPESTATUS[0]}
  echo "(the judge took $((SECONDS - started)) s)"
  layer "server judge" "$status" $(count_cargo "$log/judge")
}

layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(native web e2e real)
for name in "${layers[@]}"; do
  case "$name" in
    native | web | e2e | real | judge) "$name" ;;
    *) echo "scripts/test.sh: no layer named '$name' (native, web, e2e, real, judge)" >&2; exit 2 ;;
  esac
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
