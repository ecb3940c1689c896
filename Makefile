# informer-playground — two commands on a fresh machine:
#   make serve   build and serve the playground on http://127.0.0.1:$(PORT)
#   make test    run every test layer (native, browser, end-to-end, real clients and the server judge)
# Both install whatever is missing first (scripts/setup.sh). One layer alone: make test-native,
# test-web, test-e2e, test-real or judge-server; the set-up alone: make setup.

PORT ?= 8080
PUBLIC_URL ?= /
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
# The module names the files its panics point at; a dependency's by where Cargo keeps it, which
# is this machine's home. Named from the registry instead, the module holds no machine's path, and
# the same sources and toolchain build the same bytes (and hash) wherever they are checked out.
# The linker keeps its relocations (`--emit-relocs`): the page's wasm is split into its first and
# later modules from them (scripts/split.mjs).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS := --remap-path-prefix=$(or $(CARGO_HOME),$(HOME)/.cargo)/registry/src=registry -Clink-args=--emit-relocs

.PHONY: test-docs judge-server ttl room room-load serve dev test test-native test-web test-e2e test-real setup dist weight bench swarm fuzz load lighthouse setup-web setup-test fmt lint

# The optimised build, as measured and as published; `make dev` rebuilds a debug build on
# every edit.
serve: setup-web
	trunk serve --release --address 127.0.0.1 --port $(PORT)

dev: setup-web
	trunk serve --address 127.0.0.1 --port $(PORT)

test: setup-test
	bash scripts/test.sh

# One layer each (scripts/test.sh): the simulation and the command line natively, the page in
# headless Chromium, the release build end to end, real clients against serve-api.
test-native: setup-test
	bash scripts/test.sh native

test-web: setup-test
	bash scripts/test.sh web

test-e2e: setup-test
	bash scripts/test.sh e2e

test-real: setup-test
	bash scripts/test.sh real

# The server judge alone: the same request scripts to a real kube-apiserver of 1.30.14, 1.33.13
# and 1.37.2 (built from the Go module proxy by the set-up) and to serve-api of that release;
# prints what it compared and each difference side by side (target/judge-server-<release>.txt).
# JUDGE_RELEASES=1.37 for one release, JUDGE_SCRIPTS=N seeded scripts (200).
judge-server: setup-test
	bash scripts/test.sh judge

# The embeds in a Docusaurus site (its packages are too slow to install within make test):
# installs them into target/docusaurus once, then runs e2e-docs/ against the release build.
test-docs: setup-test
	bash scripts/setup.sh docs
	trunk build --release
	node --test --test-reporter=spec e2e-docs/

# What make test installs, alone.
setup: setup-test

dist: setup-web
	trunk build --release --public-url $(PUBLIC_URL)
	@node scripts/sizes.mjs dist

# Where the wasm's weight is: the page's module beside the simulation alone (a session opened
# and stepped, nothing drawn), gzipped, and each one's largest groups of functions.
weight: dist
	@bash scripts/weight.sh

# Speed figures (not timed tests): the 50,000-Pod LIST through the client pipeline, beside
# real client-go doing the client side in memory (a Go peer) and beside the same work compiled
# to wasm in headless Chromium, and the cost of a time-travel snapshot. The page's own
# figures print in the end-to-end suite.
bench: setup-test
	cargo bench --bench list_50k
	bash scripts/bench-wasm.sh
	cargo bench --bench world_clone
	cargo bench --bench session_memory

# The wire under load, with serve-api built optimised: 200 client-go watchers while 5,000
# ConfigMaps are written (make test runs 1,000); prints throughput and delivery figures.
load: setup-test
	LOAD_OBJECTS=$${LOAD_OBJECTS:-5000} cargo test --release --features real-clients --test real_clients many_watchers -- --nocapture

# Lighthouse 12 (pinned, installed on first use) on the release bundle served gzip-compressed,
# its mobile profile simulated and then applied by the browser (devtools), median of 3 runs each
# with the system Chromium; prints the scores, then the time until a person can act (make ttl).
LIGHTHOUSE := target/lighthouse/node_modules/lighthouse/cli/index.js
lighthouse: dist
	@bash scripts/setup.sh measure
	@[ -f $(LIGHTHOUSE) ] || npm install --silent --no-audit --no-fund --prefix target/lighthouse lighthouse@12.8.2
	node scripts/lighthouse.mjs $(LIGHTHOUSE)
	node scripts/time-to-live.mjs

# The time until a person can act on a phone on a slow network (150 ms RTT, 1.6 Mbps, 4x CPU:
# Chromium's own throttling, and one link the server shapes), cold and warm, for the default
# view, a lesson and a Korean lesson; median of TTL_RUNS (5), TTL_SERVED picks the ways to
# serve. Also printed by make lighthouse.
ttl: dist
	@bash scripts/setup.sh measure
	node scripts/time-to-live.mjs

# A workshop room (informer-playground room): the release bundle and the room's API on this
# machine's network address, its links printed with QR codes; the room is kept in a journal of
# the day (ROOM_JOURNAL), so a restart the same day brings it back. ROOM_PORT: the port (8090).
ROOM_PORT ?= 8090
ROOM_JOURNAL ?= target/room-$(shell date +%F).jsonl
room: dist
	cargo run --release -q -- room --dist dist --port $(ROOM_PORT) --journal $(ROOM_JOURNAL)

# 300 simulated attendees against the room's server on loopback: the p95 time from a
# facilitator's step to every attendee having it, the votes lost and the server's memory.
room-load: setup-test
	cargo build -q --release --bin informer-playground --example room_load
	target/release/examples/room_load

setup-web:
	@bash scripts/setup.sh web

setup-test:
	@bash scripts/setup.sh test

fmt:
	cargo fmt

lint:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy -p informer-web --target wasm32-unknown-unknown --all-targets --features crash-button -- -D warnings
	tsc -p jsconfig.json

# 20,000 swarm seeds, optimised with the simulation's assertions on (make test runs 500):
# random worlds, each seed with its own weights of writes and faults, invariants at every step;
# a failure prints its seed and shrunk schedule (`swarm --seed N --plan` prints a seed's plan).
swarm:
	cargo run --profile swarm -- swarm --seeds $${SWARM_SEEDS:-20000}

# The fuzz targets (links, console lines, manifests, scenario files), 60 s each in release
# mode; make test runs each for 1 s. Prints inputs tried and panics.
fuzz:
	FUZZ_SECONDS=$${FUZZ_SECONDS:-60} cargo test --release --test fuzz -- --nocapture --test-threads 1
