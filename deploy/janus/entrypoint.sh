#!/bin/sh
# Writes Janus's config from the environment (JANUS_API_SECRET, JANUS_PUBLIC_IP) and runs it.
# The WebSocket API listens on the container network only (the app instances are its only
# clients); the admin API, HTTP and the other transports and plugins stay off.
set -eu
: "${JANUS_API_SECRET:?set JANUS_API_SECRET}"
dir=/tmp/janus-config
mkdir -p "$dir"
chmod 700 "$dir"
lib=$(dirname "$(find /usr/lib -path '*/janus/plugins/libjanus_videoroom.so' | head -n 1)")
lib=$(dirname "$lib")
others() { # every module of a kind except the ones named: Janus's "disable" list
  kind=$1; shift
  ls "$lib/$kind" 2>/dev/null | grep '\.so$' | grep -v -x -F "$(printf '%s\n' "$@")" | paste -sd, - || true
}
nat=""
[ -n "${JANUS_PUBLIC_IP:-}" ] && nat="nat_1_1_mapping = \"$JANUS_PUBLIC_IP\""
cat > "$dir/janus.jcfg" <<CFG
general: {
  configs_folder = "$dir"
  plugins_folder = "$lib/plugins"
  transports_folder = "$lib/transports"
  events_folder = "$lib/events"
  loggers_folder = "$lib/loggers"
  log_to_stdout = true
  debug_level = 3
  api_secret = "$JANUS_API_SECRET"
  admin_secret = "$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  server_name = "Parley"
  session_timeout = 60
}
media: {
  rtp_port_range = "20000-20099"
}
nat: {
  ignore_mdns = true
  $nat
}
plugins: {
  disable = "$(others plugins libjanus_videoroom.so)"
}
transports: {
  disable = "$(others transports libjanus_websockets.so)"
}
loggers: {
  disable = "$(others loggers)"
}
events: {
  broadcast = false
  disable = "$(others events)"
}
CFG
cat > "$dir/janus.transport.websockets.jcfg" <<CFG
general: {
  json = "plain"
  ws = true
  ws_port = 8188
  wss = false
}
admin: {
  admin_ws = false
  admin_wss = false
}
CFG
cat > "$dir/janus.plugin.videoroom.jcfg" <<CFG
general: {
  admin_key = "$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  lock_rtp_forward = true
  string_ids = true
}
CFG
exec janus -F "$dir"
