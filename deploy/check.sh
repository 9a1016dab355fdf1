#!/usr/bin/env bash
# Checks the container files without a container engine (this machine has none):
#   - compose.yaml resolves with deploy/example.env as .env (docker compose, or docker-compose 1.x,
#     which does not know the top-level `name:` key, so it is left out for that check),
#   - each app instance's resolved environment passes the server's own config parser,
#   - compose.yaml passes yamllint, the Caddyfile passes `caddy validate` and routes as it must
#     (deploy/check-routing.mjs: a meeting's sockets to one instance), the Janus entrypoint
#     parses as sh.
# What it cannot check: that the images build and the containers run (docs/deployment.md).
# Needs: docker compose or docker-compose, yamllint, caddy (apt-get install docker-compose
# yamllint caddy); a missing tool is reported and fails the check.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "not ok - $1"; status=1; }

grep -v '^name: parley$' compose.yaml > "$tmp/compose.yaml"
cp deploy/example.env "$tmp/.env"
ln -s "$PWD/deploy" "$tmp/deploy"
if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi
if "${compose[@]}" --project-directory "$tmp" -f "$tmp/compose.yaml" config > "$tmp/resolved.yaml" 2> "$tmp/err"; then
  echo "ok - compose.yaml resolves (${compose[*]})"
  python3 -c 'import sys, yaml, json; json.dump(yaml.safe_load(sys.stdin), sys.stdout)' \
    < "$tmp/resolved.yaml" > "$tmp/resolved.json"
  node --import tsx deploy/check-config.ts < "$tmp/resolved.json" || status=1
else
  fail "compose.yaml does not resolve: $(cat "$tmp/err")"
fi
if command -v yamllint >/dev/null; then
  yamllint -d '{extends: default, rules: {line-length: {max: 110}, document-start: disable, truthy: disable}}' \
    compose.yaml && echo "ok - yamllint compose.yaml" || fail "yamllint compose.yaml"
else fail "yamllint is not installed"; fi
if command -v caddy >/dev/null; then
  PARLEY_UPSTREAMS="127.0.0.1:3101 127.0.0.1:3102" caddy validate --adapter caddyfile \
    --config deploy/caddy/Caddyfile >/dev/null 2>&1 && echo "ok - caddy validate deploy/caddy/Caddyfile" \
    || fail "caddy validate deploy/caddy/Caddyfile"
  node deploy/check-routing.mjs || status=1
else fail "caddy is not installed"; fi
sh -n deploy/janus/entrypoint.sh && echo "ok - deploy/janus/entrypoint.sh parses" || fail "entrypoint.sh"
exit $status
