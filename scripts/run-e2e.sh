#!/usr/bin/env bash
# Runs the browser suite. As root, it runs inside a private network namespace so WebRTC media
# stays on loopback (see shared TESTING-MEDIA.md); otherwise on the host network.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
args=(npx vitest run --project e2e --reporter=default --reporter=json --outputFile.json=test-results/e2e.json "$@")
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 && unshare --net true 2>/dev/null; then
  # Janus skips loopback interfaces when it gathers ICE candidates: give it a veth carrying
  # 127.0.0.2 to use instead (sfu.spec.ts sets its ice_enforce_list from E2E_JANUS_IFACE).
  exec unshare --net bash -c 'ip link set lo up &&
    { ip link add jvet0 type veth peer name jvet1 && ip addr add 127.0.0.2/32 dev jvet0 &&
      ip link set jvet1 up && ip link set jvet0 up && export E2E_JANUS_IFACE=jvet0; } ;
    exec "$@"' _ "${args[@]}"
fi
exec "${args[@]}"
