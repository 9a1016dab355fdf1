#!/usr/bin/env bash
# Runs the browser suite. As root, it runs inside a private network namespace so WebRTC media
# stays on loopback (see shared TESTING-MEDIA.md); otherwise on the host network.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
args=(npx vitest run --project e2e --reporter=default --reporter=json --outputFile.json=test-results/e2e.json "$@")
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 && unshare --net true 2>/dev/null; then
  exec unshare --net bash -c 'ip link set lo up && exec "$@"' _ "${args[@]}"
fi
exec "${args[@]}"
