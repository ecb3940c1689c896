#!/usr/bin/env bash
# Installs what building and testing the playground needs, only where it is missing.
#   scripts/setup.sh web    wasm32 target, trunk, wasm-bindgen-cli, wasm-split-cli, npm tools (wasm-opt,
#                           playwright-core), Chromium (the release build draws its first
#                           screen with it)
#   scripts/setup.sh test   the above, plus Chromium, ChromeDriver, etcd, the Go peers
#                           (tests/realclients/*: kubectl, client-go informers of each era,
#                           a current etcd, built into target/realclients/) and the Python
#                           Kubernetes client (in target/realclients/venv), and the
#                           documentation generators the embeds are tested in (Hugo from
#                           Debian; MkDocs and Sphinx in target/docs-venv)
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

# Splits the page's wasm into its first and later modules (scripts/split.mjs).
WASM_SPLIT_VERSION=0.2.4
ensure_wasm_split() {
  # (The command prints no version: Cargo's list of what it installed does.)
  command -v wasm-split-cli >/dev/null && cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:" && return
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (a few minutes once)"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked
}

ensure_npm_tools() {
  if [ -x node_modules/.bin/wasm-opt ] && [ -d node_modules/playwright-core ] && [ node_modules/.package-lock.json -nt package.json ]; then return; fi
  say "installing npm tools (binaryen, playwright-core)"
  npm install --no-audit --no-fund --loglevel=error
}

# Installs Debian packages, when any are named.
apt_install() {
  [ $# -eq 0 ] && return
  say "installing $* from Debian's packages"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# The release build draws its first screen with Chromium (scripts/prerender.mjs).
ensure_chromium() {
  command -v chromium >/dev/null || apt_install chromium
}

ensure_apt() {
  local missing=()
  command -v chromium >/dev/null || missing+=(chromium)
  command -v chromedriver >/dev/null || missing+=(chromium-driver)
  command -v etcd >/dev/null || missing+=(etcd-server)
  command -v etcdctl >/dev/null || missing+=(etcd-client)
  [ -d "$KOREAN_FONTS" ] || missing+=(fonts-noto-cjk)
  # A documentation generator the embeds are tested in (e2e/docs-sites.test.mjs).
  command -v hugo >/dev/null || missing+=(hugo)
  apt_install "${missing[@]}"
}

# Korean glyphs, as a phone has them: for the screenshots the end-to-end suite takes and for the
# Korean pages `make ttl` and `make lighthouse` time (without them every Hangul syllable is a
# font fallback search, and laying a Korean page out costs what no phone pays).
KOREAN_FONTS=/usr/share/fonts/opentype/noto
ensure_fonts() {
  [ -d "$KOREAN_FONTS" ] || apt_install fonts-noto-cjk
}

# MkDocs with Material and Sphinx with Furo, pinned, for e2e/docs-sites.test.mjs.
ensure_docs_generators() {
  local venv=target/docs-venv stamp=target/docs-venv/requirements.txt
  if [ -x "$venv/bin/mkdocs" ] && [ -x "$venv/bin/sphinx-build" ] && cmp -s tests/docs-sites/requirements.txt "$stamp"; then
    return
  fi
  say "installing MkDocs, Material, Sphinx and Furo into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r tests/docs-sites/requirements.txt
  cp tests/docs-sites/requirements.txt "$stamp"
}

ensure_go_peers() {
  command -v go >/dev/null || { say "installing Go from Debian's packages"; as_root apt-get install -y -qq golang-go >/dev/null; }
  mkdir -p target/realclients
  local dir name flags started=$SECONDS root=$PWD
  # The starter controller learners run (examples/) is built beside the peers that judge.
  for dir in tests/realclients/*/ examples/starter-controller/; do
    name=$(basename "$dir")
    [ -f "$dir/main.go" ] || continue
    # go build is incremental: a peer already built and unchanged takes a second.
    if [ -x "target/realclients/$name" ] && [ -z "$(find "$dir" tests/realclients/harness -newer "target/realclients/$name" -type f)" ]; then
      continue
    fi
    say "building the Go peer $name (the first build downloads its modules)"
    flags=$(cat "$dir/ldflags" 2>/dev/null || true)
    local built=$SECONDS
    (cd "$dir" && go build -ldflags "$flags" -o "$root/target/realclients/$name" .)
    say "built $name in $((SECONDS - built)) s"
  done
  [ $((SECONDS - started)) -gt 1 ] && say "Go peers ready in $((SECONDS - started)) s"
  return 0
}

ensure_python_client() {
  local venv=target/realclients/venv want
  want=$(cat tests/realclients/python/requirements.txt)
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import kubernetes, sys; sys.exit(kubernetes.__version__ != '${want#*==}')" 2>/dev/null; then
    return
  fi
  say "installing the Python Kubernetes client ($want) into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r tests/realclients/python/requirements.txt
}

# Docusaurus and React, as pinned in tests/docs-sites/docusaurus (make test-docs only).
ensure_docusaurus() {
  local site=tests/docs-sites/docusaurus into=target/docusaurus
  if cmp -s "$site/package.json" "$into/package.json" && cmp -s "$site/package-lock.json" "$into/package-lock.json" && [ -x "$into/node_modules/.bin/docusaurus" ]; then
    return
  fi
  say "installing Docusaurus into $into (a few minutes)"
  rm -rf "$into" && mkdir -p "$into"
  cp "$site/package.json" "$site/package-lock.json" "$into/" 2>/dev/null || cp "$site/package.json" "$into/"
  (cd "$into" && npm install --no-audit --no-fund --loglevel=error)
}

case "${1:-web}" in
  web) ensure_wasm_target; ensure_npm_tools; ensure_chromium; ensure_wasm_bindgen; ensure_wasm_split; ensure_trunk ;;
  test) ensure_wasm_target; ensure_npm_tools; ensure_apt; ensure_wasm_bindgen; ensure_wasm_split; ensure_trunk; ensure_go_peers; ensure_python_client; ensure_docs_generators ;;
  measure) ensure_chromium; ensure_fonts ;;
  docs) ensure_docusaurus ;;
  *) echo "usage: scripts/setup.sh [web|test|measure|docs]" >&2; exit 2 ;;
esac
