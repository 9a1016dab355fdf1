#!/usr/bin/env bash
# Installs the Debian packages the test suites need. Idempotent: installs only what is missing.
set -euo pipefail

PACKAGES=(chromium fonts-liberation iproute2 util-linux)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "system deps: all present (${PACKAGES[*]})"
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
