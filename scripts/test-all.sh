#!/usr/bin/env bash
# The whole test run: system packages, a production build, unit and API suites (PGlite, and
# PostgreSQL when TEST_DATABASE_URL is set), then the browser suite. Ends with one line
# "N passed, N failed" totalling every suite.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-system-deps.sh || exit 1
npm run build || { echo "0 passed, 1 failed"; exit 1; }

rm -rf test-results && mkdir -p test-results
# Two workers on the machine's two cores (Vitest's default here is one: cores - 1). Every server
# suite has a database of its own and keys of its own in Redis, so files may run side by side:
# 305 s with one worker in CI, 258 s with two beside another job (2026-11-27).
npx vitest run --project protocol --project scripts --project 'server*' --project 'web*' --maxWorkers=2 \
  --reporter=default --reporter=json --outputFile.json=test-results/unit.json
unit_rc=$?
bash scripts/run-e2e.sh
e2e_rc=$?

SUITE_EXIT_CODES="$unit_rc,$e2e_rc" node scripts/summarize-tests.mjs test-results/unit.json test-results/e2e.json
sum_rc=$?
if [ $unit_rc -ne 0 ] || [ $e2e_rc -ne 0 ] || [ $sum_rc -ne 0 ]; then exit 1; fi
