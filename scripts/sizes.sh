#!/usr/bin/env bash
# Prints the gzipped size of each .wasm, .js and .css file of a built bundle and their total,
# and fails when the total is above the budget in scripts/size-budget (a ratchet: lowered with
# every cut that lands, raised only with a written reason beside it).
set -euo pipefail
dir=${1:-dist}
budget=$(grep -Eo '^[0-9]+' "$(dirname "$0")/size-budget")
total=0
for f in "$dir"/*.wasm "$dir"/*.js "$dir"/*.css; do
  [ -e "$f" ] || continue
  raw=$(wc -c <"$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  total=$((total + gz))
  printf '%-48s %9d bytes  %8d gzipped\n' "$(basename "$f")" "$raw" "$gz"
done
printf '%-48s %9s        %8d gzipped (budget %d)\n' "total" "" "$total" "$budget"
if [ "$total" -gt "$budget" ]; then
  echo "the bundle is $((total - budget)) bytes over its budget (scripts/size-budget)" >&2
  exit 1
fi
