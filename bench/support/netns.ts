import { spawnSync } from 'node:child_process';

/**
 * The interface Janus gathers on inside the namespace (`{ janus: true }`): Janus skips loopback
 * (TESTING-MEDIA.md), so a veth carrying 127.0.0.2 is added, as scripts/run-e2e.sh does.
 */
export const JANUS_IFACE = 'jvet0';

/**
 * As root, runs the calling benchmark again inside a private network namespace with only loopback
 * up, so browser media stays on loopback as in the e2e suite (TESTING-MEDIA.md), then exits with
 * its status. `janus`: the namespace also gets the veth Janus gathers on (PARLEY_JANUS_IFACE names
 * it). Elsewhere (or when unshare is missing) it returns and the bench runs on the host.
 */
export function reexecInNetns(file: string, { janus = false }: { janus?: boolean } = {}): void {
  if (process.getuid?.() !== 0 || process.env.PARLEY_NETNS) return;
  const veth =
    `ip link add ${JANUS_IFACE} type veth peer name jvet1 && ip addr add 127.0.0.2/32 dev ${JANUS_IFACE} && ` +
    `ip link set jvet1 up && ip link set ${JANUS_IFACE} up && export PARLEY_JANUS_IFACE=${JANUS_IFACE} && `;
  const r = spawnSync(
    'unshare',
    [
      '--net',
      'bash',
      '-c',
      `ip link set lo up && ${janus ? veth : ''}exec "$@"`,
      '_',
      process.execPath,
      '--import',
      'tsx',
      file,
    ],
    { stdio: 'inherit', env: { ...process.env, PARLEY_NETNS: '1' } },
  );
  if (r.error) console.warn(`no network namespace (${r.error.message}); running on the host network`);
  else process.exit(r.status ?? 1);
}
