#!/usr/bin/env bash
# Installs the Debian packages the test suites need. Idempotent: installs only what is missing.
set -euo pipefail

# chromium + fonts: the browser suite; iproute2 + util-linux: its private network namespace;
# redis-server: the Redis bus test (a real part: on CI a missing Redis fails the run).
PACKAGES=(chromium fonts-liberation iproute2 util-linux redis-server)

# Redis must listen on 127.0.0.1:6379 for the tests; start one when nothing answers there.
ensure_redis() {
  if (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then return 0; fi
  echo "system deps: starting redis-server on 127.0.0.1:6379"
  redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --daemonize yes >/dev/null
}

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "system deps: all present (${PACKAGES[*]})"
  ensure_redis
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "system deps: missing ${missing[*]} and not root (no sudo); install them with apt-get" >&2
    exit 1
  fi
fi

echo "system deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
ensure_redis
