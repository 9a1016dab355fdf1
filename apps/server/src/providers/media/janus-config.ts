import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The configuration folder our own Janus runs with (`janus -F <dir>`). Never the shipped defaults
 * in /etc/janus: they enable every plugin and transport and carry a well-known admin secret
 * (`janusoverlord`). Here: the VideoRoom plugin only, the WebSocket transport on 127.0.0.1 only
 * (no HTTP, MQTT, RabbitMQ, Nanomsg or Unix-socket transports, no admin API), a random
 * `api_secret` for every request and a random VideoRoom `admin_key` for creating rooms.
 */
export interface JanusConfigOptions {
  dir: string;
  wsPort: number;
  apiSecret: string;
  adminKey: string;
  /** Interfaces/addresses Janus may gather ICE candidates on (ice_enforce_list); all when empty. */
  iceEnforceList: string[];
  /** Where Debian (or a source build) keeps Janus's plugins; found by `findJanusLibDir`. */
  libDir: string | null;
}

/** Where Janus's plugins and transports are installed (multiarch Debian paths, then /usr/local). */
export function findJanusLibDir(): string | null {
  const candidates: string[] = [];
  for (const root of ['/usr/lib', '/usr/local/lib']) {
    candidates.push(path.join(root, 'janus'));
    try {
      for (const e of readdirSync(root))
        if (e.includes('-linux-')) candidates.push(path.join(root, e, 'janus'));
    } catch {
      // no such folder
    }
  }
  return candidates.find((d) => existsSync(path.join(d, 'plugins', 'libjanus_videoroom.so'))) ?? null;
}

/** Every `.so` of a Janus module folder except the ones to keep: Janus's `disable` list. */
function othersThan(libDir: string | null, kind: string, keep: string[]): string {
  if (!libDir) return '';
  try {
    return readdirSync(path.join(libDir, kind))
      .filter((f) => f.endsWith('.so') && !keep.includes(f))
      .join(',');
  } catch {
    return '';
  }
}

const quote = (s: string) => `"${s.replace(/["\\]/g, '')}"`;

export function janusConfigFiles(o: JanusConfigOptions): Record<string, string> {
  const lib = o.libDir;
  const folders = lib
    ? [
        `  plugins_folder = ${quote(path.join(lib, 'plugins'))}`,
        `  transports_folder = ${quote(path.join(lib, 'transports'))}`,
        `  events_folder = ${quote(path.join(lib, 'events'))}`,
        `  loggers_folder = ${quote(path.join(lib, 'loggers'))}`,
      ]
    : [];
  const nat = ['  ignore_mdns = true', '  nice_debug = false'];
  if (o.iceEnforceList.length > 0) nat.push(`  ice_enforce_list = ${quote(o.iceEnforceList.join(','))}`);
  return {
    'janus.jcfg': [
      'general: {',
      `  configs_folder = ${quote(o.dir)}`,
      ...folders,
      '  log_to_stdout = true',
      '  debug_level = 3',
      `  api_secret = ${quote(o.apiSecret)}`,
      // The admin API is off (no admin transport); its secret is random all the same.
      `  admin_secret = ${quote(randomBytes(24).toString('hex'))}`,
      '  server_name = "Parley"',
      '  session_timeout = 60',
      '  protected_folders = "/bin,/boot,/dev,/etc,/initrd,/lib,/lib32,/lib64,/proc,/sbin,/sys,/usr,/var"',
      '}',
      'certificates: {',
      '}',
      'media: {',
      '  rtp_port_range = "20000-40000"',
      '}',
      'nat: {',
      ...nat,
      '}',
      'plugins: {',
      `  disable = ${quote(othersThan(lib, 'plugins', ['libjanus_videoroom.so']))}`,
      '}',
      'transports: {',
      `  disable = ${quote(othersThan(lib, 'transports', ['libjanus_websockets.so']))}`,
      '}',
      'loggers: {',
      `  disable = ${quote(othersThan(lib, 'loggers', []))}`,
      '}',
      'events: {',
      '  broadcast = false',
      `  disable = ${quote(othersThan(lib, 'events', []))}`,
      '}',
      '',
    ].join('\n'),
    'janus.transport.websockets.jcfg': [
      'general: {',
      '  json = "plain"',
      '  ws = true',
      `  ws_port = ${o.wsPort}`,
      '  ws_ip = "127.0.0.1"',
      '  wss = false',
      '}',
      'admin: {',
      '  admin_ws = false',
      '  admin_wss = false',
      '}',
      '',
    ].join('\n'),
    // No rooms of its own (the shipped file has a demo room): ours are created per meeting.
    'janus.plugin.videoroom.jcfg': [
      'general: {',
      `  admin_key = ${quote(o.adminKey)}`,
      '  lock_rtp_forward = true',
      '  string_ids = true',
      '}',
      '',
    ].join('\n'),
  };
}

/** Writes the folder (owner-only: it holds the secrets). */
export function writeJanusConfig(o: JanusConfigOptions): void {
  mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  for (const [name, text] of Object.entries(janusConfigFiles(o))) {
    writeFileSync(path.join(o.dir, name), text, { mode: 0o600 });
  }
}
