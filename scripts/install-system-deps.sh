#!/usr/bin/env bash
# Installs the Debian packages Parley needs. Idempotent: installs only what is missing.
#   bash scripts/install-system-deps.sh            everything the test suites need (fails if it cannot)
#   bash scripts/install-system-deps.sh --runtime  what `npm start` uses; never fails: when it cannot
#                                                  install, the server says at start-up what is off and why
set -uo pipefail

# What the running app uses: the embedded AI engines (AI-ENGINES.md) — pocketsphinx speech-to-text
# (library + English model), apertium translation pairs, ffmpeg to decode recorded audio — and
# DejaVu fonts for the summary PDF, and the Janus SFU (meetings of three or more; without it the
# server says so at start-up and meetings stay peer-to-peer, capped at 4) with janus-tools
# (`janus-pp-rec`: with ffmpeg it turns Janus's recordings into one file; without it the room
# does not offer recording and says why).
RUNTIME=(libpocketsphinx3 pocketsphinx-en-us ffmpeg apertium apertium-eng-spa apertium-fr-es
  apertium-es-pt apertium-spa-ita fonts-dejavu-core janus janus-tools)
# What the tests add: chromium + fonts (browser suite), iproute2 + util-linux (its private network
# namespace), redis-server (the Redis bus test: a real part, on CI a missing Redis fails the run),
# flite/espeak-ng/sox (test speech), pocketsphinx-testdata (recorded speech for the WER bench), poppler-utils (pdftotext reads exported PDFs),
# coturn (turn.spec.ts starts its own `turnserver` on loopback; `npm start` does not use it).
TESTS=(chromium fonts-liberation iproute2 util-linux redis-server flite espeak-ng sox poppler-utils
  pocketsphinx-testdata coturn)

runtime_only=false
[ "${1:-}" = "--runtime" ] && runtime_only=true
if $runtime_only; then PACKAGES=("${RUNTIME[@]}"); else PACKAGES=("${RUNTIME[@]}" "${TESTS[@]}"); fi

# Redis must listen on 127.0.0.1:6379 for the tests; start one when nothing answers there.
ensure_redis() {
  $runtime_only && return 0
  if (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then return 0; fi
  echo "system deps: starting redis-server on 127.0.0.1:6379"
  redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --daemonize yes >/dev/null
}

fail() {
  if $runtime_only; then
    echo "system deps: $1 — the app starts without what they provide (it says what is off)" >&2
    exit 0
  fi
  echo "system deps: $1" >&2
  exit 1
}

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "system deps: all present (${PACKAGES[*]})"
  ensure_redis || fail "could not start redis-server"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; else
    fail "missing ${missing[*]} and not root (no sudo); install them with apt-get"
  fi
fi

echo "system deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || fail "apt-get update failed; missing ${missing[*]}"
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" || fail "could not install ${missing[*]}"
ensure_redis || fail "could not start redis-server"
