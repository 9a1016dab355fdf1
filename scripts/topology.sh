#!/usr/bin/env bash
# The tested topology as processes (this machine cannot run containers): two Parley instances
# (ports TOPOLOGY_PORT+1 and +2) on PostgreSQL and Redis, behind a small TCP proxy on
# TOPOLOGY_PORT (default 3100). Runs the server from source (tsx), so no build is needed.
#
#   bash scripts/topology.sh            start it and keep it running (Ctrl-C stops everything)
#   bash scripts/topology.sh --smoke    start it, drain one instance (SIGTERM) and kill the other
#                                       (SIGKILL) with clients connected through the proxy, check
#                                       that they stay in their meeting, and stop
#
# Defaults: REDIS_URL=redis://127.0.0.1:6379/5, DATABASE_URL=postgres://postgres@127.0.0.1:5432/
# parley_topology (created when missing), PRESENCE_TTL_MS=3000, DATA_DIR=data/topology.
set -euo pipefail
cd "$(dirname "$0")/.."

db_url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/parley_topology}"
db_name="${db_url##*/}"
db_server="${db_url%/*}"
if ! psql "$db_url" -c 'select 1' >/dev/null 2>&1; then
  psql "$db_server/postgres" -c "CREATE DATABASE \"$db_name\"" >/dev/null
fi
redis_url="${REDIS_URL:-redis://127.0.0.1:6379/5}"
redis_hostport="${redis_url#redis://}"
redis_hostport="${redis_hostport%%/*}"
if ! (exec 3<>"/dev/tcp/${redis_hostport%%:*}/${redis_hostport##*:}") 2>/dev/null; then
  echo "Redis is not listening at $redis_hostport (scripts/install-system-deps.sh installs it)" >&2
  exit 1
fi
exec node scripts/topology.mjs "$@"
