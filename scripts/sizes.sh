#!/usr/bin/env bash
# Prints the gzipped size of each .wasm, .js and .css file of a built bundle.
set -euo pipefail
dir=${1:-dist}
total=0
for f in "$dir"/*.wasm "$dir"/*.js "$dir"/*.css; do
  [ -e "$f" ] || continue
  raw=$(wc -c <"$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  total=$((total + gz))
  printf '%-48s %9d bytes  %8d gzipped\n' "$(basename "$f")" "$raw" "$gz"
done
printf '%-48s %9s        %8d gzipped\n' "total" "" "$total"
