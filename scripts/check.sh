#!/usr/bin/env bash
# `npm run check`: types, lint and format. The type check (one tsc at a time, about 55 s here)
# runs beside lint and then the format check, each on one of the machine's cores, instead of all
# three one after the other (about 92 s); each part's output is printed whole once it is done.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

npm run --silent typecheck > "$out/types" 2>&1 &
types=$!
{ npm run --silent lint && npm run --silent format:check; } > "$out/style" 2>&1
style_rc=$?
wait "$types"
types_rc=$?

echo '> typecheck'; cat "$out/types"
echo '> lint, format:check'; cat "$out/style"
if [ "$types_rc" -ne 0 ]; then echo 'check: type errors'; fi
if [ "$style_rc" -ne 0 ]; then echo 'check: lint or format problems'; fi
[ "$types_rc" -eq 0 ] && [ "$style_rc" -eq 0 ]
