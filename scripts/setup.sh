#!/usr/bin/env bash
# Installs what building and testing the playground needs, only where it is missing.
#   scripts/setup.sh web    wasm32 target, trunk, wasm-bindgen-cli, npm tools (wasm-opt)
#   scripts/setup.sh test   the above, plus Chromium, ChromeDriver, etcd and the Go peers
#                           (tests/realclients/*: real clients and a current etcd, built
#                           into target/realclients/)
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "setup: need root to run: $*" >&2; return 1; fi
}

ensure_wasm_target() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown && return
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
}

ensure_trunk() {
  [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ] && return
  say "installing trunk $TRUNK_VERSION (takes 10-15 minutes once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
}

ensure_wasm_bindgen() {
  # The CLI must equal the wasm-bindgen crate version in Cargo.lock.
  local want
  want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
  [ -n "$want" ] || { cargo generate-lockfile; want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock); }
  [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $want" ] && return
  say "installing wasm-bindgen-cli $want"
  # Without --locked: the CLI's own lock file names a crate version the registry lacks.
  cargo install wasm-bindgen-cli --version "$want" --force
}

ensure_npm_tools() {
  if [ -x node_modules/.bin/wasm-opt ] && [ -d node_modules/playwright-core ] && [ node_modules/.package-lock.json -nt package.json ]; then return; fi
  say "installing npm tools (binaryen, playwright-core)"
  npm install --no-audit --no-fund --loglevel=error
}

ensure_apt() {
  local missing=()
  command -v chromium >/dev/null || missing+=(chromium)
  command -v chromedriver >/dev/null || missing+=(chromium-driver)
  command -v etcd >/dev/null || missing+=(etcd-server)
  command -v etcdctl >/dev/null || missing+=(etcd-client)
  # Korean glyphs for the screenshots the end-to-end suite takes.
  [ -d /usr/share/fonts/opentype/noto ] || missing+=(fonts-noto-cjk)
  [ ${#missing[@]} -eq 0 ] && return
  say "installing ${missing[*]} from Debian's packages"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

ensure_go_peers() {
  command -v go >/dev/null || { say "installing Go from Debian's packages"; as_root apt-get install -y -qq golang-go >/dev/null; }
  mkdir -p target/realclients
  local dir name
  for dir in tests/realclients/*/; do
    name=$(basename "$dir")
    # go build is incremental: a peer already built and unchanged takes a second.
    [ -x "target/realclients/$name" ] && [ -z "$(find "$dir" -newer "target/realclients/$name" -type f)" ] && continue
    say "building the Go peer $name (the first build downloads its modules)"
    (cd "$dir" && go build -o "../../../target/realclients/$name" .)
  done
}

case "${1:-web}" in
  web) ensure_wasm_target; ensure_npm_tools; ensure_wasm_bindgen; ensure_trunk ;;
  test) ensure_wasm_target; ensure_npm_tools; ensure_apt; ensure_wasm_bindgen; ensure_trunk; ensure_go_peers ;;
  *) echo "usage: scripts/setup.sh [web|test]" >&2; exit 2 ;;
esac
