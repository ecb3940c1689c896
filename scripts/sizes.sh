#!/usr/bin/env bash
# Prints the gzipped size of index.html and each .wasm, .js and .css file of a built bundle and
# the total of the first load (index.html, which carries the first screen, the files it and
# its loader name, and the default view's first steps; the embed loader and anything fetched on demand are listed apart), and fails
# when that total is above the budget in scripts/size-budget (a ratchet: lowered with every cut
# that lands, raised only with a written reason beside it).
set -euo pipefail
dir=${1:-dist}
budget=$(grep -Eo '^[0-9]+' "$(dirname "$0")/size-budget")
first_load=$(cat "$dir"/index.html "$dir"/boot-*.js 2>/dev/null)
total=0
# The default view's first steps are asked for by first-screen.js on every first load.
for f in "$dir"/index.html "$dir"/*.wasm "$dir"/*.js "$dir"/*.css "$dir"/first-steps/default.en.json; do
  [ -e "$f" ] || continue
  raw=$(wc -c <"$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  name=$(basename "$f")
  if [ "$name" = index.html ] || [ "$name" = default.en.json ] || grep -qF "$name" <<<"$first_load"; then
    total=$((total + gz))
    printf '%-48s %9d bytes  %8d gzipped\n' "$name" "$raw" "$gz"
  else
    printf '%-48s %9d bytes  %8d gzipped  (not in the first load)\n' "$name" "$raw" "$gz"
  fi
done
printf '%-48s %9s        %8d gzipped (budget %d)\n' "total" "" "$total" "$budget"
if [ "$total" -gt "$budget" ]; then
  echo "the bundle is $((total - budget)) bytes over its budget (scripts/size-budget)" >&2
  exit 1
fi
